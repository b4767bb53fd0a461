/**
 * The ways a command line asks for one turn besides `run PROMPT` (issue 37, the habits of Claude
 * Code and Gemini CLI): `-p PROMPT` / `--prompt`, and a first word that is no command. `sees` is the
 * prompt the model got (the session's user event); a case without it must not start a turn.
 * A first word within an edit of a command's name is a mistyped command (did-you-mean, exit 2).
 */
export interface PromptFormCase {
  name: string;
  argv: string[];
  /** Written to a pipe on stdin (a shell's `|`). */
  stdin?: string;
  code: number;
  sees?: string;
  stdout?: RegExp;
  stderr?: RegExp;
}

const M = ['-m', 'replay:s.jsonl', '--session-db', 'db'];

// One case a line (prettier would spread each over several).
// prettier-ignore
export const PROMPT_FORM_CASES: PromptFormCase[] = [
  { name: '-p PROMPT, flags after', argv: ['-p', 'why does it crash?', ...M], code: 0, sees: 'why does it crash?', stdout: /^ok\n$/ },
  { name: 'flags first, then -p PROMPT', argv: [...M, '-p', 'why?'], code: 0, sees: 'why?' },
  { name: '--prompt PROMPT', argv: ['--prompt', 'why?', ...M], code: 0, sees: 'why?' },
  { name: '--prompt=PROMPT', argv: [...M, '--prompt=why?'], code: 0, sees: 'why?' },
  { name: '-p with piped stdin: appended, as with run', argv: ['-p', 'why?', ...M], stdin: 'ERR 42\n', code: 0, sees: 'why?\n\nstdin (7 bytes):\n```\nERR 42\n```' },
  { name: '-p with -o json: the JSON stream', argv: ['-p', 'why?', '-o', 'json', ...M], code: 0, sees: 'why?', stdout: /^\{"type":"session"[^]*"type":"exit"[^\n]*"status":0/ },
  { name: 'run -p PROMPT: the flag on run itself', argv: ['run', '-p', 'why?', ...M], code: 0, sees: 'why?' },
  { name: 'a quoted prompt as the first word', argv: ['why does it crash?', ...M], code: 0, sees: 'why does it crash?' },
  { name: 'a prompt of several unquoted words', argv: ['explain', 'the', 'build', ...M], code: 0, sees: 'explain the build' },
  { name: 'one word far from every command is a prompt', argv: ['hello', ...M], code: 0, sees: 'hello' },
  { name: 'a prompt that starts with a command word', argv: ['run the tests', ...M], code: 0, sees: 'run the tests' },
  { name: 'a bare prompt with -o json: its usage errors are JSON too', argv: ['why?', '-o', 'json', '--max-steps', 'x', ...M], code: 2, stdout: /^\{"type":"error".*--max-steps must be a positive integer.*"exit":2\}\n$/ },
  { name: 'a mistyped command: did-you-mean, nothing run', argv: ['rnu', ...M], code: 2, stderr: /^core-agent: unknown command "rnu" — did you mean "run"\? \(to send it as a prompt: core-agent -p rnu\)\n/ },
  { name: 'a mistyped command with its subcommand', argv: ['sesions', 'list'], code: 2, stderr: /did you mean "sessions"\?/ },
  { name: 'a long mistyped command (two edits)', argv: ['complition', 'bash'], code: 2, stderr: /did you mean "completion"\?/ },
  { name: 'one transposition', argv: ['doctro'], code: 2, stderr: /did you mean "doctor"\?/ },
  { name: '-p sends a command-like word as a prompt', argv: ['-p', 'rnu', ...M], code: 0, sees: 'rnu' },
  { name: '-p with no value', argv: ['-p'], code: 2, stderr: /--prompt needs a value/ },
  { name: '-p with a value that starts with "-"', argv: ['-p', '-v is broken', ...M], code: 2, stderr: /--prompt: its value starts with "-"; write --prompt=VALUE/ },
  { name: '--prompt=-v…: the way to give it', argv: [...M, '--prompt=-v is broken'], code: 0, sees: '-v is broken' },
  { name: 'a bare prompt without a model: run\'s error', argv: ['why?'], code: 2, stderr: /no model: give --model[^]*core-agent run --help/ },
];
