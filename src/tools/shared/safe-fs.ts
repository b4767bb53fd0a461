import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, readlink, realpath, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { ResolvedPath } from '../../permissions/resolve-path.ts';
import { ToolError } from '../framework/tool.ts';
import type { WriteJournal } from '../framework/services.ts';

/**
 * File access that holds to what the gate checked.
 *
 * The gate resolved a path to its physical location; between that check and the
 * tool's work a directory on the way could be swapped for a symlink. Node has no
 * openat2(RESOLVE_BENEATH) and no *at() calls, but Linux gives the same effect
 * through /proc/self/fd: once a directory is opened, `/proc/self/fd/N/name` names
 * `name` inside *that* directory, whatever its path leads to afterwards. So every
 * mutation here pins the checked directory (opens it, then asks the kernel where
 * the descriptor really points and refuses unless it is the checked path) and
 * does all further work — creating directories, the temporary file, the rename,
 * the unlink — through the pinned descriptor. A symlink swapped in after the
 * check is never followed. What remains is a rename of the pinned directory
 * itself to elsewhere between the last verification and the syscall; docs/path-scope.md
 * says so.
 */

/** /proc/self/fd works here (Linux with /proc mounted); without it, paths are re-checked with realpath instead. */
let procFd: boolean | undefined;
async function haveProcFd(): Promise<boolean> {
  if (procFd === undefined) {
    try {
      await readlink('/proc/self/fd/0');
      procFd = true;
    } catch {
      procFd = false;
    }
  }
  return procFd;
}

function moved(real: string, actual: string): ToolError {
  return new ToolError(`${real} moved after the permission check (it now leads to ${actual}); refused, nothing was changed`);
}

/** A directory opened and verified to be the checked one; names inside it are reached through the descriptor. */
export class PinnedDir {
  private constructor(
    private readonly fh: FileHandle,
    /** The physical path the gate checked. */
    readonly real: string,
    private readonly viaFd: boolean,
  ) {}

  /** Open `real` as a directory and verify that the descriptor is `real` (no symlink anywhere on the way was swapped). */
  static async open(real: string): Promise<PinnedDir> {
    return PinnedDir.pin(real, real, await haveProcFd(), true);
  }

  /** Open the directory at `at` (never a symlink in its last component) as the checked `real`, verifying it when asked. */
  private static async pin(at: string, real: string, viaFd: boolean, verify: boolean): Promise<PinnedDir> {
    let fh: FileHandle;
    try {
      fh = await open(at, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    } catch (err) {
      throw pinError(err, real);
    }
    const dir = new PinnedDir(fh, real, viaFd);
    if (verify) {
      try {
        await dir.verify();
      } catch (err) {
        await fh.close();
        throw err;
      }
    }
    return dir;
  }

  /** `name` inside this directory, as a path the kernel resolves through the descriptor. */
  entry(name: string): string {
    return this.viaFd ? `/proc/self/fd/${this.fh.fd}/${name}` : path.join(this.real, name);
  }

  /** This directory itself, as a path the kernel resolves through the descriptor (to list it). */
  get self(): string {
    return this.viaFd ? `/proc/self/fd/${this.fh.fd}` : this.real;
  }

  /** The directory is still where the gate checked it (not renamed away, not deleted). */
  async verify(): Promise<void> {
    const actual = this.viaFd ? await readlink(`/proc/self/fd/${this.fh.fd}`) : await realpath(this.real).catch(() => '(nothing)');
    if (actual !== this.real) throw moved(this.real, actual);
  }

  /** The subdirectory `name`, created first when `create` says so; never through a symlink. */
  async child(name: string, create: boolean): Promise<PinnedDir> {
    const real = this.real === '/' ? `/${name}` : `${this.real}/${name}`;
    if (create) {
      try {
        await mkdir(this.entry(name));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw writeError(err, real);
      }
    }
    // Through the descriptor with O_NOFOLLOW, the child is exactly `name` in the pinned
    // directory: nothing to verify. Without /proc, the path is checked again instead.
    return PinnedDir.pin(this.entry(name), real, this.viaFd, !this.viaFd);
  }

  /** fsync the directory, so a rename in it survives a crash. Some filesystems refuse; the rename is still atomic. */
  async sync(): Promise<void> {
    await this.fh.sync().catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.fh.close().catch(() => undefined);
  }
}

/** The directory to pin is gone (removed after the check): for delete_file, nothing to delete. */
class GoneError extends ToolError {}

function pinError(err: unknown, real: string): Error {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return new ToolError(`${real} became a symlink after the permission check; refused, nothing was changed`);
  if (code === 'ENOTDIR') return new ToolError(`${real} is not a directory (it changed after the permission check?); refused`);
  if (code === 'ENOENT') return new GoneError(`${real} no longer exists (it changed after the permission check); nothing was changed`);
  return err as Error;
}

/** ENOSPC and friends as a sentence; the caller has already removed what it had half-written. */
function writeError(err: unknown, real: string): Error {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new ToolError(`no space left on the filesystem holding ${real} (${code}); nothing was changed — free space and retry`);
  }
  if (code === 'EROFS') return new ToolError(`${real} is on a read-only filesystem; nothing was changed`);
  if (code === 'EACCES' || code === 'EPERM') return new ToolError(`permission denied writing ${real} (${code}); nothing was changed`);
  return err as Error;
}

/**
 * Pin the directory a file is to be written in: the deepest existing ancestor
 * the resolver found, then each missing directory below it, created one at a
 * time inside the pinned one (mkdir -p that cannot be redirected by a symlink).
 */
async function pinParentForWrite(target: ResolvedPath): Promise<PinnedDir> {
  const parent = path.dirname(target.real);
  let dir = await PinnedDir.open(target.existing);
  const rest = path.relative(target.existing, parent);
  if (rest === '') return dir;
  if (rest.startsWith('..') || path.isAbsolute(rest)) {
    await dir.close();
    throw new ToolError(`${target.real} is not below ${target.existing}; refused`); // the resolver never produces this
  }
  for (const name of rest.split('/')) {
    const next = await dir.child(name, true).finally(() => dir.close());
    dir = next;
  }
  return dir;
}

/** Open a regular file in a pinned directory for reading, never through a symlink, never blocking on a FIFO. */
export async function openEntry(dir: PinnedDir, name: string, real: string): Promise<FileHandle> {
  let fh: FileHandle;
  try {
    fh = await open(dir.entry(name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new ToolError(`${real} became a symlink after the permission check; refused`);
    throw err;
  }
  const st = await fh.stat();
  if (!st.isFile()) {
    await fh.close();
    throw new ToolError(st.isDirectory() ? `${real} is a directory` : `${real} is not a regular file (a device, FIFO or socket); refused`);
  }
  return fh;
}

/**
 * Open a file the gate checked: O_NOFOLLOW (the last component cannot be a
 * link), then ask the kernel where the descriptor really points (/proc/self/fd)
 * and refuse if that is not the checked path. Reads need no pinning: the check
 * after the open is the whole defence, and nothing is changed before it.
 */
export async function openChecked(real: string, flags: number = constants.O_RDONLY, mode?: number): Promise<FileHandle> {
  let fh: FileHandle;
  // O_NONBLOCK on reads: opening a FIFO with no writer would otherwise block
  // forever; the type check below then refuses it.
  const reading = (flags & (constants.O_WRONLY | constants.O_RDWR)) === 0;
  try {
    fh = await open(real, flags | constants.O_NOFOLLOW | (reading ? constants.O_NONBLOCK : 0), mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new ToolError(`${real} became a symlink after the permission check; refused`);
    throw err;
  }
  const actual = await descriptorPath(fh, real);
  if (actual !== real) {
    await fh.close();
    throw new ToolError(`${real} moved after the permission check (it now leads to ${actual}); refused`);
  }
  const st = await fh.stat();
  if (!st.isFile() && !st.isDirectory()) {
    await fh.close();
    throw new ToolError(`${real} is not a regular file (a device, FIFO or socket); refused`);
  }
  return fh;
}

/** Linux's O_PATH (not in Node's constants; Node passes flags through): a descriptor for the name itself, which opens nothing. */
const O_PATH = process.platform === 'linux' ? 0o10000000 : undefined;

/**
 * The metadata of the entry the gate checked, never of what a symlink swapped
 * in leads to: opened with O_PATH|O_NOFOLLOW (no read permission needed, no
 * device or FIFO opened), the descriptor verified to be the checked path, then
 * fstat. A symlink now in the last component is refused; undefined when the
 * entry is gone.
 */
export async function statChecked(real: string): Promise<Stats | undefined> {
  if (O_PATH === undefined || !(await haveProcFd())) {
    const st = await lstat(real).catch(() => undefined);
    if (st !== undefined && (await realpath(real).catch(() => real)) !== real) throw moved(real, await realpath(real));
    return st;
  }
  let fh: FileHandle;
  try {
    fh = await open(real, O_PATH | constants.O_NOFOLLOW);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw err;
  }
  try {
    const actual = await readlink(`/proc/self/fd/${fh.fd}`);
    if (actual !== real) throw new ToolError(`${real} moved after the permission check (it now leads to ${actual}); refused`);
    const st = await fh.stat();
    if (st.isSymbolicLink()) throw new ToolError(`${real} became a symlink after the permission check; refused`);
    return st;
  } finally {
    await fh.close();
  }
}

async function descriptorPath(fh: FileHandle, fallback: string): Promise<string> {
  if (await haveProcFd()) return readlink(`/proc/self/fd/${fh.fd}`);
  // No /proc (not Linux): the best remaining check is resolving the path again.
  return realpath(fallback);
}

/** A NUL byte in the first 8 KB: the same heuristic git and ripgrep use. */
export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, 8192).includes(0);
}

/** Read a whole file through a checked descriptor, refusing files above `maxBytes`. */
export async function readChecked(real: string, maxBytes: number): Promise<Buffer> {
  const fh = await openChecked(real);
  try {
    return await readAll(fh, real, maxBytes);
  } finally {
    await fh.close();
  }
}

async function readAll(fh: FileHandle, real: string, maxBytes: number): Promise<Buffer> {
  const st = await fh.stat();
  if (st.isDirectory()) throw new ToolError(`${real} is a directory`);
  if (st.size > maxBytes) throw new ToolError(`file is ${st.size} bytes, above the ${maxBytes}-byte limit for this tool`);
  return fh.readFile();
}

let tmpCounter = 0;

/** The temporary files this process creates end in this; `pending-writes.ts` removes stale ones. */
export const TMP_SUFFIX = '.core-agent.tmp';

/**
 * Replace `name` in a pinned directory atomically: a temporary file created in
 * that directory (O_EXCL, O_NOFOLLOW), written, fsynced, renamed over the
 * target, then the directory fsynced. A crash leaves the old file or the new
 * one, never half of each; a failure removes the temporary file.
 */
export async function replaceIn(
  dir: PinnedDir,
  name: string,
  data: string | Uint8Array,
  mode: number,
  journal?: WriteJournal,
): Promise<void> {
  const real = dir.real === '/' ? `/${name}` : `${dir.real}/${name}`;
  // Unique enough: O_EXCL refuses a clash rather than clobbering (node:crypto is
  // not worth its start-up cost for a temporary name).
  const tmp = `.${utf8Prefix(name, 100)}.${process.pid}.${(tmpCounter++).toString(36)}${Date.now().toString(36)}${TMP_SUFFIX}`;
  const token = await journal?.begin(path.join(dir.real, tmp));
  let fh: FileHandle | undefined;
  let renamed = false;
  try {
    fh = await open(dir.entry(tmp), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    await fh.writeFile(data);
    await fh.chmod(mode); // after creation, so the umask does not narrow it
    await fh.sync();
    await fh.close();
    fh = undefined;
    await dir.verify(); // still the checked directory, just before the one step that publishes
    await rename(dir.entry(tmp), dir.entry(name));
    renamed = true;
  } catch (err) {
    throw writeError(err, real);
  } finally {
    if (!renamed) {
      await fh?.close().catch(() => undefined);
      await unlink(dir.entry(tmp)).catch(() => undefined);
    }
    await journal?.end(token);
  }
  await dir.sync();
}

/** At most `bytes` bytes of `s` in UTF-8, cut on a character boundary (a name must stay under NAME_MAX). */
function utf8Prefix(s: string, bytes: number): string {
  let out = '';
  let used = 0;
  for (const ch of s) {
    used += Buffer.byteLength(ch);
    if (used > bytes) break;
    out += ch;
  }
  return out;
}

/** What the file was before a write: its permission bits, or absent. */
async function existingMode(dir: PinnedDir, name: string, real: string): Promise<number | undefined> {
  let st;
  try {
    st = await lstat(dir.entry(name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  if (st.isSymbolicLink()) throw new ToolError(`${real} became a symlink after the permission check; refused, nothing was changed`);
  if (st.isDirectory()) throw new ToolError(`${real} is a directory`);
  if (!st.isFile()) throw new ToolError(`${real} is not a regular file`);
  return st.mode & 0o7777;
}

/**
 * Create or replace the file the gate checked, creating missing directories on
 * the way. An existing file keeps its permission bits. Returns whether it was new.
 */
export async function writeChecked(
  target: ResolvedPath,
  data: string | Uint8Array,
  opts: { journal?: WriteJournal | undefined; newMode?: number } = {},
): Promise<{ created: boolean }> {
  const dir = await pinParentForWrite(target);
  try {
    const name = path.basename(target.real);
    const mode = await existingMode(dir, name, target.real);
    await replaceIn(dir, name, data, mode ?? opts.newMode ?? 0o644, opts.journal);
    return { created: mode === undefined };
  } finally {
    await dir.close();
  }
}

/**
 * Read-modify-write of an existing file the gate checked, through one pinned
 * directory: the read and the replacement are of the same file in the same place.
 * `edit` returns the new content (`data`) with whatever the caller wants back, or throws to leave the file alone.
 */
export async function editChecked<R extends { data: string | Uint8Array }>(
  target: ResolvedPath,
  maxBytes: number,
  edit: (current: Buffer) => R,
  journal?: WriteJournal,
): Promise<R> {
  const dir = await PinnedDir.open(path.dirname(target.real));
  try {
    const name = path.basename(target.real);
    const fh = await openEntry(dir, name, target.real);
    let current: Buffer;
    let mode: number;
    try {
      mode = (await fh.stat()).mode & 0o7777;
      current = await readAll(fh, target.real, maxBytes);
    } finally {
      await fh.close();
    }
    const edited = edit(current);
    await replaceIn(dir, name, edited.data, mode, journal);
    return edited;
  } finally {
    await dir.close();
  }
}

export type RemoveOutcome = 'deleted' | 'deleted-symlink' | 'missing';

/**
 * Remove the file (or symlink) the gate checked, through its pinned parent:
 * never a directory, never through a symlink swapped in on the way.
 */
export async function removeChecked(target: ResolvedPath): Promise<RemoveOutcome> {
  const parent = path.dirname(target.real);
  if (target.existing !== parent && !target.exists) return 'missing';
  let dir: PinnedDir;
  try {
    dir = await PinnedDir.open(parent);
  } catch (err) {
    if (err instanceof GoneError) return 'missing';
    throw err;
  }
  try {
    const name = path.basename(target.real);
    let st;
    try {
      st = await lstat(dir.entry(name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      throw err;
    }
    if (st.isDirectory()) throw new ToolError(`${target.real} is a directory; delete_file removes files only`);
    await dir.verify();
    try {
      await unlink(dir.entry(name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      throw writeError(err, target.real);
    }
    await dir.sync();
    return st.isSymbolicLink() ? 'deleted-symlink' : 'deleted';
  } finally {
    await dir.close();
  }
}

/**
 * A file's text as it is now, for an approval prompt's diff: undefined when it
 * does not exist, is not a regular file, is binary or is larger than edits allow.
 */
export async function currentText(target: ResolvedPath, maxBytes = 1024 * 1024): Promise<string | undefined> {
  if (!target.exists) return undefined;
  try {
    const bytes = await readChecked(target.real, maxBytes);
    return looksBinary(bytes) ? undefined : bytes.toString('utf8');
  } catch {
    return undefined;
  }
}
