// What `core-agent completion bash` completes (test/cli/completion.test.ts): the command line
// before the cursor (words split on spaces; a trailing space means the cursor is on a new,
// empty word; "=" is its own word, as bash splits --flag=value), and what COMPREPLY must hold
// (`has`), must not (`not`), or must be exactly (`exactly`). Run in a directory holding
// r.yaml, s.yml, notes.txt and sub/. One line a case.

export interface CompletionCase {
  line: string;
  has?: string[];
  not?: string[];
  exactly?: string[];
}

export const COMPLETION_CASES: CompletionCase[] = [
  { line: '', has: ['run', 'repl', 'sessions', 'tools', 'recipe', 'mcp', 'watch', 'doctor', 'completion'] },
  { line: 'r', exactly: ['run', 'repl', 'recipe'] },
  { line: 'do', exactly: ['doctor'] },
  { line: '-', has: ['--version', '--model', '--help', '-p', '--prompt'], not: ['run'] },
  { line: 'run --pr', exactly: ['--prompt'] },
  { line: '--model replay:x ', has: ['run', 'sessions'] },
  { line: 'sessions ', exactly: ['list', 'show', 'rm', 'prune'] },
  { line: 'sessions p', exactly: ['prune'] },
  { line: 'sessions list --', has: ['--all', '--json', '--older-than', '--workspace', '--session-db'], not: ['--model'] },
  { line: 'sessions list -w ', exactly: ['sub'] },
  { line: 'sessions prune --older-than 7d --d', exactly: ['--dry-run'] },
  { line: 'tools ', exactly: ['list', 'call'] },
  { line: 'tools call ', has: ['read_file', 'bash', 'grep', 'k8s_get'] },
  { line: 'tools call read_', has: ['read_file', 'read_many_files'], not: ['bash'] },
  { line: 'tools call memory', has: ['memory', 'memory_view', 'memory_write'], not: ['bash'] },
  { line: 'tools call --mode ', exactly: ['ask', 'accept-edits', 'plan', 'yolo'] },
  { line: 'tools list --j', exactly: ['--json'] },
  { line: 'tools list --', not: ['--mode', '--model'] },
  { line: 'recipe ', exactly: ['validate', 'schema'] },
  { line: 'recipe validate ', has: ['r.yaml', 's.yml', 'sub'], not: ['notes.txt'] },
  { line: 'mcp ', exactly: ['serve', 'list', 'login', 'logout'] },
  { line: 'mcp serve --h', exactly: ['--help', '--http'] },
  { line: 'mcp serve --token-env X --', has: ['--http', '--mode'] },
  { line: 'run -o ', exactly: ['text', 'json'] },
  { line: 'run --output j', exactly: ['json'] },
  { line: 'run --output = ', exactly: ['text', 'json'] },
  { line: 'run --output = t', exactly: ['text'] },
  { line: 'run --output=', exactly: ['text', 'json'] },
  { line: 'run --mode ', exactly: ['ask', 'accept-edits', 'plan', 'yolo'] },
  { line: 'run --mode a', exactly: ['ask', 'accept-edits'] },
  { line: 'run -c ', has: ['r.yaml', 's.yml', 'sub'], not: ['notes.txt'] },
  { line: 'run --recipe = ', has: ['r.yaml'], not: ['notes.txt'] },
  { line: 'run --session-db ', has: ['notes.txt', 'r.yaml'] },
  { line: 'run -w ', exactly: ['sub'] },
  { line: 'run --model ', has: ['anthropic:', 'replay:', 'google:', 'openai-compatible:'] },
  { line: 'run --model op', exactly: ['openai:', 'openai-compatible:'] },
  { line: 'run --log-level ', has: ['warn', 'debug', 'silent'] },
  { line: 'run --watchdog e', exactly: ['enforce'] },
  { line: 'run --ask ', exactly: ['off', 'stdin', 'auto'] },
  { line: 'run --checkpoint ', exactly: ['auto', 'operator'] },
  { line: 'run --task r', exactly: ['research', 'review'] },
  { line: 'run --bash-search-gate ', exactly: ['enforce', 'warn', 'allow'] },
  { line: 'run --resume ', exactly: ['latest'] },
  { line: 'run --mo', exactly: ['--model', '--mode'] },
  { line: 'run --model replay:x --auto', exactly: ['--autonomous'] },
  { line: 'run --model replay:x -o ', exactly: ['text', 'json'] },
  { line: 'run --model sessions ', exactly: [] },
  { line: 'run --max-turns 3 --max-', exactly: ['--max-steps', '--max-session-cost-usd', '--max-turns', '--max-defer'] },
  { line: 'repl --', has: ['--continue', '--resume', '--model'], not: ['--output', '--autonomous'] },
  { line: 'repl -C --m', has: ['--model', '--mode', '--max-steps'] },
  { line: 'watch --l', exactly: ['--log-level', '--listen'] },
  { line: 'doctor -o ', exactly: ['text', 'json'] },
  { line: 'doctor --', has: ['--timeout', '--recipe', '--model', '--output'] },
  { line: 'doctor -c ', has: ['r.yaml'], not: ['notes.txt'] },
  { line: 'completion ', exactly: ['bash', 'zsh', 'fish'] },
  { line: 'completion f', exactly: ['fish'] },
];
