import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { EscapeeSweep, newTag, tagVariable, type Escapee } from './escapees.ts';
import { fdTargets, procAvailable, readStat } from './procfs.ts';
import { SHELL } from '../../util/command-env.ts';

/**
 * After the shell exits, how long its output pipes may stay open before we close
 * them from our side. What is still in its group got SIGTERM at the exit; what
 * holds them after this is a process that left the group.
 */
export const PIPE_DRAIN_MS = 500;

export interface ShellEnd {
  code: number | null;
  signal: string | null;
  /** The shell could not be started. */
  error?: Error;
  /** Processes that had left the group and were still running; all were stopped. */
  escaped: Escapee[];
  /** Something still held the output open after the shell exited; we closed it from our side. */
  pipesHeld: boolean;
  /** Without /proc, escaped processes cannot be found: the ones holding the pipes may still run. */
  untraceable: boolean;
}

/** A process group as it is recorded on disk. */
export interface NewGroup {
  pgid: number;
  leaderStart: number;
  tag: string;
  kind: 'bash' | 'terminal';
  command: string;
  sessionId: string | undefined;
}

/** Keeps a record of each live group (group-records.ts); `add` returns what removes it. */
export interface GroupRecorder {
  add(group: NewGroup): () => void;
}

export interface ShellOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** 'pipe' for a terminal that takes input, 'ignore' (/dev/null) otherwise. */
  stdin: 'pipe' | 'ignore';
  /** SIGTERM to SIGKILL, for the escapees of a shell that exited on its own. */
  graceMs: number;
  records?: GroupRecorder | undefined;
  kind: 'bash' | 'terminal';
  sessionId?: string | undefined;
}

/**
 * `/bin/sh -c command` as its own process group (and session), supervised so
 * that nothing it starts outlives it: when the shell exits, what is left in its
 * group gets SIGTERM, then SIGKILL once the output pipes close (or after
 * PIPE_DRAIN_MS, when we close them ourselves); processes that left the group are
 * found by the tag in their environment or by the pipes they hold and stopped
 * too. `ended` settles when all of that is done, within a bound: it never waits
 * for a pipe a stray process holds. Every live shell is killed when core-agent
 * exits or dies of SIGINT/SIGTERM/SIGHUP, and recorded on disk (`records`) for
 * the case where it is killed with SIGKILL.
 */
export class SupervisedShell {
  readonly child: ChildProcess & { stdout: Readable; stderr: Readable; stdin: Writable | null };
  readonly ended: Promise<ShellEnd>;
  private readonly sweep: EscapeeSweep | undefined;
  private exitInfo: { code: number | null; signal: string | null } | undefined;
  private terminating: Promise<void> | undefined;
  private killTimer: NodeJS.Timeout | undefined;
  /** Drops the on-disk record of the group, once nothing of it is left. */
  private removeRecord: () => void = () => {};

  constructor(command: string, opts: ShellOptions) {
    const tag = newTag();
    this.child = spawn(SHELL, ['-c', command], {
      cwd: opts.cwd,
      env: { ...opts.env, [tagVariable(tag)]: '1' },
      detached: true,
      stdio: [opts.stdin, 'pipe', 'pipe'],
    }) as SupervisedShell['child'];
    const pid = this.child.pid;
    // Read at once, while the shell is at least a zombie: its start time (it tells
    // the group's leader from a later process with the same pid) and its end of
    // the output pipes (a quick shell may already have closed them; then only the
    // tag finds what it left).
    const stat = pid !== undefined && procAvailable() ? readStat(pid) : undefined;
    if (pid !== undefined && stat) {
      const pipes = fdTargets(pid, [1, 2]).filter((t) => t.startsWith('socket:') || t.startsWith('pipe:'));
      this.sweep = new EscapeeSweep({ tags: [tag], since: stat.startTime, pipes, exceptPgid: pid });
      if (opts.records) {
        this.removeRecord = opts.records.add({
          pgid: pid,
          leaderStart: stat.startTime,
          tag,
          kind: opts.kind,
          command,
          sessionId: opts.sessionId,
        });
      }
    }
    if (pid !== undefined) track(this);
    this.ended = new Promise<ShellEnd>((resolve) => {
      this.child.once('error', (error) => {
        if (this.exitInfo !== undefined) return;
        untrack(this);
        this.removeRecord();
        resolve({ code: null, signal: null, error, escaped: [], pipesHeld: false, untraceable: false });
      });
      this.child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        // Its background jobs go with it (they would hold the pipes open too).
        this.signalGroup('SIGTERM');
        void this.afterExit(opts.graceMs).then((end) => {
          untrack(this);
          this.removeRecord();
          resolve(end);
        });
      });
    });
  }

  get exited(): boolean {
    return this.exitInfo !== undefined;
  }

  /**
   * Stop the command: SIGTERM to its group and its escapees, SIGKILL to both
   * after `graceMs` (at once when `force`). `ended` settles once they are gone.
   */
  terminate(graceMs: number, force = false): void {
    if (force) {
      this.signalGroup('SIGKILL');
      if (this.killTimer) clearTimeout(this.killTimer);
      this.terminating = Promise.all([this.terminating, this.sweep?.stop(0, true)]).then(() => {});
      return;
    }
    if (this.terminating) return;
    this.signalGroup('SIGTERM');
    this.killTimer = setTimeout(() => this.signalGroup('SIGKILL'), graceMs);
    this.terminating = this.sweep?.stop(graceMs, true) ?? Promise.resolve();
  }

  /** For an exit hook: synchronous SIGKILL of the group and whatever carries the tag, and its record goes. */
  killNow(): void {
    this.signalGroup('SIGKILL');
    this.sweep?.killNow();
    this.removeRecord();
  }

  private async afterExit(graceMs: number): Promise<ShellEnd> {
    const closed = new Promise<boolean>((resolve) => {
      const drain = setTimeout(() => resolve(false), PIPE_DRAIN_MS);
      this.child.once('close', () => {
        clearTimeout(drain);
        resolve(true);
      });
    });
    const pipesHeld = !(await closed);
    if (pipesHeld) {
      // A process outside the group holds them: stop reading rather than wait for it.
      this.child.stdout.destroy();
      this.child.stderr.destroy();
    }
    this.signalGroup('SIGKILL');
    if (this.killTimer) clearTimeout(this.killTimer);
    // After a terminate, its sweep has already sent SIGTERM and owns the grace period.
    if (this.terminating) await this.terminating;
    await this.sweep?.stop(this.terminating ? 0 : graceMs, pipesHeld);
    const { code, signal } = this.exitInfo!;
    return { code, signal, escaped: this.sweep?.report() ?? [], pipesHeld, untraceable: pipesHeld && this.sweep === undefined };
  }

  private signalGroup(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // the group is gone
    }
  }
}

/**
 * The live shells of this process. Detached groups do not get core-agent's
 * signals, and Node runs no 'exit' hooks when a signal kills it, so while any
 * shell lives: on exit, kill them all; on SIGINT/SIGTERM/SIGHUP, kill them and
 * let the signal do what it would have done — unless some other part of
 * core-agent listens for that signal (watch and mcp serve shut down gracefully,
 * closing their sessions), in which case the exit hook covers what is left.
 */
const live = new Set<SupervisedShell>();
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let hooked = false;

function killAll(): void {
  for (const s of live) s.killNow();
}

function onSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  killAll();
  unhook();
  process.kill(process.pid, signal);
}

function hook(): void {
  if (hooked) return;
  process.on('exit', killAll);
  for (const s of SIGNALS) process.on(s, onSignal);
  hooked = true;
}

function unhook(): void {
  process.off('exit', killAll);
  for (const s of SIGNALS) process.off(s, onSignal);
  hooked = false;
}

function track(s: SupervisedShell): void {
  live.add(s);
  hook();
}

function untrack(s: SupervisedShell): void {
  live.delete(s);
  if (live.size === 0) unhook();
}
