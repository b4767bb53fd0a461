// What each command line loads at start-up (test/cli/startup.test.ts). `cli`: whether the CLI
// proper (src/cli/start.ts) is evaluated — its sentinel is process.exitCode, which it sets
// from the command's status and the entry's own answers never do — and, when false, the case is run a second time from a copy of the entry alone
// (no dist/core-agent-cli.js beside it), which must answer the same; `notLoaded`: Node
// built-ins the process must finish without loading (from process.moduleLoadList); `stdout`:
// 'version' and 'help' are exactly what src/cli/main-help.ts prints; `cacheIn`: where under
// the process's fresh HOME V8's code cache was written (src/startup/compile-cache.ts), '' for
// nowhere. One line a case.

export interface StartupCase {
  argv: string[];
  stdout: 'version' | 'help' | RegExp;
  cli: boolean;
  notLoaded: string[];
  /**
   * Extra environment; `{unusable}` in a value is a path under a regular file (never creatable,
   * even as root), `{home}` the process's HOME (a fresh directory per case).
   */
  env?: Record<string, string>;
  /** The one entry of HOME after the run, holding the code cache (e.g. '.cache'), or '' for an empty HOME. */
  cacheIn?: string;
  /** What stderr must match; without it, stderr must be empty. */
  stderr?: RegExp;
}

/**
 * Everything a --version has no use for. node:net among them: output goes to the descriptor
 * (src/util/fd-output.ts), so no socket is built for stdout on a pipe, which the tests give.
 */
const HEAVY = ['net', 'http', 'https', 'tls', 'crypto', 'zlib', 'child_process', 'sqlite', 'worker_threads', 'readline', 'v8'];
/** util.parseArgs' module: a well-formed command line is read without it (src/startup/quick-parse.ts). */
const PARSE_ARGS = 'internal/util/parse_args/parse_args';
/** What a command that neither serves, fetches nor reads a terminal has no use for. */
const SERVING = ['net', 'http', 'https', 'tls', 'zlib', 'readline', 'internal/deps/undici/undici'];

/**
 * What listing the catalog has no use for: the tools answer from their build-time heads
 * (src/tools/tool-head.ts) and a built-in loads on the first use of an export
 * (scripts/bundle/esbuild-options.mjs), so neither bash's spawn nor the dispatcher's UUIDs load them.
 * The start-up's file calls go through node:fs's callbacks (src/startup/fs-callbacks.ts), and
 * the command line is read without util.parseArgs (src/startup/quick-parse.ts).
 */
const LISTING = [...SERVING, 'crypto', 'child_process', 'sqlite', 'worker_threads', 'fs/promises', 'perf_hooks', PARSE_ARGS];

/**
 * What a replayed run with piped stdin has no use for: session and call ids come from
 * /dev/urandom (src/util/random-id.ts), stdin is known not to be a terminal from one fstat
 * (src/util/is-terminal.ts), and an empty pending-writes journal is read without
 * node:fs/promises. (Reading the pipe itself builds a socket: node:net stays.)
 */
const RUNNING = [
  ...['http', 'https', 'tls', 'zlib', 'readline', 'child_process', 'worker_threads'],
  ...['crypto', 'internal/crypto/random', 'internal/crypto/webcrypto', 'tty'],
  // The pending-writes journal is reaped over node:fs's callbacks (src/startup/fs-callbacks.ts).
  'fs/promises',
  // Durations come from process.hrtime (src/util/monotonic.ts): the global `performance` loads it.
  'perf_hooks',
  PARSE_ARGS,
];
/** The replay script the run cases use, written into the cases' working directory by the test. */
export const ONE_STEP_REPLAY = { file: 'one-step.jsonl', text: `${JSON.stringify({ text: 'done' })}\n` };

export const STARTUP_CASES: StartupCase[] = [
  { argv: ['--version'], stdout: 'version', cli: false, notLoaded: HEAVY },
  { argv: ['-v'], stdout: 'version', cli: false, notLoaded: HEAVY },
  { argv: ['version'], stdout: 'version', cli: false, notLoaded: HEAVY },
  { argv: ['--version', 'tools', 'list'], stdout: 'version', cli: false, notLoaded: HEAVY },
  { argv: ['--help'], stdout: 'help', cli: false, notLoaded: HEAVY },
  { argv: ['-h'], stdout: 'help', cli: false, notLoaded: HEAVY },
  { argv: ['help'], stdout: 'help', cli: false, notLoaded: HEAVY },
  { argv: ['help', '--json'], stdout: 'help', cli: false, notLoaded: HEAVY },
  { argv: ['tools', '--help'], stdout: /Usage: core-agent tools/, cli: true, notLoaded: SERVING },
  { argv: ['tools', 'list', '--json'], stdout: /"name": "read_file"/, cli: true, notLoaded: SERVING },
  { argv: ['tools', 'list'], stdout: /read_file/, cli: true, notLoaded: LISTING },
  { argv: ['tools', 'list', '--json'], stdout: /"name": "bash"/, cli: true, notLoaded: LISTING },
  { argv: ['recipe', 'schema'], stdout: /"title": "core-agent recipe"/, cli: true, notLoaded: SERVING },
  {
    argv: ['run', '-m', `replay:${ONE_STEP_REPLAY.file}`, '--session-db', ':memory:', 'hello'],
    stdout: /^done\n$/,
    stderr: /done, 1 step\(s\)/,
    cli: true,
    notLoaded: RUNNING,
  },
  { argv: ['recipe', '--help'], stdout: /Usage: core-agent recipe/, cli: true, notLoaded: SERVING },
  // The completion script comes from the flag tables alone: no session store, no workers, nothing served.
  {
    argv: ['completion', 'bash'],
    stdout: /complete -F _core_agent core-agent/,
    cli: true,
    notLoaded: [...SERVING, 'sqlite', 'worker_threads'],
  },
  // The code cache: under the user's cache directory for a command that loads the CLI, never for --version.
  { argv: ['tools', 'list', '--json'], stdout: /"name": "read_file"/, cli: true, notLoaded: SERVING, cacheIn: '.cache' },
  { argv: ['recipe', 'schema'], stdout: /"title"/, cli: true, notLoaded: SERVING, env: { XDG_CACHE_HOME: '{home}/xdg' }, cacheIn: 'xdg' },
  // XDG_CACHE_HOME must be absolute (the XDG spec): a relative one is ignored.
  { argv: ['tools', 'list'], stdout: /read_file/, cli: true, notLoaded: SERVING, env: { XDG_CACHE_HOME: 'rel' }, cacheIn: '.cache' },
  // NODE_COMPILE_CACHE names the directory too; NODE_DISABLE_COMPILE_CACHE turns it off.
  {
    argv: ['tools', 'list'],
    stdout: /read_file/,
    cli: true,
    notLoaded: SERVING,
    env: { NODE_COMPILE_CACHE: '{home}/ncc' },
    cacheIn: 'ncc',
  },
  { argv: ['tools', 'list'], stdout: /read_file/, cli: true, notLoaded: SERVING, env: { NODE_DISABLE_COMPILE_CACHE: '1' }, cacheIn: '' },
  { argv: ['--version'], stdout: 'version', cli: false, notLoaded: HEAVY, cacheIn: '' },
  { argv: ['--help'], stdout: 'help', cli: false, notLoaded: HEAVY, env: { XDG_CACHE_HOME: '{home}/xdg' }, cacheIn: '' },
  // A cache directory that cannot be made (the image's read-only root): skipped, never a failure.
  { argv: ['tools', 'list'], stdout: /read_file/, cli: true, notLoaded: SERVING, env: { XDG_CACHE_HOME: '{unusable}/x' }, cacheIn: '' },
  { argv: ['--version'], stdout: 'version', cli: false, notLoaded: HEAVY, env: { NODE_COMPILE_CACHE: '{unusable}/cache' } },
  {
    argv: ['tools', 'list', '--json'],
    stdout: /"name": "read_file"/,
    cli: true,
    notLoaded: SERVING,
    env: { NODE_COMPILE_CACHE: '{unusable}/cache' },
  },
];
