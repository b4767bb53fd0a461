import { fileURLToPath } from 'node:url';

/**
 * CORE_AGENT_* values, one case a line, each run through the built CLI by
 * env-values.test.ts. `stderr` must start a line of stderr (after "core-agent: ").
 * Bad values exit 2 naming the variable, the value (cut) and what is valid; good
 * ones are accepted, and an empty value is the same as unset.
 */
export interface EnvCase {
  name: string;
  env: Record<string, string>;
  /** Default: tools list. */
  args?: string[];
  code: 0 | 2;
  stderr?: string;
  /** A tool name that must not be listed (a toggle that took effect). */
  notListed?: string;
}

const rg = fileURLToPath(new URL('../../dist/rg', import.meta.url));
const long = 'q'.repeat(500);
/** A file that exists and has no execute bit (even root cannot execute it). */
const notExecutable = fileURLToPath(new URL('../../package.json', import.meta.url));

// One case a line (prettier would spread each over several).
// prettier-ignore
export const ENV_CASES: EnvCase[] = [
  { name: 'mode: unknown', env: { CORE_AGENT_MODE: 'super' }, code: 2, stderr: 'CORE_AGENT_MODE: unknown permission mode "super". Valid: ask, accept-edits, plan, yolo' },
  { name: 'mode: wrong case, suggested', env: { CORE_AGENT_MODE: 'Yolo' }, code: 2, stderr: 'CORE_AGENT_MODE: unknown permission mode "Yolo" — did you mean "yolo"?' },
  { name: 'mode: a long value is cut', env: { CORE_AGENT_MODE: long }, code: 2, stderr: `CORE_AGENT_MODE: unknown permission mode "${'q'.repeat(64)}… (500 characters)"` },
  { name: 'disable tools: unknown', env: { CORE_AGENT_DISABLE_TOOLS: 'nope' }, code: 2, stderr: 'CORE_AGENT_DISABLE_TOOLS: unknown tool "nope". Valid: bash, ' },
  { name: 'disable tools: a typo in a list', env: { CORE_AGENT_DISABLE_TOOLS: 'glob,gerp' }, code: 2, stderr: 'CORE_AGENT_DISABLE_TOOLS: unknown tool "gerp" — did you mean "grep"?' },
  { name: 'enable tools: unknown', env: { CORE_AGENT_ENABLE_TOOLS: 'nope' }, code: 2, stderr: 'CORE_AGENT_ENABLE_TOOLS: unknown tool "nope".' },
  { name: 'toggles: one tool disabled and enabled', env: { CORE_AGENT_DISABLE_TOOLS: 'grep', CORE_AGENT_ENABLE_TOOLS: 'grep' }, code: 2, stderr: 'CORE_AGENT_DISABLE_TOOLS and CORE_AGENT_ENABLE_TOOLS: grep is both disabled and enabled; keep it in one' },
  { name: 'log level: unknown', env: { CORE_AGENT_LOG_LEVEL: 'loud' }, code: 2, stderr: 'CORE_AGENT_LOG_LEVEL: unknown log level "loud". Valid: fatal, error, warn, info, debug, trace, silent' },
  { name: 'search gate: unknown', env: { CORE_AGENT_BASH_SEARCH_GATE: 'block' }, code: 2, stderr: 'CORE_AGENT_BASH_SEARCH_GATE: unknown value "block". Valid: enforce, warn, allow' },
  { name: 'no digest: not a boolean', env: { CORE_AGENT_NO_MCP_DIGEST: 'maybe' }, code: 2, stderr: 'CORE_AGENT_NO_MCP_DIGEST: expected true, false, 1, 0, yes or no, not "maybe"' },
  { name: 'no digest: booleans are lower case', env: { CORE_AGENT_NO_MCP_DIGEST: 'TRUE' }, code: 2, stderr: 'CORE_AGENT_NO_MCP_DIGEST: expected true, false' },
  { name: 'trust workspace: "on" is not a boolean here', env: { CORE_AGENT_TRUST_WORKSPACE: 'on' }, code: 2, stderr: 'CORE_AGENT_TRUST_WORKSPACE: expected true, false, 1, 0, yes or no, not "on"' },
  { name: 'model: no provider', env: { CORE_AGENT_MODEL: 'gemini-2.5-flash' }, code: 2, stderr: 'CORE_AGENT_MODEL: model "gemini-2.5-flash" names no provider: write PROVIDER:MODEL, e.g. google:gemini-2.5-flash (known: replay, google' },
  { name: 'model: unknown provider', env: { CORE_AGENT_MODEL: 'gogle:gemini-2.5-flash' }, code: 2, stderr: 'CORE_AGENT_MODEL: provider "gogle" is unknown — did you mean "google"? (known: replay, google' },
  { name: 'model: no model after the colon', env: { CORE_AGENT_MODEL: 'google:' }, code: 2, stderr: 'CORE_AGENT_MODEL: model "google:" names no model after the provider: e.g. google:MODEL' },
  { name: 'agentic small model: no provider', env: { CORE_AGENT_AGENTIC_SMALL_MODEL: 'gemini-2.5-flash-lite' }, code: 2, stderr: 'CORE_AGENT_AGENTIC_SMALL_MODEL: model "gemini-2.5-flash-lite" names no provider: write PROVIDER:MODEL' },
  { name: 'session db: longer than a path', env: { CORE_AGENT_SESSION_DB: 'x'.repeat(5000) }, code: 2, stderr: `CORE_AGENT_SESSION_DB: "${'x'.repeat(64)}… (5000 characters)" is longer than any path` },
  { name: 'recipe: longer than a path', env: { CORE_AGENT_RECIPE: 'r'.repeat(5000) }, code: 2, stderr: 'CORE_AGENT_RECIPE: "rrrr' },
  { name: 'workspace: longer than a path', env: { CORE_AGENT_WORKSPACE: 'w'.repeat(5000) }, code: 2, stderr: 'CORE_AGENT_WORKSPACE: "wwww' },
  { name: 'watchdog: unknown', env: { CORE_AGENT_WATCHDOG: 'strict' }, code: 2, stderr: 'CORE_AGENT_WATCHDOG: unknown value "strict". Valid: off, warn, feedback, enforce' },
  { name: 'ask: unknown', env: { CORE_AGENT_ASK: 'always' }, code: 2, stderr: 'CORE_AGENT_ASK: unknown value "always". Valid: off, stdin, auto' },
  { name: 'watch listen: not HOST:PORT', env: { CORE_AGENT_WATCH_LISTEN: 'nowhere' }, code: 2, stderr: 'CORE_AGENT_WATCH_LISTEN: "nowhere": give HOST:PORT, e.g. 127.0.0.1:9464' },
  { name: 'watch listen: port out of range', env: { CORE_AGENT_WATCH_LISTEN: '127.0.0.1:99999' }, code: 2, stderr: 'CORE_AGENT_WATCH_LISTEN: "127.0.0.1:99999": give HOST:PORT' },
  { name: 'stdin wait: not a number', env: { CORE_AGENT_STDIN_WAIT_MS: 'soon' }, code: 2, stderr: 'CORE_AGENT_STDIN_WAIT_MS: "soon" is not a whole number of milliseconds from 0 to 600000' },
  { name: 'stdin wait: past the cap', env: { CORE_AGENT_STDIN_WAIT_MS: '600001' }, code: 2, stderr: 'CORE_AGENT_STDIN_WAIT_MS: "600001" is not a whole number' },
  { name: 'dumpable: not a boolean', env: { CORE_AGENT_DUMPABLE: 'please' }, code: 2, stderr: 'CORE_AGENT_DUMPABLE: expected true, false, 1, 0, yes or no, not "please"' },
  { name: 'dumpable: booleans are lower case', env: { CORE_AGENT_DUMPABLE: 'Yes' }, code: 2, stderr: 'CORE_AGENT_DUMPABLE: expected true, false' },
  { name: 'user: a path, not a name', env: { CORE_AGENT_USER: '../root' }, code: 2, stderr: 'CORE_AGENT_USER: "../root" is not a valid user name' },
  { name: 'user: starts with a digit', env: { CORE_AGENT_USER: '1000' }, code: 2, stderr: 'CORE_AGENT_USER: "1000" is not a valid user name' },
  { name: 'users file: longer than a path', env: { CORE_AGENT_USERS_FILE: 'u'.repeat(5000) }, code: 2, stderr: 'CORE_AGENT_USERS_FILE: "uuuu' },
  { name: 'compile cache: a relative directory', env: { CORE_AGENT_COMPILE_CACHE: 'cache' }, code: 2, stderr: 'CORE_AGENT_COMPILE_CACHE: "cache" is not an absolute path' },
  { name: 'compile cache: longer than any path', env: { CORE_AGENT_COMPILE_CACHE: `/${'x'.repeat(5000)}` }, code: 2, stderr: 'CORE_AGENT_COMPILE_CACHE: "/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… (5001 characters)" is longer than any path' },
  { name: 'debug start delay: not a number', env: { CORE_AGENT_DEBUG_START_DELAY_MS: 'a while' }, code: 2, stderr: 'CORE_AGENT_DEBUG_START_DELAY_MS: "a while" is not a whole number of milliseconds from 0 to 600000' },
  { name: 'stdin wait: negative', env: { CORE_AGENT_STDIN_WAIT_MS: '-5' }, code: 2, stderr: 'CORE_AGENT_STDIN_WAIT_MS: "-5" is not a whole number' },
  { name: 'ripgrep: no such file', env: { CORE_AGENT_RIPGREP: '/nonexistent/rg' }, code: 2, stderr: 'CORE_AGENT_RIPGREP: "/nonexistent/rg" is not an executable file' },
  { name: 'ripgrep: a directory', env: { CORE_AGENT_RIPGREP: '/tmp' }, code: 2, stderr: 'CORE_AGENT_RIPGREP: "/tmp" is not an executable file' },
  { name: 'ripgrep: not executable', env: { CORE_AGENT_RIPGREP: notExecutable }, code: 2, stderr: `CORE_AGENT_RIPGREP: "${notExecutable}" is not an executable file` },
  // Every command checks the environment first, as it checks its flags; help still works.
  { name: 'sessions list checks it too', env: { CORE_AGENT_MODE: 'super' }, args: ['sessions', 'list', '--session-db', ':memory:'], code: 2, stderr: 'CORE_AGENT_MODE: unknown permission mode' },
  { name: 'watch checks it before the recipe', env: { CORE_AGENT_ASK: 'always' }, args: ['watch', '-c', '/nonexistent.yaml'], code: 2, stderr: 'CORE_AGENT_ASK: unknown value "always"' },
  { name: 'recipe validate checks it too', env: { CORE_AGENT_LOG_LEVEL: 'loud' }, args: ['recipe', 'validate', '/nonexistent.yaml'], code: 2, stderr: 'CORE_AGENT_LOG_LEVEL: unknown log level' },
  { name: '--help works with a bad environment', env: { CORE_AGENT_MODE: 'super' }, args: ['tools', 'list', '--help'], code: 0 },
  // Flags, for comparison: the same rules, the flag named.
  { name: 'flag: --enable-tools with an unknown tool', env: {}, args: ['tools', 'list', '--enable-tools', 'nope'], code: 2, stderr: '--enable-tools: unknown tool "nope".' },
  { name: 'flag: --disable-tools with an unknown tool', env: {}, args: ['tools', 'list', '--disable-tools', 'nope'], code: 2, stderr: '--disable-tools: unknown tool "nope".' },
  { name: 'flag: one tool disabled and enabled', env: {}, args: ['tools', 'list', '--disable-tools', 'grep', '--enable-tools', 'grep'], code: 2, stderr: '--disable-tools and --enable-tools: grep is both disabled and enabled' },
  // Good values are accepted (and take effect); empty is unset.
  { name: 'empty is unset', env: { CORE_AGENT_MODE: '', CORE_AGENT_DISABLE_TOOLS: '', CORE_AGENT_RIPGREP: '', CORE_AGENT_MODEL: '' }, code: 0 },
  { name: 'every variable with a good value', env: { CORE_AGENT_MODE: 'plan', CORE_AGENT_LOG_LEVEL: 'silent', CORE_AGENT_BASH_SEARCH_GATE: 'warn', CORE_AGENT_NO_MCP_DIGEST: 'yes', CORE_AGENT_TRUST_WORKSPACE: '0', CORE_AGENT_MODEL: 'replay:script.jsonl', CORE_AGENT_SESSION_DB: ':memory:', CORE_AGENT_WATCHDOG: 'off', CORE_AGENT_ASK: 'auto', CORE_AGENT_WATCH_LISTEN: '0.0.0.0:8080', CORE_AGENT_RIPGREP: rg, CORE_AGENT_STDIN_WAIT_MS: '0', CORE_AGENT_DEBUG_START_DELAY_MS: '0', CORE_AGENT_COMPILE_CACHE: `${notExecutable}/cache`, CORE_AGENT_DUMPABLE: 'no', CORE_AGENT_DIALECT: 'cagent', }, code: 0 },
  { name: 'dialect: unknown', env: { CORE_AGENT_DIALECT: 'claude' }, code: 2, stderr: 'CORE_AGENT_DIALECT: unknown dialect "claude". Valid: core-agent, cagent, golem' },
  { name: 'dialect: wrong case, suggested', env: { CORE_AGENT_DIALECT: 'Golem' }, code: 2, stderr: 'CORE_AGENT_DIALECT: unknown dialect "Golem" — did you mean "golem"?' },
  { name: 'dialect: golem takes effect (ReadFile, not read_file)', env: { CORE_AGENT_DIALECT: 'golem' }, code: 0, notListed: 'read_file' },
  { name: 'disable tools: a face name turns its tool off', env: { CORE_AGENT_DISABLE_TOOLS: 'ReadFile' }, code: 0, notListed: 'read_file' },
  { name: 'a disable list with spaces takes effect', env: { CORE_AGENT_DISABLE_TOOLS: ' grep , glob ' }, code: 0, notListed: 'grep' },
  { name: 'CORE_AGENT_LOG_LEVEL takes effect (info logs "runtime ready")', env: { CORE_AGENT_LOG_LEVEL: 'info' }, code: 0, stderr: '{"level":30' },
];
