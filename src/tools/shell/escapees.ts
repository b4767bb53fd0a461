import { randomBytes } from 'node:crypto';
import { fdTargets, listPids, procAvailable, readEnviron, readStat, sameProcess, type ProcStat } from './procfs.ts';

/**
 * Processes a command started that left its process group — `setsid`, `setpgid`,
 * a daemon's double fork, `set -m` job control — so signalling the group misses
 * them. Two marks find them again in /proc:
 *
 * - a tag: every shell gets a variable CORE_AGENT_CALL_<random>=1 in its
 *   environment, which every descendant inherits (unless it rebuilds its
 *   environment from scratch, `env -i`); a variable of its own name per call, so
 *   a core-agent started inside a command keeps its caller's tag too;
 * - the output pipes: a descendant that still holds the shell's stdout or stderr
 *   (the sockets Node made for them) is ours whatever its environment.
 *
 * Only processes that started after the shell are examined, so a scan reads one
 * small stat file per process and opens environments and fd tables only of the
 * few that are new.
 */

export const TAG_PREFIX = 'CORE_AGENT_CALL_';

export function newTag(): string {
  return randomBytes(12).toString('hex');
}

export function tagVariable(tag: string): string {
  return `${TAG_PREFIX}${tag}`;
}

/** What a hunt looks for. */
export interface Hunt {
  /** The tags (one per call; several when a start-up reaps many records at once). */
  tags: readonly string[];
  /** Start time (clock ticks after boot) of the earliest shell: nothing older can be ours. */
  since: number;
  /** "socket:[N]" of the shell's end of its output pipes, when known. */
  pipes?: readonly string[];
  /** Its own process group: signalled as a group elsewhere, so not reported as escaped. */
  exceptPgid?: number;
}

/** A process found outside the group, and the last signal it was sent (a type, so it is a JSON value). */
export type Escapee = {
  pid: number;
  command: string;
  signal: 'SIGTERM' | 'SIGKILL';
};

/** Processes carrying one of the tags (or holding one of the pipes when `withPipes`). */
export function findTagged(hunt: Hunt, withPipes: boolean): ProcStat[] {
  if (!procAvailable()) return [];
  const needles = hunt.tags.map((t) => Buffer.from(`${tagVariable(t)}=`));
  const pipes = withPipes ? (hunt.pipes ?? []) : [];
  const found: ProcStat[] = [];
  for (const pid of listPids()) {
    if (pid === process.pid) continue;
    const s = readStat(pid);
    if (!s || s.startTime < hunt.since || s.state === 'Z') continue;
    if (hunt.exceptPgid !== undefined && s.pgid === hunt.exceptPgid) continue;
    const env = readEnviron(pid);
    const tagged = env !== undefined && needles.some((n) => env.includes(n));
    if (tagged || (pipes.length > 0 && fdTargets(pid).some((t) => pipes.includes(t)))) found.push(s);
  }
  return found;
}

const POLL_MS = 50;
/** How many times a sweep looks again for children forked while it was signalling. */
const ROUNDS = 4;

/**
 * Finds and stops the escapees of one shell, remembering each so the report
 * covers every sweep (the one at a deadline and the one after the shell is gone).
 */
export class EscapeeSweep {
  private readonly seen = new Map<number, Escapee & { startTime: number }>();

  constructor(private readonly hunt: Hunt) {}

  /** Every escapee found so far. */
  report(): Escapee[] {
    return [...this.seen.values()].map(({ pid, command, signal }) => ({ pid, command, signal }));
  }

  /**
   * SIGTERM what carries the tag (or holds the pipes, with `withPipes`), looking
   * again for what they fork meanwhile; SIGKILL what is still there after
   * `graceMs` (at once when it is 0); resolves once they are gone or a short
   * while after the SIGKILL.
   */
  async stop(graceMs: number, withPipes: boolean): Promise<void> {
    const first: NodeJS.Signals = graceMs <= 0 ? 'SIGKILL' : 'SIGTERM';
    const targets = this.signalFound(first, withPipes);
    if (targets.length === 0) return;
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline && targets.some((t) => sameProcess(t.pid, t.startTime))) await wait(POLL_MS);
    this.signalFound('SIGKILL', withPipes);
    for (const t of targets) if (sameProcess(t.pid, t.startTime)) this.send(t, 'SIGKILL');
    // SIGKILL cannot be ignored; give the kernel a moment so "gone" is true when we say it.
    const settle = Date.now() + 1000;
    while (Date.now() < settle && targets.some((t) => sameProcess(t.pid, t.startTime))) await wait(POLL_MS);
  }

  /** For an exit hook: synchronous SIGKILL of whatever carries the tag now. */
  killNow(): void {
    this.signalFound('SIGKILL', false);
  }

  /** Signal what is found now, again for whatever appears meanwhile; returns all of them. */
  private signalFound(signal: NodeJS.Signals, withPipes: boolean): Array<{ pid: number; startTime: number }> {
    const all: Array<{ pid: number; startTime: number }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const now = findTagged(this.hunt, withPipes).filter((s) => !all.some((a) => a.pid === s.pid));
      if (now.length === 0) break;
      for (const s of now) {
        const entry = this.seen.get(s.pid);
        if (!entry || entry.startTime !== s.startTime) {
          this.seen.set(s.pid, { pid: s.pid, command: s.comm, signal: 'SIGTERM', startTime: s.startTime });
        }
        this.send(s, signal);
        all.push({ pid: s.pid, startTime: s.startTime });
      }
    }
    return all;
  }

  private send(target: { pid: number; startTime: number }, signal: NodeJS.Signals): void {
    // The pid is checked against its start time just before: never signal a newcomer that reused it.
    if (!sameProcess(target.pid, target.startTime)) return;
    try {
      process.kill(target.pid, signal);
      const entry = this.seen.get(target.pid);
      if (entry && signal === 'SIGKILL') entry.signal = 'SIGKILL';
    } catch {
      // gone meanwhile
    }
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
