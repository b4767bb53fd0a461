import { isUtf8 } from 'node:buffer';
import { constants } from 'node:fs';
import { openFile, type OpenFile } from '../util/fs-callbacks.ts';

/**
 * The one way core-agent reads a configuration file (a recipe, .agents/mcp.json,
 * a SKILL.md's front matter, AGENTS.md). Every such file may come from a cloned
 * repository, so reading it must be bounded before anything parses it:
 *
 * - opened with O_NONBLOCK, so a FIFO with no writer cannot hang the open;
 * - fstat on the open descriptor (not the path: no race with a swap), and
 *   anything but a regular file is refused — a FIFO, a directory, /dev/zero;
 * - refused above the kind's size limit before a byte is read, and never more
 *   than limit + 1 bytes read (a file that grows, or a /proc file that claims 0);
 * - refused when it is not UTF-8 text, with the position of the first bad byte.
 */

export interface ConfigKind {
  /** "a recipe", "an MCP declaration file": the start of "… is not a regular file". */
  readonly noun: string;
  /** The largest file accepted, in bytes. */
  readonly maxBytes: number;
  /** What to give instead, for the non-regular-file message. */
  readonly hint: string;
}

/**
 * 256 KiB: over a hundred times the largest shipped recipe (about 2 KiB), room for
 * long instructions. The cap is what bounds a hostile file's cost, which grows with
 * its size however it is shaped: at 256 KiB the worst shapes measured (a syntax
 * error on every byte or line) take 2-3.5 s and about 320 MB through the CLI on the
 * shared 2-core test machine, against 0.5 s and 85 MB for a normal recipe; at 1 MiB
 * the parser alone took up to 18 s and 1.3 GB, and 50 MB took 3 GB and was killed
 * before there was any limit.
 */
export const MAX_RECIPE_BYTES = 256 * 1024;
/**
 * 64 KiB: a real mcp.json is a few hundred bytes, and this file comes with the
 * workspace — a cloned repository — and is read at every start, trusted or not.
 */
export const MAX_MCP_JSON_BYTES = 64 * 1024;

export const RECIPE_FILE: ConfigKind = { noun: 'a recipe', maxBytes: MAX_RECIPE_BYTES, hint: 'give a recipe file' };
export const MCP_JSON_FILE: ConfigKind = {
  noun: 'an MCP declaration file',
  maxBytes: MAX_MCP_JSON_BYTES,
  hint: 'make .agents/mcp.json a JSON file or remove it',
};

/** A file that cannot be read as configuration; `message` starts with the file name. */
export class ConfigFileError extends Error {
  override readonly name = 'ConfigFileError';
  constructor(
    message: string,
    /** ENOENT when the file does not exist (callers may treat that as "none"). */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The whole file as text, or ConfigFileError. */
export async function readConfigFile(file: string, kind: ConfigKind): Promise<string> {
  const fh = await openRegular(file, kind);
  try {
    const size = (await fh.stat()).size;
    if (size > kind.maxBytes) throw tooLarge(file, kind, size);
    const bytes = await readUpTo(fh, kind.maxBytes + 1);
    // fstat said it fits, but it grew (or is a /proc file that reports 0).
    if (bytes.length > kind.maxBytes) throw tooLarge(file, kind);
    return decodeText(bytes, file, kind);
  } finally {
    await fh.close();
  }
}

/**
 * The first `headBytes` of the file as text (what is parsed of a SKILL.md, what is
 * shown of AGENTS.md), and whether that is the whole file. The file itself may be
 * larger: only the head is read. A multi-byte character cut at the end is dropped.
 */
export async function readConfigHead(file: string, kind: ConfigKind, headBytes: number): Promise<{ text: string; complete: boolean }> {
  const fh = await openRegular(file, kind);
  try {
    const bytes = await readUpTo(fh, headBytes + 1);
    const complete = bytes.length <= headBytes;
    const head = complete ? bytes : bytes.subarray(0, headBytes);
    return { text: decodeText(complete ? head : head.subarray(0, utf8Boundary(head)), file, kind), complete };
  } finally {
    await fh.close();
  }
}

async function openRegular(file: string, kind: ConfigKind): Promise<OpenFile> {
  let fh: OpenFile;
  try {
    fh = await openFile(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    // A UNIX socket cannot be opened at all (ENXIO): it is not a regular file either.
    if (e.code === 'ENXIO') throw notRegular(file, kind, 'a socket');
    throw new ConfigFileError(`${file}: cannot read ${kind.noun} (${REASONS[e.code ?? ''] ?? e.code ?? e.message})`, e.code);
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) {
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
  } catch (err) {
    await fh.close();
    throw err;
  }
  return fh;
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'too many levels of symbolic links',
  ENOTDIR: 'a component of the path is not a directory',
  ENAMETOOLONG: 'the path is too long',
};

function notRegular(file: string, kind: ConfigKind, what: string): ConfigFileError {
  return new ConfigFileError(`${file}: not a regular file (${what}); ${kind.hint}`);
}

function tooLarge(file: string, kind: ConfigKind, size?: number): ConfigFileError {
  const what = size === undefined ? 'larger than' : `${size} bytes is over`;
  return new ConfigFileError(`${file}: ${what} the ${formatBytes(kind.maxBytes)} limit for ${kind.noun}; nothing of it was parsed`);
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
 * UTF-8 text, or an error at the first byte that is not: a NUL (a binary file)
 * or an invalid sequence. A leading byte-order mark is dropped.
 */
function decodeText(bytes: Buffer, file: string, kind: ConfigKind): string {
  const nul = bytes.indexOf(0);
  const bad = nul >= 0 ? nul : isUtf8(bytes) ? -1 : firstInvalidUtf8(bytes);
  if (bad >= 0) {
    const before = bytes.subarray(0, bad).toString('utf8');
    const line = before.split('\n').length;
    const col = before.length - before.lastIndexOf('\n');
    const what = nul >= 0 ? 'a NUL byte' : `the byte 0x${bytes[bad]!.toString(16).padStart(2, '0')} is not UTF-8`;
    throw new ConfigFileError(`${file}:${line}:${col}: not a text file (${what}); ${kind.noun} is UTF-8 text`);
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
function utf8Boundary(bytes: Buffer): number {
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
