import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { stateDir } from './state-dir.ts';

/**
 * core-agent made non-dumpable, so that no other process of its user — a command bash runs,
 * an MCP server — can read its memory (/proc/PID/mem, where every credential it holds lives)
 * or its /proc/PID/environ, maps, fd table.
 *
 * Node has no prctl(PR_SET_DUMPABLE), and the bundle takes no native addon. The kernel offers
 * another way: a program whose executable its user may not read is made non-dumpable at
 * execve (fs/exec.c: would_dump → BINPRM_FLAGS_ENFORCE_NONDUMP → set_dumpable(suid_dumpable),
 * 0 by default), and its /proc files then belong to root. So:
 *
 * - In the image, /nodejs/bin/node is root's and mode 0711 (scripts/rootfs.sh): the process is
 *   non-dumpable from its first instruction, and nothing here runs.
 * - Elsewhere, the entry re-executes itself (process.execve: the same pid, nothing of the
 *   first image left) from a copy of its node that the user may execute but not read:
 *   $XDG_STATE_HOME/core-agent/exec-only/node-<version>-<id>, mode 0100, made once per Node
 *   binary. The copy is tried once when it is made (a noexec mount, an LSM, fs.suid_dumpable
 *   1 would defeat it); a copy that does not give a non-dumpable process is remembered as
 *   refused and not made again.
 *
 * Not for root: root reads an unreadable file, and root's children may read any process
 * anyway (CAP_SYS_PTRACE). Not where the user opts out (CORE_AGENT_DUMPABLE=1: a debugger,
 * a profiler). Docs: docs/shell.md, "Credentials and /proc".
 */

/** Set to 1 (true, yes) to keep core-agent dumpable: no re-execution. */
export const DUMPABLE_VAR = 'CORE_AGENT_DUMPABLE';
/**
 * Commands that start no process (so no child of theirs could read them) and read nothing another
 * process of the user cannot read from the same files: not worth a second start of Node. A shell
 * runs `completion` at each of its own starts.
 */
const STARTS_NOTHING: ReadonlySet<string> = new Set(['completion', 'recipe', 'sessions']);
/** Marks the re-executed process, so a copy that failed to help is not re-executed again. */
const REEXEC_VAR = 'CORE_AGENT_EXEC_ONLY_NODE';

export type DumpableOutcome =
  | { status: 'non-dumpable'; via: 'executable' | 're-exec' }
  /** Left dumpable on purpose (root, opted out, no /proc): nothing to warn about. */
  | { status: 'dumpable'; reason: string; warn: false }
  /** It should have worked and did not: one warning at start-up. */
  | { status: 'dumpable'; reason: string; warn: true };

// The entry and the CLI are two bundle files, each with its own copy of this module: the
// outcome goes where both find it.
const OUTCOME = Symbol.for('core-agent.non-dumpable');
type Marked = typeof globalThis & { [OUTCOME]?: DumpableOutcome; [WARNED]?: boolean };
const WARNED = Symbol.for('core-agent.non-dumpable.warned');

/**
 * Called by the entry before the CLI is loaded and before any child exists. Either returns
 * (non-dumpable already, or left dumpable with the reason) or replaces this process by the
 * same command line run from the execute-only copy, and never returns.
 */
export function becomeNonDumpable(argv: readonly string[], env: NodeJS.ProcessEnv): DumpableOutcome {
  const outcome = decide(argv, env);
  (globalThis as Marked)[OUTCOME] = outcome;
  return outcome;
}

/** The warning to log, once per process, when core-agent could not make itself non-dumpable. */
export function takeDumpableWarning(): string | undefined {
  const g = globalThis as Marked;
  const outcome = g[OUTCOME];
  if (outcome?.status !== 'dumpable' || !outcome.warn || g[WARNED]) return undefined;
  g[WARNED] = true;
  return outcome.reason;
}

/** Whether this process is dumpable: its /proc files belong to its own uid, not root. Undefined without /proc. */
export function isDumpable(): boolean | undefined {
  try {
    return statSync('/proc/self/environ').uid === process.geteuid!();
  } catch {
    return undefined;
  }
}

function decide(argv: readonly string[], env: NodeJS.ProcessEnv): DumpableOutcome {
  const reexecuted = env[REEXEC_VAR] !== undefined;
  // Never passed on: a core-agent that a command of this one starts makes its own decision.
  delete env[REEXEC_VAR];
  if (process.platform !== 'linux') return quiet('not Linux');
  const dumpable = isDumpable();
  if (dumpable === undefined) return quiet('no /proc');
  if (!dumpable) return { status: 'non-dumpable', via: reexecuted ? 're-exec' : 'executable' };
  if (process.geteuid!() === 0) return quiet('root');
  if (/^(1|true|yes)$/.test(env[DUMPABLE_VAR] ?? '')) return quiet(`${DUMPABLE_VAR} is set`);
  if (STARTS_NOTHING.has(argv[0] ?? '')) return quiet(`${argv[0]} starts no process`);
  if (reexecuted) return loud('re-executed from an execute-only copy of node, it is still dumpable (is fs.suid_dumpable 1?)');
  if (typeof process.execve !== 'function') return loud('this Node has no process.execve');
  let copy: string;
  try {
    copy = execOnlyCopy(env);
  } catch (err) {
    return loud(String((err as Error).message).slice(0, 300));
  }
  // process.execve does not return on failure either: it aborts. Everything it could fail on
  // (the file, the mount, the kernel's say) was tried when the copy was made.
  process.execve(copy, [copy, ...process.execArgv, process.argv[1]!, ...argv], { ...env, [REEXEC_VAR]: '1' });
  throw new Error('unreachable: process.execve returned');
}

const quiet = (reason: string): DumpableOutcome => ({ status: 'dumpable', reason, warn: false });
const loud = (reason: string): DumpableOutcome => ({ status: 'dumpable', reason, warn: true });

/**
 * The execute-only copy of the node running this process: made (and tried) when absent,
 * checked when present. Throws with the reason it cannot be had.
 */
function execOnlyCopy(env: NodeJS.ProcessEnv): string {
  const dir = path.join(stateDir(env), 'exec-only');
  const source = realpathSync(process.execPath);
  const st = statSync(source);
  const name = nodeCopyName(source, st, process.version);
  const copy = path.join(dir, name);
  const refused = `${copy}.refused`;
  if (existsSync(refused)) throw new Error(`${copy} was tried and does not make node non-dumpable here (remove ${refused} to try again)`);
  if (usableExecOnly(copy, st.size)) return copy;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${copy}.${process.pid}.tmp`;
  try {
    // A reflink where the file system has them (btrfs, XFS): no second 100 MB on disk.
    copyFileSync(source, tmp, constants.COPYFILE_FICLONE);
    chmodSync(tmp, 0o100);
    const problem = tryCopy(tmp);
    if (problem !== undefined) {
      writeRefusal(refused, problem);
      throw new Error(`${copy}: ${problem}`);
    }
    renameSync(tmp, copy);
  } finally {
    rmSync(tmp, { force: true });
  }
  pruneOtherCopies(dir, name);
  return copy;
}

/** One name per Node binary: another version, or the same path rewritten, is another copy. */
export function nodeCopyName(source: string, st: { dev: number; ino: number; size: number; mtimeMs: number }, version: string): string {
  return `node-${version}-${fnv1a(`${source}\0${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`)}`;
}

/** A copy made earlier: still a regular file of the right size, ours, executable and not readable. */
export function usableExecOnly(copy: string, size: number): boolean {
  let st;
  try {
    st = statSync(copy);
  } catch {
    return false;
  }
  if (!st.isFile() || st.size !== size || st.uid !== process.geteuid!() || (st.mode & 0o777) !== 0o100) return false;
  try {
    // X_OK fails on a noexec mount too.
    accessSync(copy, constants.X_OK);
  } catch {
    return false;
  }
  return true;
}

/** Runs the fresh copy once: undefined when it starts and is non-dumpable, else why not. */
function tryCopy(file: string): string | undefined {
  try {
    accessSync(file, constants.R_OK);
    return 'it is readable all the same (a capability such as CAP_DAC_READ_SEARCH?)';
  } catch {
    // Unreadable, as it must be.
  }
  // Loaded only here, once per Node binary: a command's start never loads child_process for this.
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const probe = "const s=require('fs').statSync('/proc/self/environ');process.stdout.write(s.uid===process.geteuid()?'dumpable':'ok')";
  const r = spawnSync(file, ['-e', probe], { encoding: 'utf8', env: {}, timeout: 30_000 });
  if (r.error) return `it cannot be run (${(r.error as NodeJS.ErrnoException).code ?? r.error.message})`;
  if (r.stdout === 'dumpable') return 'a process run from it is still dumpable (is fs.suid_dumpable 1?)';
  if (r.stdout !== 'ok') return `it did not run as expected (exit ${r.status}, ${r.stderr.trim().split('\n')[0]!.slice(0, 200)})`;
  return undefined;
}

function writeRefusal(file: string, reason: string): void {
  try {
    const fd = openSync(file, 'w', 0o600);
    try {
      writeSync(fd, `${reason}\n`);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not remembered: the next start tries again.
  }
}

/**
 * Copies of other Node binaries (an upgrade leaves the old one) go once they are an hour old:
 * a core-agent of the other version starting right now may be about to execute its own.
 */
function pruneOtherCopies(dir: string, keep: string): void {
  const hourAgo = Date.now() - 3600_000;
  for (const entry of readdirSync(dir)) {
    if (entry === keep || !entry.startsWith('node-')) continue;
    const file = path.join(dir, entry);
    try {
      if (statSync(file).mtimeMs < hourAgo) rmSync(file, { force: true });
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}

export function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
