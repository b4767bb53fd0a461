import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The most one message from a stdio server may take: the SDK's own limit, kept. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** What is kept of each end of a message over the limit: enough to find its id. */
const KEEP = 512;
/** The `data` of the error response that stands in for a message too large to read. */
export interface TooLargeData {
  core_agent_too_large: number;
  limit: number;
  /** The calls failed for it: more than one when its id was unreadable and several were waiting. */
  in_flight: number;
}

export interface StdioParams {
  command: string;
  args: string[];
  /** The server's whole environment: nothing is taken from this process's own (the caller picks what it inherits). */
  env: Record<string, string>;
  cwd: string;
  maxMessageBytes?: number;
  /** How the process is started (the composition root's execute-only launcher); default: the command as given. */
  launch?: StdioLauncher | undefined;
}

/** What is executed for a stdio server, and whether its /proc files are kept from the user's other processes. */
export interface StdioLaunch {
  file: string;
  argv0: string;
  args: string[];
  env: Record<string, string>;
  guard: { exec_only: true; from: string } | { exec_only: false; reason: string };
}

export type StdioLauncher = (params: StdioParams) => Promise<StdioLaunch>;

/** The composition root's way of keeping stdio servers' /proc files from the commands the model runs. */
export interface ProcessGuard {
  launch: StdioLauncher;
  /** The dumpable processes among `pid` and its descendants (their /proc files are readable by the user's other processes). */
  dumpableIn(pid: number): Array<{ pid: number; command: string }>;
}

/**
 * The MCP client's stdio transport, with the one difference that matters: a
 * message over the limit is skipped, not fatal. The SDK's transport buffers up to
 * 10 MiB and, past it, closes the connection — so a tool that returns 11 MiB
 * looked like a crashed server, and was restarted. Here only the ends of an
 * oversized line are kept (memory stays bounded), its JSON-RPC id is read from
 * them, and the call it answers gets an error response saying how large it was;
 * the server, and every other call, go on.
 */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr (piped), available before start(). */
  readonly stderr = new PassThrough();
  private child: ChildProcess | undefined;
  private starting = false;
  /** Requests sent and not yet answered: an oversized answer whose id is unreadable is matched against these. */
  private readonly inFlight = new Set<string | number>();
  private readonly framer: LineFramer;
  private readonly max: number;

  constructor(private readonly params: StdioParams) {
    this.max = params.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.framer = new LineFramer(
      this.max,
      (line) => this.onLine(line),
      (big) => this.onOversized(big),
    );
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** How the server was started, once start() has resolved. */
  launched: StdioLaunch | undefined;

  async start(): Promise<void> {
    if (this.child || this.starting) throw new Error('the stdio transport is already started');
    this.starting = true;
    const p = this.params;
    const plan: StdioLaunch = p.launch
      ? await p.launch(p)
      : { file: p.command, argv0: p.command, args: p.args, env: p.env, guard: { exec_only: false, reason: 'no launcher' } };
    this.launched = plan;
    return new Promise((resolve, reject) => {
      const child = spawn(plan.file, plan.args, {
        argv0: plan.argv0,
        env: plan.env,
        cwd: this.params.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
      });
      this.child = child;
      child.on('error', (err) => {
        reject(err);
        this.onerror?.(err);
      });
      child.on('spawn', () => resolve());
      child.on('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin!.on('error', (err) => this.onerror?.(err));
      child.stdout!.on('data', (chunk: Buffer) => this.framer.push(chunk));
      child.stdout!.on('error', (err) => this.onerror?.(err));
      child.stderr!.pipe(this.stderr);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin) return Promise.reject(new Error('Not connected'));
    if ('method' in message && 'id' in message) this.inFlight.add(message.id);
    if ('method' in message && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
      if (id !== undefined) this.inFlight.delete(id);
    }
    return new Promise((resolve) => {
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** As the SDK's: end stdin, then SIGTERM after 2 s, then SIGKILL after 2 more. */
  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child) {
      const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
      const wait = () => Promise.race([closed, new Promise((r) => setTimeout(r, 2_000).unref())]);
      try {
        child.stdin?.end();
      } catch {
        // already gone
      }
      await wait();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await wait();
      }
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    this.inFlight.clear();
  }

  private onLine(line: Buffer): void {
    const text = line.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(text));
    } catch {
      // Not a JSON-RPC message (a server that logs to stdout): say so, bounded, and go on.
      this.onerror?.(new Error(`the server wrote a line that is not a JSON-RPC message: ${text.slice(0, 200)}`));
      return;
    }
    if ('id' in message && message.id !== undefined && ('result' in message || 'error' in message)) this.inFlight.delete(message.id);
    this.onmessage?.(message);
  }

  private onOversized(big: { head: string; tail: string; bytes: number }): void {
    const id = messageId(big.head, big.tail);
    const answers =
      id !== undefined && this.inFlight.has(id) ? [id] : id === undefined && !/"method"\s*:/.test(big.head) ? [...this.inFlight] : [];
    if (answers.length === 0) {
      this.onerror?.(
        new Error(
          `dropped a ${big.bytes}-byte message from the server (over the ${this.max} bytes one message may take): ${big.head.slice(0, 120)}…`,
        ),
      );
      return;
    }
    // Its id was unreadable and several calls were waiting: which one it answered cannot be
    // told, so each is failed with the reason (the others' answers, if they come, are ignored).
    for (const one of answers) {
      this.inFlight.delete(one);
      const data: TooLargeData = { core_agent_too_large: big.bytes, limit: this.max, in_flight: answers.length };
      const shared = answers.length > 1 ? ` (it answered one of ${answers.length} calls in flight, which could not be told apart)` : '';
      this.onmessage?.({
        jsonrpc: '2.0',
        id: one,
        error: {
          code: -32603,
          message: `the server's answer was ${big.bytes} bytes, over the ${this.max} bytes one message may take${shared}`,
          data,
        },
      } as JSONRPCMessage);
    }
  }
}

/**
 * The id of a JSON-RPC message from its first and last bytes: servers put it first
 * (`{"jsonrpc":"2.0","id":3,…`) or last (the TypeScript SDK: `…,"jsonrpc":"2.0","id":3}`).
 * At the end, only an id followed by the object's single closing brace counts, so a
 * nested `{"id":…}}` inside the result is not mistaken for it.
 */
export function messageId(head: string, tail: string): string | number | undefined {
  const value = '(-?\\d+|"(?:[^"\\\\]|\\\\.)*")';
  const first = new RegExp(`^\\s*\\{\\s*(?:"jsonrpc"\\s*:\\s*"2\\.0"\\s*,\\s*)?"id"\\s*:\\s*${value}`).exec(head);
  const last = new RegExp(`[,{]\\s*"id"\\s*:\\s*${value}\\s*(?:,\\s*"jsonrpc"\\s*:\\s*"2\\.0"\\s*)?\\}\\s*$`).exec(tail);
  const raw = first?.[1] ?? last?.[1];
  return raw === undefined ? undefined : (JSON.parse(raw) as string | number);
}

/**
 * Newline-delimited messages out of a byte stream, each at most `max` bytes. A
 * longer line is not buffered: its first and last KEEP bytes and its length are
 * all that is kept until its newline arrives.
 */
export class LineFramer {
  private chunks: Buffer[] = [];
  private size = 0;
  private skipping: { head: Buffer; tail: Buffer; bytes: number } | null = null;

  constructor(
    private readonly max: number,
    private readonly onLine: (line: Buffer) => void,
    private readonly onOversized: (big: { head: string; tail: string; bytes: number }) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      this.take(nl === -1 ? chunk.subarray(start) : chunk.subarray(start, nl));
      if (nl === -1) return;
      this.endLine();
      start = nl + 1;
    }
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    const s = this.skipping;
    if (s) {
      s.bytes += piece.length;
      s.tail = Buffer.from(Buffer.concat([s.tail, piece.subarray(-KEEP)]).subarray(-KEEP));
      return;
    }
    if (this.size + piece.length <= this.max) {
      this.chunks.push(piece);
      this.size += piece.length;
      return;
    }
    const sofar = Buffer.concat([...this.chunks, piece]);
    this.skipping = { head: Buffer.from(sofar.subarray(0, KEEP)), tail: Buffer.from(sofar.subarray(-KEEP)), bytes: sofar.length };
    this.chunks = [];
    this.size = 0;
  }

  private endLine(): void {
    const s = this.skipping;
    if (s) {
      this.skipping = null;
      this.onOversized({ head: s.head.toString('utf8'), tail: s.tail.toString('utf8'), bytes: s.bytes });
      return;
    }
    const line = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.chunks = [];
    this.size = 0;
    this.onLine(line);
  }
}
