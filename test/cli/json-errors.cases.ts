/**
 * `run` with JSON output asked for, and a mistake: the one line on stdout is an
 * `error` event (docs/json-stream.md) with the exit status the process ends with.
 * `json: false` cases did not ask for JSON (the last -o wins; a PROMPT after --
 * is not a flag): the error is text on stderr and stdout stays empty. A new case is one line.
 */
export interface JsonErrorCase {
  readonly argv: readonly string[];
  readonly message: RegExp;
  readonly exit?: number;
  readonly env?: Readonly<Record<string, string>>;
  /** Files to create in the workspace first. */
  readonly files?: Readonly<Record<string, string>>;
  readonly json?: false;
}

const R = ['-m', 'replay:s.jsonl'];

export const JSON_ERROR_CASES: readonly JsonErrorCase[] = [
  { argv: ['run', '-o', 'json', '--modle', 'x', 'hi'], message: /^unknown option --modle — did you mean "--model" or "--mode"\?/ },
  { argv: ['run', '--output', 'json', '--max-stpes', '3', 'hi'], message: /^unknown option --max-stpes — did you mean "--max-steps"\?/ },
  { argv: ['run', '--output=json', '-m', 'foo:bar', 'hi'], message: /^provider "foo" is unknown \(known: replay, google/ },
  { argv: ['run', '-ojson', '-m', 'gogle:gemini-2.5-flash', 'hi'], message: /provider "gogle" is unknown — did you mean "google"\?/ },
  { argv: ['run', '-o', 'json', '--yolo=1', 'hi'], message: /^--yolo takes no value$/ },
  { argv: ['run', 'hi', '-o', 'json', '-m'], message: /^--model needs a value: --model VALUE$/ },
  { argv: ['run', '-o', 'json', 'hi'], message: /^no model: give --model/ },
  { argv: ['run', '-o', 'json'], message: /^run needs a PROMPT/ },
  { argv: ['run', '-o', 'json', '-m', 'replay:/nonexistent.jsonl', 'hi'], message: /cannot use the replay script: \/nonexistent\.jsonl/ },
  { argv: ['run', '-o', 'json', '-m', 'openai:gpt-4.1', 'hi'], message: /^openai:gpt-4\.1 needs an API key: set OPENAI_API_KEY$/ },
  { argv: ['run', '-o', 'json', ...R, '--session-db', ':memory:', '--resume', 's-nope'], message: /^no session "s-nope"/ },
  { argv: ['run', '-o', 'json', ...R, '--max-steps', '0', 'hi'], message: /^--max-steps must be a positive integer$/ },
  { argv: ['run', '-o', 'json', ...R, '--max-turns', 'x', 'hi'], message: /^--max-turns must be a positive integer$/ },
  { argv: ['run', '-o', 'json', ...R, '--mode', 'nope', 'hi'], message: /^--mode: unknown permission mode "nope"/ },
  { argv: ['run', '-o', 'json', ...R, '--watchdog', 'bogus', 'hi'], message: /^--watchdog: unknown value "bogus"/ },
  { argv: ['run', '-o', 'json', ...R, '-w', '/nonexistent', 'hi'], message: /^workspace \/nonexistent does not exist$/ },
  { argv: ['run', '-o', 'json', ...R, '-c', 'missing.yaml', 'hi'], message: /^missing\.yaml: cannot read a recipe \(no such file\)$/ },
  { argv: ['run', '-o', 'json', ...R, '-c', 'bad.yaml', 'hi'], files: { 'bad.yaml': 'model: [\n' }, message: /^bad\.yaml:2:1: / },
  { argv: ['run', '-o', 'json', ...R, 'hi'], env: { CORE_AGENT_LOG_LEVEL: 'loud' }, message: /CORE_AGENT_LOG_LEVEL/ },
  { argv: ['run', '-o', 'text', '-o', 'json', 'hi'], message: /^no model/ },
  { argv: ['run', '-o', 'json', '-o', 'text', 'hi'], message: /no model/, json: false },
  { argv: ['run', '--', '-o', 'json'], message: /no model/, json: false },
  { argv: ['run', '-o', 'yaml', 'hi'], message: /--output: unknown value "yaml"\. Valid: text, json/, json: false },
];
