import type { Escapee } from './escapees.ts';
import { SupervisedShell, type GroupRecorder } from './supervised-shell.ts';
import { sessionSlot } from '../framework/session.ts';

/**
 * Supervised terminals: commands bash started with `wait: false`. Each runs in
 * its own process group with a stdin pipe; its output (stdout and stderr as they
 * arrive) goes into a bounded buffer read by cursor, so a long-running server
 * cannot grow the process without limit and each read returns only what is new.
 * Every terminal dies with the session: close() stops them all, and
 * supervised-shell.ts kills whatever is left when core-agent exits.
 */

export const TERMINAL_DEFAULTS = { retain_bytes: 1024 * 1024, max_terminals: 8, grace_ms: 3000 } as const;

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
  /** Processes that had left the terminal's process group, stopped when it ended. */
  escaped_processes?: Escapee[];
}

export class Terminal {
  private readonly out: OutputBuffer;
  private readonly shell: SupervisedShell;
  private exit: { code: number | null; signal: string | null } | undefined;
  private escaped: Escapee[] = [];
  private timer: NodeJS.Timeout | undefined;
  timedOut = false;
  /** Settles when the command, its pipes and anything it left outside its group are done. */
  readonly done: Promise<void>;

  constructor(
    readonly id: string,
    readonly command: string,
    opts: {
      cwd: string;
      env: NodeJS.ProcessEnv;
      retainBytes: number;
      timeoutMs?: number | undefined;
      records?: GroupRecorder | undefined;
      sessionId?: string | undefined;
    },
  ) {
    this.out = new OutputBuffer(opts.retainBytes);
    this.shell = new SupervisedShell(command, {
      cwd: opts.cwd,
      env: opts.env,
      stdin: 'pipe',
      graceMs: TERMINAL_DEFAULTS.grace_ms,
      records: opts.records,
      kind: 'terminal',
      sessionId: opts.sessionId,
    });
    const child = this.shell.child;
    const onData = (d: Buffer) => this.out.append(d);
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    // A program that exits without reading its input must not crash us with EPIPE.
    child.stdin!.on('error', () => {});
    // The command is over when its shell exits (the status says so at once); `done`
    // also waits for what it left behind to be stopped, never for a pipe a stray
    // process holds (supervised-shell.ts).
    child.once('exit', (code, signal) => {
      this.exit = { code, signal };
      if (this.timer) clearTimeout(this.timer);
    });
    this.done = this.shell.ended.then((end) => {
      if (end.error) this.out.append(Buffer.from(`core-agent: could not start the command: ${end.error.message}\n`));
      this.exit ??= { code: end.code, signal: end.signal };
      this.escaped = end.escaped;
      if (end.untraceable) {
        this.out.append(
          Buffer.from(
            'core-agent: a process the command started still held its output open (it left the process group); without /proc it could not be found and may still be running\n',
          ),
        );
      }
    });
    if (opts.timeoutMs !== undefined) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        void this.kill(false, TERMINAL_DEFAULTS.grace_ms);
      }, opts.timeoutMs);
    }
  }

  status(): TerminalStatus {
    const status: TerminalStatus = {
      running: this.exit === undefined,
      exit_code: this.exit?.code ?? null,
      signal: this.exit?.signal ?? null,
    };
    if (this.escaped.length > 0) status.escaped_processes = this.escaped.map((e) => ({ ...e }));
    return status;
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
    const stdin = this.shell.child.stdin!;
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

  /**
   * SIGTERM to the group and its escapees, SIGKILL after `graceMs` (at once when
   * forced); resolves when all are gone. A command that already exited is only
   * waited for: what it left behind is being stopped already.
   */
  async kill(force: boolean, graceMs: number): Promise<void> {
    if (this.exit === undefined) this.shell.terminate(graceMs, force);
    await this.done;
  }

  /** For the process exit hook: synchronous, no waiting. */
  killNow(): void {
    this.shell.killNow();
  }
}

/** The session's terminals. */
export class TerminalManager {
  private readonly terminals = new Map<string, Terminal>();
  private seq = 0;

  start(
    command: string,
    opts: {
      cwd: string;
      env: NodeJS.ProcessEnv;
      retainBytes: number;
      maxTerminals: number;
      timeoutMs?: number | undefined;
      records?: GroupRecorder | undefined;
      sessionId?: string | undefined;
    },
  ): Terminal {
    const running = [...this.terminals.values()].filter((t) => t.status().running);
    if (running.length >= opts.maxTerminals) {
      throw new Error(
        `${running.length} terminals are already running (${running.map((t) => t.id).join(', ')}), the most this session allows (tools.bash.max_terminals); stop one with terminal_kill first`,
      );
    }
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
  }
}

/** The session's terminals, the shell family's state in a session: killed when it closes. */
export const TERMINALS = sessionSlot(
  'terminals',
  () => new TerminalManager(),
  (t) => t.close(),
);
