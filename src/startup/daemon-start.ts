import { startUpIsOver } from './fs-callbacks.ts';
import { setV8Flags, startIsOver, WASM_FLAGS } from './v8-flags.ts';

/** The long-lived daemons, idle most of their life. */
const DAEMONS: ReadonlySet<string> = new Set(['watch', 'serve']);

/** Whether this command line starts as a daemon (DAEMON_START_FLAGS). */
export const startsAsDaemon = (argv: readonly string[]): boolean => DAEMONS.has(argv[0] ?? '');

/**
 * What a daemon starts with, set from inside the process (`#!/usr/bin/env node`, npx and
 * `npm i -g` cannot pass V8 options), before the CLI is imported:
 *
 * - V8's young generation held at its initial size (1 MiB per semi-space). Evaluating the CLI
 *   and building the runtime allocate objects that survive their first scavenges, so V8 doubled
 *   the new space up to 16 MiB, and an idle watcher held those pages until V8's memory reducer
 *   ran, about eight seconds into the quiet. The cost is more frequent scavenges while a session
 *   allocates, small beside a model's latency. V8 reads the growth factor each time it would grow
 *   the space, so it holds for the process's life.
 * - V8's optimizing and baseline compilers off until the daemon is up (daemonReady): start-up
 *   runs once, for well under a second, and compiling it for speed only made the compilers' code
 *   resident and their output part of the idle daemon's memory (about 1.7 MiB of a watcher at
 *   rest, docs/benchmarks.md). Once it is up they are back on for the sessions it runs.
 * - WebAssembly held on its baseline tier (WASM_FLAGS), as any command sets it before its first
 *   WebAssembly module: a watcher's Kubernetes client has one, so it is set with the rest here.
 *
 * The flags are part of what V8 checks cached code against: the entry sets them before it
 * compiles the CLI, whose code cache for the daemons is a file of their own
 * (src/startup/cli-script.ts), so neither side's cache is refused for the other's flags.
 */
export const DAEMON_START_FLAGS = ['--semi-space-growth-factor=1', '--no-opt', '--no-maglev', '--no-sparkplug', ...WASM_FLAGS] as const;
/** What daemonReady sets back: V8's defaults for the compilers DAEMON_START_FLAGS turned off. */
const COMPILERS_ON = ['--opt', '--maglev', '--sparkplug'] as const;

// Shared by the entry's copy of this module and the CLI's (two bundle files, two instances).
const STARTED = Symbol.for('core-agent.daemon-start');
type Marked = typeof globalThis & { [STARTED]?: 'starting' | 'starting-theirs' | 'ready' };

export function startAsDaemon(env: NodeJS.ProcessEnv): void {
  // Compiler flags the user gave Node (on its command line; of these, NODE_OPTIONS takes only
  // --jitless) are theirs: neither turned off here nor back on by daemonReady.
  const theirs = userCompilerFlags([...process.execArgv, env.NODE_OPTIONS ?? ''].join(' '));
  setV8Flags(DAEMON_START_FLAGS.filter((flag) => !(theirs && COMPILER_FLAG.test(flag))));
  (globalThis as Marked)[STARTED] = theirs ? 'starting-theirs' : 'starting';
}

const COMPILER_FLAG = /^--no-(opt|maglev|sparkplug)$/;

/** Whether Node was given a flag about V8's compilers (V8 reads `_` and `-` alike in flag names). */
export function userCompilerFlags(args: string): boolean {
  const flags = args.replace(/--[\w-]+/g, (name) => name.replaceAll('_', '-'));
  return /(^|\s)--((no-)?(opt|turbofan|maglev|sparkplug|jitless)|max-opt)(?=[\s=]|$)/.test(flags);
}

/**
 * The daemon is up (watch: its informers have synced; serve: it listens): its start is over
 * (startIsOver: the CLI's code cache is written now, under the flags it started with), the
 * compilers startAsDaemon turned off are back on, and what start-up left behind goes back to the
 * system (releaseStartupMemory), in any daemon, however it started. Once.
 */
export function daemonReady(): void {
  const g = globalThis as Marked;
  const started = g[STARTED];
  if (started === 'ready') return;
  g[STARTED] = 'ready';
  startIsOver();
  // Up, it serves: its sessions' file calls go through the thread pool (src/startup/fs-callbacks.ts).
  startUpIsOver();
  if (started === 'starting') setV8Flags(COMPILERS_ON);
  releaseStartupMemory();
}

/**
 * One full, memory-reducing collection (V8's "last resort": it compacts the heap and returns
 * the pages it frees). Start-up leaves garbage all over the heap — the recipe parsed, the
 * runtime's first catalog, the code cache's buffers — which an idle daemon otherwise keeps
 * resident for its whole life: V8's own memory reducer never ran in a watcher idle for a
 * minute. Measured at rest (docs/benchmarks.md): 68.2 → 65.8 MiB; a regular major collection
 * gave nothing. It takes tens of milliseconds, once, before the first incident is likely.
 *
 * V8's gc() is reachable only in a context made while --expose-gc is set: one is made for the
 * call, and the flag is unset at once, so nothing else sees it — unless the user gave Node
 * --expose-gc, whose gc() is used as it is. Best effort: memory is never a reason to fail.
 */
export function releaseStartupMemory(): void {
  type Gc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
  try {
    let gc = (globalThis as { gc?: Gc }).gc;
    if (typeof gc !== 'function') {
      setV8Flags(['--expose-gc']);
      try {
        gc = process.getBuiltinModule('node:vm').runInNewContext('gc') as Gc;
      } finally {
        setV8Flags(['--no-expose-gc']);
      }
    }
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  } catch {
    // A V8 without the gc extension's options: the daemon runs as it is.
  }
}

/** A daemon that never gets up (an API it cannot reach) still gets its compilers back, after this long. */
export const DAEMON_READY_AT_THE_LATEST_MS = 60_000;

/** daemonReady after DAEMON_READY_AT_THE_LATEST_MS unless something calls it first; the timer keeps no process alive. */
export function daemonReadyAtTheLatest(ms = DAEMON_READY_AT_THE_LATEST_MS): void {
  setTimeout(daemonReady, ms).unref();
}
