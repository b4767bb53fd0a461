import { fstatSync, readSync } from 'node:fs';
import type { ToolCallResult } from '../tools/framework/dispatch.ts';

/**
 * What a prompt carries besides its words: piped stdin (`kubectl logs … |
 * core-agent run "why"`) and `@path` files. Each arrives in the prompt as a
 * fenced block that names where it came from; what could not be attached is
 * said to the user in one line and the turn runs without it.
 */

/** Stdin beyond this is cut: the head is kept, and the model and the user are told. */
export const STDIN_CAP_BYTES = 256 * 1024;
/**
 * How long a pipe may stay silent before run stops waiting for it. A parent
 * that never closes stdin (a CI runner, a test harness) must not hang the run;
 * a producer slower than this (a cluster call) can be given longer with
 * CORE_AGENT_STDIN_WAIT_MS. The wait starts when run starts reading, once the
 * system is built, never during start-up.
 */
export const STDIN_FIRST_BYTE_MS = 500;
/** All `@path` files of one prompt together: a file past this is not attached (read_file caps each one). */
export const ATTACH_TOTAL_BYTES = 1024 * 1024;

export type PipedStdin =
  /** A terminal, /dev/null, a socket: nothing is read. */
  | { kind: 'none' }
  | { kind: 'empty' }
  /** A pipe that sent nothing within the wait (its writer may never close it). */
  | { kind: 'silent'; waitedMs: number }
  | { kind: 'binary'; bytes: number; more: boolean; why: string }
  /** `bytes` is what was read: past the cap, the cap plus what showed there was more. */
  | { kind: 'text'; text: string; bytes: number; truncated: boolean };

/** Whether fd is a FIFO or a regular file — the only stdin kinds read, so a TTY, a socket or a device never blocks the run. */
export function stdinSource(fd = 0): 'fifo' | 'file' | null {
  try {
    const st = fstatSync(fd);
    if (st.isFIFO()) return 'fifo';
    if (st.isFile()) return 'file';
  } catch {
    // a closed descriptor: nothing to read
  }
  return null;
}

/**
 * Reads piped stdin, bounded in size. A file is read at once. A pipe is read to its
 * end or the cap, however long its writer takes once it has sent a byte (as `cat`
 * would); only a pipe that has sent nothing, and not closed, when the wait is over
 * is left unread ('silent'). `signal` (Ctrl-C) stops the reading: what came is kept.
 */
export async function readPipedStdin(
  /** The stream, or how to get it: process.stdin is created (net, tty, fs streams) only for a pipe. */
  input: PipeStream | (() => PipeStream),
  opts: { fd?: number; capBytes?: number; firstByteMs?: number; signal?: AbortSignal } = {},
): Promise<PipedStdin> {
  const fd = opts.fd ?? 0;
  const cap = opts.capBytes ?? STDIN_CAP_BYTES;
  const source = stdinSource(fd);
  if (source === null) return { kind: 'none' };
  if (source === 'file') return classify(readFileHead(fd, cap + 1), cap);
  const waited = opts.firstByteMs ?? STDIN_FIRST_BYTE_MS;
  const got = await readPipeHead(typeof input === 'function' ? input() : input, cap + 1, waited, opts.signal);
  return got === 'silent' ? { kind: 'silent', waitedMs: waited } : classify(got, cap);
}

type PipeStream = NodeJS.ReadableStream & { destroy?: () => void };

/** A regular file never blocks: read it from its current offset (a `< file` redirect starts at 0). */
function readFileHead(fd: number, max: number): Buffer {
  const buf = Buffer.alloc(max);
  let n = 0;
  while (n < max) {
    const got = readSync(fd, buf, n, max - n, null);
    if (got === 0) break;
    n += got;
  }
  return buf.subarray(0, n);
}

function readPipeHead(stream: PipeStream, max: number, firstByteMs: number, signal: AbortSignal | undefined): Promise<Buffer | 'silent'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let n = 0;
    let timer: NodeJS.Timeout | undefined;
    let recheck: NodeJS.Immediate | undefined;
    const done = (r: Buffer | 'silent') => {
      clearTimeout(timer);
      clearImmediate(recheck);
      signal?.removeEventListener('abort', onAbort);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onEnd);
      // Nothing reads stdin after this: let go of it, so a writer that never closes cannot keep the process alive.
      stream.pause();
      stream.destroy?.();
      resolve(r);
    };
    const onData = (chunk: Buffer | string) => {
      clearTimeout(timer);
      clearImmediate(recheck);
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      chunks.push(b);
      n += b.length;
      if (n >= max) done(Buffer.concat(chunks).subarray(0, max));
    };
    const onEnd = () => done(Buffer.concat(chunks));
    const onAbort = () => done(n === 0 ? 'silent' : Buffer.concat(chunks));
    // When the wait is over, the pipe is polled once more before it is called silent: a
    // process held up past the deadline (a loaded machine) runs its timers before it polls
    // its descriptors, so bytes already waiting in the pipe would otherwise lose the race.
    // setImmediate runs after that poll, which does not block while an immediate is due.
    timer = setTimeout(() => {
      recheck = setImmediate(() => {
        if (n === 0) done('silent');
      });
    }, firstByteMs);
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onEnd);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Text or not: a NUL byte or bytes that are not UTF-8 make it binary (a cut at the cap may split a character: that is not a defect). */
export function classify(head: Buffer, cap: number): PipedStdin {
  if (head.length === 0) return { kind: 'empty' };
  const more = head.length > cap;
  const kept = head.subarray(0, cap);
  const nul = kept.indexOf(0);
  if (nul !== -1) return { kind: 'binary', bytes: head.length, more, why: `a NUL byte at offset ${nul}` };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(kept, { stream: more });
  } catch {
    return { kind: 'binary', bytes: head.length, more, why: 'not UTF-8 text' };
  }
  return { kind: 'text', text, bytes: head.length, truncated: more };
}

/** A fence longer than any run of backticks inside, so the content cannot close it. */
export function fenceFor(content: string): string {
  let longest = 0;
  for (const m of content.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

export function fenced(header: string, content: string): string {
  const fence = fenceFor(content);
  return `${header}\n${fence}\n${content}${content.endsWith('\n') || content === '' ? '' : '\n'}${fence}`;
}

/** The prompt with stdin's block after it, and the line(s) for the user. */
export function withStdin(prompt: string, stdin: PipedStdin, cap = STDIN_CAP_BYTES): { text: string; notes: string[] } {
  switch (stdin.kind) {
    case 'none':
      return { text: prompt, notes: [] };
    case 'empty':
      return { text: prompt, notes: ['stdin was empty: nothing attached'] };
    case 'silent':
      return {
        text: prompt,
        notes: [
          `stdin is a pipe that sent nothing in ${stdin.waitedMs} ms: not attached (CORE_AGENT_STDIN_WAIT_MS waits longer; \`run -\` reads the prompt from it)`,
        ],
      };
    case 'binary': {
      const size = `${stdin.bytes}${stdin.more ? '+' : ''} bytes`;
      return {
        text: `${prompt}\n\n[stdin: ${size} of binary data (${stdin.why}), not attached]`,
        notes: [`stdin is binary (${size}, ${stdin.why}): not attached`],
      };
    }
    case 'text': {
      const cut = stdin.truncated ? `stdin truncated: first ${cap} of ${stdin.bytes}+ bytes` : null;
      const header = cut ? `${cut}:` : `stdin (${stdin.bytes} bytes):`;
      return { text: `${prompt}\n\n${fenced(header, stdin.text)}`, notes: cut ? [cut] : [] };
    }
  }
}

/** A piece of the prompt: text as it stays, or an `@path` token. */
export type PromptPiece = { text: string } | { raw: string; paths: string[] };

const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/;

/**
 * Splits a prompt into text and `@path` tokens. A token starts with `@` at the
 * start or after whitespace (so `bob@example.com` is text), runs to the next
 * whitespace or is quoted (`@"a b.txt"`, `@'a b.txt'`); `\@` is a literal `@`.
 * A bare token also offers itself without trailing punctuation
 * (`see @a.ts, then`): the first path that exists wins.
 */
export function splitAtTokens(prompt: string): PromptPiece[] {
  const pieces: PromptPiece[] = [];
  let text = '';
  let i = 0;
  while (i < prompt.length) {
    const c = prompt[i]!;
    const atStart = i === 0 || /\s/.test(prompt[i - 1]!);
    if (c === '\\' && prompt[i + 1] === '@' && atStart) {
      text += '@';
      i += 2;
      continue;
    }
    if (c !== '@' || !atStart) {
      text += c;
      i += 1;
      continue;
    }
    const q = prompt[i + 1];
    let raw: string;
    let paths: string[];
    if (q === '"' || q === "'") {
      const close = prompt.indexOf(q, i + 2);
      if (close === -1 || close === i + 2) {
        text += c;
        i += 1;
        continue;
      }
      raw = prompt.slice(i, close + 1);
      paths = [prompt.slice(i + 2, close)];
    } else {
      const m = /^@(\S+)/.exec(prompt.slice(i));
      if (!m) {
        text += c;
        i += 1;
        continue;
      }
      raw = m[0];
      const bare = m[1]!.replace(TRAILING_PUNCTUATION, '');
      paths = bare && bare !== m[1] ? [m[1]!, bare] : [m[1]!];
    }
    if (text) pieces.push({ text });
    text = '';
    pieces.push({ raw, paths });
    i += raw.length;
  }
  if (text) pieces.push({ text });
  return pieces;
}

export type ReadForPrompt = (path: string) => Promise<ToolCallResult>;

export interface ExpandedPrompt {
  /** The prompt as the model sees it: the words (tokens kept as typed), then one block per file. */
  text: string;
  /** One line each for the user: what was not attached, or attached only in part. */
  notes: string[];
  attached: string[];
}

/**
 * Attaches each `@path` through `read` — read_file through the dispatcher, so
 * path scope, the permission gate and read_file's caps apply as to the model.
 * A path that does not exist stays text (`@scope/pkg`); a refused one stays
 * text too; both are said. A directory is refused (read_file's own answer).
 */
export async function expandAtFiles(prompt: string, read: ReadForPrompt, totalBytes = ATTACH_TOTAL_BYTES): Promise<ExpandedPrompt> {
  const pieces = splitAtTokens(prompt);
  const notes: string[] = [];
  const blocks: string[] = [];
  const attached: string[] = [];
  let used = 0;
  let words = '';
  for (const piece of pieces) {
    if ('text' in piece) {
      words += piece.text;
      continue;
    }
    words += piece.raw;
    let failure: { error: string; kind: string } | null = null;
    for (const p of piece.paths) {
      const r = await read(p);
      if (!r.ok) {
        // The first refusal is the one to tell; a shorter candidate that is merely missing does not replace it.
        if (failure === null || failure.kind === 'not_found') failure = { error: r.error, kind: r.kind };
        if (r.kind === 'not_found') continue;
        break;
      }
      failure = null;
      const shown = typeof r.result.path === 'string' ? r.result.path : p;
      if (attached.includes(shown)) break;
      const content = typeof r.result.content === 'string' ? r.result.content : '';
      const bytes = Buffer.byteLength(content);
      if (used + bytes > totalBytes) {
        notes.push(`@${p} not attached: the files of this prompt would pass ${totalBytes} bytes`);
        break;
      }
      used += bytes;
      attached.push(shown);
      const range = linesOf(r.result);
      if (r.result.truncated === true) {
        notes.push(`@${p}: attached ${range} only (read_file's output cap)`);
        blocks.push(
          fenced(
            `File ${shown} (${range}, cut at read_file's output cap; read_file offset=${String(r.result.next_offset)} reads on):`,
            content,
          ),
        );
      } else blocks.push(fenced(`File ${shown} (${range}):`, content));
      break;
    }
    if (failure) {
      notes.push(
        failure.kind === 'not_found'
          ? `@${piece.paths.at(-1)!}: no such file; left as text`
          : `@${piece.paths.at(-1)!} not attached: ${clip(failure.error, 300)}`,
      );
    }
  }
  return { text: blocks.length === 0 ? words : `${words}\n\n${blocks.join('\n\n')}`, notes, attached };
}

function linesOf(result: Record<string, unknown>): string {
  const { start_line: from, end_line: to, total_lines: total } = result;
  if (typeof to === 'number' && typeof from === 'number' && to < from) return 'empty';
  const of = typeof total === 'number' ? ` of ${total}` : '';
  return `lines ${String(from)}-${String(to)}${of}`;
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}
