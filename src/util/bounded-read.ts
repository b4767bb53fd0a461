import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { openFile, type OpenFile } from '../startup/fs-callbacks.ts';

/**
 * The one way core-agent reads a file someone else may have shaped: configuration (a recipe,
 * .agents/mcp.json, a SKILL.md, AGENTS.md: src/config/read-config-file.ts), a kubeconfig and
 * the token, certificate and namespace files it names (src/k8s/). Reading it is bounded before
 * anything parses it:
 *
 * - opened with O_NONBLOCK, so a FIFO with no writer cannot hang the open;
 * - fstat on the open descriptor (not the path: no race with a swap), and anything but a
 *   regular file is refused — a FIFO, a directory, /dev/zero;
 * - refused above the kind's size limit before a byte is read, and never more than limit + 1
 *   bytes read (a file that grows, or a /proc file that claims 0);
 * - as text, refused when it is not UTF-8, with the position of the first bad byte.
 *
 * Each error is one sentence that starts with the file name and says what to give instead.
 */

export interface FileKind {
  /** "a recipe", "a kubeconfig": the end of "… limit for …" and the start of "is not a regular file". */
  readonly noun: string;
  /** The largest file accepted, in bytes. */
  readonly maxBytes: number;
  /** What to give instead, for the non-regular-file message. */
  readonly hint: string;
}

/** A file that cannot be read as its kind; `message` starts with the file name. */
export class BoundedReadError extends Error {
  override readonly name: string = 'BoundedReadError';
  constructor(
    message: string,
    /** The system's code for a file that cannot be opened (ENOENT: callers may treat that as "none"). */
    readonly code?: string,
  ) {
    super(message);
  }
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/** The whole file, or BoundedReadError. */
export async function readBounded(file: string, kind: FileKind): Promise<Buffer> {
  const fh = await openRegular(file, kind);
  try {
    const size = (await fh.stat()).size;
    if (size > kind.maxBytes) throw tooLarge(file, kind, size);
    const bytes = await readUpTo(fh, kind.maxBytes + 1);
    // fstat said it fits, but it grew (or is a /proc file that reports 0).
    if (bytes.length > kind.maxBytes) throw tooLarge(file, kind);
    return bytes;
  } finally {
    await fh.close();
  }
}

/** The first `headBytes` of the file, and whether that is all of it: only the head is read. */
export async function readBoundedHead(file: string, kind: FileKind, headBytes: number): Promise<{ bytes: Buffer; complete: boolean }> {
  const fh = await openRegular(file, kind);
  try {
    const bytes = await readUpTo(fh, headBytes + 1);
    const complete = bytes.length <= headBytes;
    return { bytes: complete ? bytes : bytes.subarray(0, headBytes), complete };
  } finally {
    await fh.close();
  }
}

/** readBounded, synchronously: for what is read where nothing can wait (a token file re-read per request). */
export function readBoundedSync(file: string, kind: FileKind): Buffer {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (err) {
    throw cannotOpen(file, kind, err as NodeJS.ErrnoException);
  }
  try {
    const st = fstatSync(fd);
    refuseIrregular(file, kind, st);
    if (st.size > kind.maxBytes) throw tooLarge(file, kind, st.size);
    const limit = kind.maxBytes + 1;
    const buf = Buffer.alloc(Math.min(limit, Math.max(st.size + 1, 4096)));
    const chunks: Buffer[] = [];
    let total = 0;
    while (total < limit) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, limit - total), null);
      if (n === 0) break;
      chunks.push(Buffer.from(buf.subarray(0, n)));
      total += n;
    }
    if (total > kind.maxBytes) throw tooLarge(file, kind);
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

async function openRegular(file: string, kind: FileKind): Promise<OpenFile> {
  let fh: OpenFile;
  try {
    fh = await openFile(file, OPEN_FLAGS);
  } catch (err) {
    throw cannotOpen(file, kind, err as NodeJS.ErrnoException);
  }
  try {
    refuseIrregular(file, kind, await fh.stat());
  } catch (err) {
    await fh.close();
    throw err;
  }
  return fh;
}

function refuseIrregular(file: string, kind: FileKind, st: Stats): void {
  if (st.isFile()) return;
  const what = st.isFIFO()
    ? 'a FIFO'
    : st.isDirectory()
      ? 'a directory'
      : st.isCharacterDevice()
        ? 'a character device'
        : st.isBlockDevice()
          ? 'a block device'
          : st.isSocket()
            ? 'a socket'
            : 'not a file';
  throw notRegular(file, kind, what);
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'too many levels of symbolic links',
  ENOTDIR: 'a component of the path is not a directory',
  ENAMETOOLONG: 'the path is too long',
};

function cannotOpen(file: string, kind: FileKind, e: NodeJS.ErrnoException): BoundedReadError {
  // A UNIX socket cannot be opened at all (ENXIO): it is not a regular file either.
  if (e.code === 'ENXIO') return notRegular(file, kind, 'a socket');
  return new BoundedReadError(`${file}: cannot read ${kind.noun} (${REASONS[e.code ?? ''] ?? e.code ?? e.message})`, e.code);
}

function notRegular(file: string, kind: FileKind, what: string): BoundedReadError {
  return new BoundedReadError(`${file}: not a regular file (${what}); ${kind.hint}`);
}

function tooLarge(file: string, kind: FileKind, size?: number): BoundedReadError {
  const what = size === undefined ? 'larger than' : `${size} bytes is over`;
  return new BoundedReadError(`${file}: ${what} the ${formatBytes(kind.maxBytes)} limit for ${kind.noun}; nothing of it was parsed`);
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${+(n / (1024 * 1024)).toFixed(1)} MiB`;
}

async function readUpTo(fh: OpenFile, limit: number): Promise<Buffer> {
  const buf = Buffer.alloc(Math.min(limit, 64 * 1024));
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    const bytesRead = await fh.read(buf, 0, Math.min(buf.length, limit - total));
    if (bytesRead === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, bytesRead)));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
}

/**
 * UTF-8 text, or an error at the first byte that is not: a NUL (a binary file) or an invalid
 * sequence. A leading byte-order mark is dropped.
 */
export function decodeText(bytes: Buffer, file: string, kind: FileKind): string {
  const nul = bytes.indexOf(0);
  const bad = nul >= 0 ? nul : isUtf8(bytes) ? -1 : firstInvalidUtf8(bytes);
  if (bad >= 0) {
    const before = bytes.subarray(0, bad).toString('utf8');
    const line = before.split('\n').length;
    const col = before.length - before.lastIndexOf('\n');
    const what = nul >= 0 ? 'a NUL byte' : `the byte 0x${bytes[bad]!.toString(16).padStart(2, '0')} is not UTF-8`;
    throw new BoundedReadError(`${file}:${line}:${col}: not a text file (${what}); ${kind.noun} is UTF-8 text`);
  }
  return new TextDecoder('utf-8').decode(bytes);
}

/** The offset of the first byte that does not belong to a valid UTF-8 sequence (bytes.length when none). */
function firstInvalidUtf8(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const len = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (len === 0 || i + len > bytes.length || !isUtf8(bytes.subarray(i, i + len))) return i;
    i += len;
  }
  return bytes.length;
}

/** The length of `bytes` without a trailing, incomplete UTF-8 sequence. */
export function utf8Boundary(bytes: Buffer): number {
  const i = bytes.length;
  // Step back over at most three continuation bytes to the lead byte of the last character.
  let back = 0;
  while (back < 3 && i - back - 1 >= 0 && (bytes[i - back - 1]! & 0xc0) === 0x80) back++;
  const lead = i - back - 1;
  if (lead < 0) return i;
  const b = bytes[lead]!;
  const need = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
  return back + 1 < need ? lead : i;
}
