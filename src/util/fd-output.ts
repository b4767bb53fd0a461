import { writeSync } from 'node:fs';

/** What fdOutput writes with: the real calls, or a test's script of them. */
export interface FdOutputDeps {
  readonly writeSync: (fd: number, buffer: Uint8Array, offset: number) => number;
  /** The stream for the same descriptor, created on the first EAGAIN or shareStream. */
  readonly stream: () => NodeJS.WritableStream;
}

/**
 * The CLI's stdout and stderr: each text written to the descriptor with `fs.writeSync`, not
 * through `process.stdout` / `process.stderr`.
 *
 * - Creating `process.stdout` for a pipe builds a `net.Socket`: node:net, the stream
 *   machinery and pipe_wrap, 1.2 MiB of peak RSS for a command that prints one
 *   JSON document (`tools list --json | jq`; docs/benchmarks.md, issue 19).
 * - A synchronous write is complete when it returns: nothing is left in a stream's queue
 *   when the process exits.
 *
 * A descriptor left non-blocking by whoever opened it can refuse a write while its reader is
 * behind (EAGAIN). Then the rest of that text and every later one go through the stream, which
 * waits for the reader, so the order is kept. EPIPE (the reader went away: `| head`) calls
 * `onBrokenPipe` once and drops what follows; EBADF (a descriptor closed since: Node opens
 * /dev/null for a 0, 1 or 2 closed at start, so `>&-` never gets here) drops everything.
 *
 * Code that writes to `process.stdout` or `process.stderr` itself (readline in the REPL, the
 * approval prompts) calls `shareStream` for that descriptor first: from then on the writer goes
 * through the same stream, so the two stay in order and a broken pipe is handled once.
 */
export function fdOutput(
  fd: number,
  onBrokenPipe: () => void,
  deps: FdOutputDeps = { writeSync: (f, b, o) => writeSync(f, b, o), stream: () => (fd === 2 ? process.stderr : process.stdout) },
): (text: string) => void {
  let stream: NodeJS.WritableStream | undefined;
  let closed = false;
  const broken = () => {
    if (closed) return;
    closed = true;
    onBrokenPipe();
  };
  const openStream = () => {
    if (stream === undefined) {
      stream = deps.stream();
      stream.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EPIPE') throw err;
        broken();
      });
    }
    return stream;
  };
  const viaStream = (bytes: Uint8Array) => void openStream().write(bytes);
  sharing.set(fd, () => {
    if (!closed) openStream();
  });
  return (text) => {
    if (closed || text.length === 0) return;
    const bytes = Buffer.from(text, 'utf8');
    if (stream !== undefined) return viaStream(bytes);
    for (let at = 0; at < bytes.length;) {
      try {
        at += deps.writeSync(fd, bytes, at);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') return viaStream(bytes.subarray(at));
        if (code === 'EPIPE') return broken();
        if (code === 'EBADF') {
          closed = true;
          return;
        }
        throw err;
      }
    }
  };
}

/** By descriptor, how to switch the latest fdOutput writer for it to its stream. */
const sharing = new Map<number, () => void>();

/**
 * Before writing to `process.stdout` (fd 1) or `process.stderr` (fd 2) directly: the fdOutput
 * writer for that descriptor, if there is one, writes through the same stream from now on and
 * handles its errors (EPIPE as a broken pipe). Without a writer (a library use, a test) it does
 * nothing.
 */
export function shareStream(fd: 1 | 2): void {
  sharing.get(fd)?.();
}
