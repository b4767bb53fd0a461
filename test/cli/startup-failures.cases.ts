/**
 * Start-up failures on a terminal (issue 37): each must print its sentence and end the process
 * at once with status 2 — no keypress, no Ctrl-D. `args` are the flags after the entry point
 * (`repl`, no command word, `run PROMPT`); `files` are written in the workspace (also HOME);
 * `says` is what the screen must show.
 */
export interface StartupFailureCase {
  name: string;
  args: string[];
  files?: Record<string, string>;
  /** A directory where the case needs something that cannot be read as a file. */
  dirs?: string[];
  env?: Record<string, string>;
  says: RegExp;
}

const MODEL = ['-m', 'replay:s.jsonl'];

// One case a line (prettier would spread each over several).
// prettier-ignore
export const STARTUP_FAILURE_CASES: StartupFailureCase[] = [
  { name: 'no model anywhere', args: [], says: /no model: give --model/ },
  { name: 'a model without its key', args: ['-m', 'openai:gpt-4o'], says: /OPENAI_API_KEY/ },
  { name: 'an unknown provider', args: ['-m', 'nosuch:x'], says: /provider "nosuch" is unknown/ },
  { name: 'a replay script that does not exist', args: ['-m', 'replay:missing.jsonl'], says: /missing\.jsonl/ },
  { name: 'a model from a bad CORE_AGENT_MODEL', args: [], env: { CORE_AGENT_MODEL: 'gpt-4o' }, says: /CORE_AGENT_MODEL/ },
  { name: 'a recipe that does not exist', args: [...MODEL, '-c', 'nope.yaml'], says: /nope\.yaml: cannot read a recipe/ },
  { name: 'a recipe with a YAML error', args: [...MODEL, '-c', 'bad.yaml'], files: { 'bad.yaml': 'model: [\n' }, says: /bad\.yaml:\d+:\d+: / },
  { name: 'a recipe with a misspelt key', args: [...MODEL, '-c', 'typo.yaml'], files: { 'typo.yaml': 'max_stesp: 3\n' }, says: /typo\.yaml:1:1: .*max_stesp/ },
  { name: 'a recipe whose hook the gate refuses', args: [...MODEL, '-c', 'hooks.yaml'], files: { 'hooks.yaml': 'hooks:\n  tool-start:\n    - command: [touch, x]\n' }, says: /hooks\.tool-start\[0\]: the permission gate refuses it/ },
  { name: 'an unknown --resume', args: [...MODEL, '--session-db', 'db', '--resume', 's-nope'], says: /no session "s-nope"/ },
  { name: 'a session database that is not one', args: [...MODEL, '--session-db', 'not.db'], files: { 'not.db': 'this is not SQLite, just text long enough to have a header' }, says: /not\.db/ },
  { name: 'a bad flag value', args: [...MODEL, '--max-steps', 'many'], says: /--max-steps must be a positive integer/ },
  { name: 'a bad --mode', args: [...MODEL, '--mode', 'sometimes'], says: /unknown permission mode "sometimes"/ },
  { name: 'an unknown flag', args: [...MODEL, '--frobnicate'], says: /unknown option.*--frobnicate|--frobnicate/ },
  { name: 'a flag without its value', args: ['-m'], says: /-m/ },
  { name: 'a bad CORE_AGENT_* value', args: MODEL, env: { CORE_AGENT_WATCHDOG: 'nah' }, says: /CORE_AGENT_WATCHDOG: unknown value "nah"/ },
  { name: 'a workspace that does not exist', args: [...MODEL, '-w', '/nonexistent/ws'], says: /workspace \/nonexistent\/ws does not exist/ },
  { name: 'an unreadable project config (a directory)', args: MODEL, dirs: ['.agents/config.yaml'], says: /\.agents\/config\.yaml: not a regular file/ },
  { name: 'a project config that does not parse', args: MODEL, files: { '.agents/config.yaml': 'mode: [\n' }, says: /\.agents\/config\.yaml:\d+:\d+: / },
  { name: 'a user config that does not parse', args: MODEL, files: { '.config/core-agent/config.yaml': 'model: [\n' }, says: /\.config\/core-agent\/config\.yaml:\d+:\d+: / },
  { name: 'a trusted mcp.json that does not parse', args: [...MODEL, '--trust-workspace'], files: { '.agents/mcp.json': '{"servers": {"x": {"comand": "y"}}}' }, says: /mcp\.json:1:\d+: .*comand/ },
];
