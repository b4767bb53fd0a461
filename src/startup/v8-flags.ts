import { setFlagsFromString } from 'node:v8';

// V8 checks a code cache against the flags in force when the cache was made. The CLI's cache
// is made after a run (src/startup/cli-script.ts), and a run may change flags on the way: a daemon
// turns its compilers back on, a WebAssembly chunk holds the tiers down. Made under other
// flags than the next start compiles with, the cache would be refused at every start and
// written again at every exit. So every change goes through setV8Flags, which remembers the
// value a flag had when the CLI was compiled, and the cache is made under those values
// (asCompiled). State on globalThis: the entry and the CLI are two bundle files, each with its
// own copy of this module.
const STATE = Symbol.for('core-agent.v8-flags');
interface FlagState {
  /** The value each flag was last set to here. */
  current: Map<string, string>;
  /** The value a flag had when the CLI was compiled, for each flag changed since. */
  atCompile: Map<string, string>;
  /** Set when the CLI is compiled: the flags the user gave Node (its command line, NODE_OPTIONS). */
  userFlags: string | undefined;
}
const state = (): FlagState =>
  ((globalThis as { [STATE]?: FlagState })[STATE] ??= { current: new Map(), atCompile: new Map(), userFlags: undefined });

/**
 * Keep WebAssembly on V8's baseline compiler (Liftoff): no tier-up to TurboFan.
 *
 * tree-sitter's bash grammar has one 160 KB lexer function. A few dozen words of shell make it
 * hot, V8 recompiles it with TurboFan in the background, and that one compilation takes ~700 MB
 * of compiler memory for half a second: every bash call peaked at ~580 MB RSS (a refused one
 * too — the denylist parses first) against ~80 MB for read_file. Liftoff code parses a command
 * line as fast here (200 parses of a 2 KB line: 170 ms either way), and jq-wasm's queries
 * measured the same within noise. V8 reads them when a module is compiled, so they are set before
 * any WebAssembly exists (src/startup/embedded.ts).
 */
export const WASM_FLAGS = ['--no-wasm-tier-up', '--no-wasm-dynamic-tiering'] as const;

/** A flag as V8 reads it: `--no-x` is x=false, `--x` x=true, `--x=v` x=v; `_` and `-` alike in names. */
function parseFlag(flag: string): [name: string, value: string] {
  const [raw, value] = flag.replace(/^--/, '').split('=', 2) as [string, string | undefined];
  const name = raw.replaceAll('_', '-');
  if (value !== undefined) return [name, value];
  return name.startsWith('no-') ? [name.slice(3), 'false'] : [name, 'true'];
}
const flagText = (name: string, value: string) =>
  value === 'true' ? `--${name}` : value === 'false' ? `--no-${name}` : `--${name}=${value}`;

/** The value the user gave Node for this flag (the last time they name it), if they did. */
function userValue(name: string, userFlags: string): string | undefined {
  let value: string | undefined;
  for (const m of userFlags.matchAll(/(?:^|\s)--([\w-]+)(?:=(\S*))?/g)) {
    const [flagName, flagValue] = parseFlag(m[2] === undefined ? `--${m[1]}` : `--${m[1]}=${m[2]}`);
    if (flagName === name) value = flagValue;
  }
  return value;
}

/**
 * Sets V8 flags. One already at that value here is not set again. After the CLI is compiled
 * (cliCompiled), the value each flag had then is remembered, for asCompiled: the value set here
 * before, else the value the user gave Node, else for a boolean flag the opposite of the new one
 * (V8's default). Not known: a value another flag of the user's implied (`--liftoff-only` turns
 * off `--wasm-tier-up`); V8 then refuses the cache, which is written again, at a cost, not a fault.
 */
export function setV8Flags(flags: readonly string[]): void {
  const s = state();
  for (const flag of flags) {
    const [name, value] = parseFlag(flag);
    const before = s.current.get(name);
    if (before === value) continue;
    if (s.userFlags !== undefined && !s.atCompile.has(name)) {
      const boolean = value === 'true' || value === 'false';
      const atCompile = before ?? userValue(name, s.userFlags) ?? (boolean ? String(value === 'false') : undefined);
      if (atCompile !== undefined) s.atCompile.set(name, atCompile);
    }
    setFlagsFromString(flag);
    s.current.set(name, value);
  }
}

/** The CLI is being compiled: flags set from here on are changes from its start. */
export function cliCompiled(env: NodeJS.ProcessEnv): void {
  state().userFlags = [...process.execArgv, env.NODE_OPTIONS ?? ''].join(' ').replace(/--[\w-]+/g, (n) => n.replaceAll('_', '-'));
}

/**
 * Runs `fn` with every flag changed since the CLI was compiled set back to its value then, and
 * sets them again after: what a code cache the next start can use is made under.
 */
export function asCompiled<T>(fn: () => T): T {
  const s = state();
  const changed = [...s.atCompile].filter(([name, value]) => s.current.get(name) !== value);
  for (const [name, value] of changed) setFlagsFromString(flagText(name, value));
  try {
    return fn();
  } finally {
    for (const [name] of changed) setFlagsFromString(flagText(name, s.current.get(name)!));
  }
}

// The code cache's write, once a daemon's start is over (src/startup/cli-script.ts sets it; a
// daemon never exits at the end of its start, and its cache should hold the start, not hours).
const START_OVER = Symbol.for('core-agent.start-over');

/** What runs, once, when startIsOver is called (undefined: nothing). */
export function whenStartIsOver(fn: (() => void) | undefined): void {
  (globalThis as { [START_OVER]?: () => void })[START_OVER] = fn;
}

/** The start is over: runs what whenStartIsOver left, once. */
export function startIsOver(): void {
  const g = globalThis as { [START_OVER]?: () => void };
  const fn = g[START_OVER];
  g[START_OVER] = undefined;
  fn?.();
}
