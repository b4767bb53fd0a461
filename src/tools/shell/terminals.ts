import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { SHELL } from './run-shell.ts';

/**
 * Supervised terminals: commands bash started with `wait: false`. Each runs in
 * its own process group with a stdin pipe; its output (stdout and stderr as they
 * arrive) goes into a bounded buffer read by cursor, so a long-running server
 * cannot grow the process without limit and each read returns only what is new.
 * Every terminal dies with the session: close() stops them all, and a process
 * exit hook kills whatever is left.
 */

export const TERMINAL_DEFAULTS = { retain_bytes: 1024 * 1024, max_terminals: 8, grace_ms: 3000 } as const;

/** After the shell exits, how long its pipes may stay open (a detached grandchild) before we close them. */
const PIPE_DRAIN_MS = 1000;
/** Finished terminals kept for reading; older ones are forgotten first. */
const KEEP_FINISHED = 16;
/** Input not yet read by the program beyond which terminal_write refuses more. */
const MAX_PENDING_INPUT = 256 * 1024;

/** Output kept from the end, addressed by absolute byte offsets since the start. */
class OutputBuffer {
  private chunks: Buffer[] = [];
  private retained = 0;
  /** Offset of the first retained byte. */
  start = 0;
  /** Offset one past the last byte produced. */
  end = 0;

  constructor(private readonly limit: number) {}

  append(data: Buffer): void {
    this.chunks.push(data);
    this.retained += data.length;
    this.end += data.length;
    while (this.retained > this.limit) {
      const first = this.chunks[0]!;
      const excess = this.retained - this.limit;
      if (first.length <= excess) {
        this.chunks.shift();
        this.retained -= first.length;
        this.start += first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.retained -= excess;
        this.start += excess;
      }
    }
  }

  /**
   * Up to maxBytes and maxLines from `from` (clamped to what is retained), ending
   * on a character boundary. Lines are counted in the raw bytes (a newline byte is
   * never part of a UTF-8 sequence), so the cursor stays exact whatever the text.
   */
  read(from: number, maxBytes: number, maxLines = Infinity): { text: string; from: number; to: number } {
    const begin = Math.min(Math.max(from, this.start), this.end);
    const all = Buffer.concat(this.chunks);
    let slice: Buffer = all.subarray(begin - this.start, Math.min(all.length, begin - this.start + maxBytes));
    let nl = -1;
    for (let n = 0; n < maxLines; n++) {
      nl = slice.indexOf(0x0a, nl + 1);
      if (nl === -1) break;
      if (n === maxLines - 1) slice = slice.subarray(0, nl + 1);
    }
    // Do not split a UTF-8 sequence at the end: the rest comes with the next read.
    if (begin + slice.length < this.end) slice = wholeCharacters(slice);
    return { text: slice.toString('utf8'), from: begin, to: begin + slice.length };
  }
}

/** The slice without a trailing incomplete UTF-8 sequence. */
function wholeCharacters(slice: Buffer): Buffer {
  for (let i = slice.length - 1; i >= Math.max(0, slice.length - 4); i--) {
    const b = slice[i]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return slice.length - i < need && i > 0 ? slice.subarray(0, i) : slice;
  }
  return slice;
}

export interface TerminalStatus {
  running: boolean;
  exit_code: number | null;
  signal: string | null;
}

export class Terminal {
  private readonly out: OutputBuffer;
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private exit: { code: number | null; signal: string | null } | undefined;
  private timer: NodeJS.Timeout | undefined;
  timedOut = false;
  /** Settles when the command and its pipes are done. */
  readonly done: Promise<void>;

  constructor(
    readonly id: string,
    readonly command: string,
    opts: { cwd: string; env: NodeJS.ProcessEnv; retainBytes: number; timeoutMs?: number | undefined },
  ) {
    this.out = new OutputBuffer(opts.retainBytes);
    this.child = spawn(SHELL, ['-c', command], { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const onData = (d: Buffer) => this.out.append(d);
    this.child.stdout.on('data', onData);
    this.child.stderr.on('data', onData);
    // A program that exits without reading its input must not crash us with EPIPE.
    this.child.stdin.on('error', () => {});
    this.done = new Promise((resolve) => {
      this.child.on('error', (err) => {
        this.out.append(Buffer.from(`core-agent: could not start the command: ${err.message}\n`));
        this.exit ??= { code: null, signal: null };
        resolve();
      });
      // The command is over when its shell exits. What it left in its group goes
      // too; a grandchild that escaped the group (setsid) may still hold the pipes
      // open, so they are closed from our side after a moment rather than waited for.
      this.child.on('exit', (code, signal) => {
        this.exit = { code, signal };
        if (this.timer) clearTimeout(this.timer);
        this.signalGroup('SIGTERM');
        const drain = setTimeout(() => {
          this.signalGroup('SIGKILL');
          this.child.stdout.destroy();
          this.child.stderr.destroy();
          resolve();
        }, PIPE_DRAIN_MS);
        drain.unref();
        this.child.once('close', () => {
          clearTimeout(drain);
          this.signalGroup('SIGKILL');
          resolve();
        });
      });
    });
    if (opts.timeoutMs !== undefined) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        void this.kill(false, TERMINAL_DEFAULTS.grace_ms);
      }, opts.timeoutMs);
    }
  }

  status(): TerminalStatus {
    return { running: this.exit === undefined, exit_code: this.exit?.code ?? null, signal: this.exit?.signal ?? null };
  }

  /** Output from `cursor` on; `dropped` counts bytes that fell out of the retained window before this read. */
  read(cursor: number, maxBytes: number, maxLines?: number): { output: string; next_cursor: number; dropped: number; more: boolean } {
    const r = this.out.read(cursor, maxBytes, maxLines);
    return { output: r.text, next_cursor: r.to, dropped: Math.max(0, r.from - cursor), more: r.to < this.out.end };
  }

  /** The last `maxBytes` of output (for results that show the end). */
  tail(maxBytes: number): { output: string; next_cursor: number } {
    const from = Math.max(this.out.start, this.out.end - maxBytes);
    const r = this.out.read(from, maxBytes);
    return { output: r.text, next_cursor: r.to };
  }

  /**
   * Queue input for the program; resolves once it is handed to the pipe or after
   * `waitMs` (a program that is not reading must not block the call), saying which.
   */
  write(input: string, closeStdin: boolean, waitMs = 1000): Promise<{ bytes: number; delivered: boolean }> {
    const stdin = this.child.stdin;
    if (this.exit !== undefined || stdin.destroyed || stdin.writableEnded) {
      return Promise.reject(new Error(this.exit !== undefined ? 'the command has exited' : 'its input was already closed'));
    }
    if (stdin.writableLength > MAX_PENDING_INPUT) {
      return Promise.reject(
        new Error(`the program has not read the ${stdin.writableLength} bytes already sent; it is not reading its input`),
      );
    }
    const bytes = Buffer.byteLength(input);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve({ bytes, delivered: false }), waitMs);
      const finish = (err?: Error | null) => {
        clearTimeout(timer);
        if (err) reject(err);
        else resolve({ bytes, delivered: true });
      };
      if (closeStdin) stdin.end(input, finish);
      else stdin.write(input, finish);
    });
  }

  /** SIGTERM to the group, SIGKILL after `graceMs` (or at once when forced); resolves when it is gone. */
  async kill(force: boolean, graceMs: number): Promise<void> {
    if (this.exit !== undefined) return;
    this.signalGroup(force ? 'SIGKILL' : 'SIGTERM');
    if (!force) {
      const escalate = setTimeout(() => this.signalGroup('SIGKILL'), graceMs);
      await this.done;
      clearTimeout(escalate);
    }
    await this.done;
  }

  /** For the process exit hook: synchronous, no waiting. */
  killNow(): void {
    if (this.exit === undefined) this.signalGroup('SIGKILL');
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

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The session's terminals. */
export class TerminalManager {
  private readonly terminals = new Map<string, Terminal>();
  private seq = 0;
  private readonly onExit = () => {
    for (const t of this.terminals.values()) t.killNow();
  };
  /**
   * The terminals run in their own process groups, so a Ctrl-C or a SIGTERM to
   * core-agent does not reach them and Node does not run 'exit' hooks on a
   * signal: kill them, then let the signal do what it would have done.
   */
  private readonly onSignal = (signal: NodeJS.Signals) => {
    this.onExit();
    this.unhook();
    process.kill(process.pid, signal);
  };
  private hooked = false;

  private hook(): void {
    if (this.hooked) return;
    process.on('exit', this.onExit);
    for (const s of SIGNALS) process.on(s, this.onSignal);
    this.hooked = true;
  }

  private unhook(): void {
    process.off('exit', this.onExit);
    for (const s of SIGNALS) process.off(s, this.onSignal);
    this.hooked = false;
  }

  start(
    command: string,
    opts: { cwd: string; env: NodeJS.ProcessEnv; retainBytes: number; maxTerminals: number; timeoutMs?: number | undefined },
  ): Terminal {
    const running = [...this.terminals.values()].filter((t) => t.status().running);
    if (running.length >= opts.maxTerminals) {
      throw new Error(
        `${running.length} terminals are already running (${running.map((t) => t.id).join(', ')}), the most this session allows (tools.bash.max_terminals); stop one with terminal_kill first`,
      );
    }
    this.hook();
    const finished = [...this.terminals.values()].filter((t) => !t.status().running);
    for (const old of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED + 1))) this.terminals.delete(old.id);
    const t = new Terminal(`t${++this.seq}`, command, opts);
    this.terminals.set(t.id, t);
    return t;
  }

  get(id: string): Terminal | undefined {
    return this.terminals.get(id);
  }

  ids(): string[] {
    return [...this.terminals.keys()];
  }

  /** Stop every terminal (the session is over). */
  async close(graceMs: number = TERMINAL_DEFAULTS.grace_ms): Promise<void> {
    await Promise.all([...this.terminals.values()].map((t) => t.kill(false, graceMs)));
    this.unhook();
  }
}
