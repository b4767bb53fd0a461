import { constants } from 'node:fs';
import { open, readlink, realpath, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../tool.ts';

/**
 * File access that holds to what the gate checked. The gate resolved a path to
 * its physical location; between that check and the open, a directory on the
 * way could be swapped for a symlink. So: open with O_NOFOLLOW (the last
 * component cannot be a link), then ask the kernel where the descriptor really
 * points (/proc/self/fd) and refuse if that is not the checked path.
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

async function descriptorPath(fh: FileHandle, fallback: string): Promise<string> {
  try {
    return await readlink(`/proc/self/fd/${fh.fd}`);
  } catch {
    // No /proc (not Linux): the best remaining check is resolving the path again.
    return realpath(fallback);
  }
}

/** A NUL byte in the first 8 KB: the same heuristic git and ripgrep use. */
export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, 8192).includes(0);
}

/** Read a whole file through a checked descriptor, refusing files above `maxBytes`. */
export async function readChecked(real: string, maxBytes: number): Promise<Buffer> {
  const fh = await openChecked(real);
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw new ToolError(`${real} is a directory`);
    if (st.size > maxBytes) throw new ToolError(`file is ${st.size} bytes, above the ${maxBytes}-byte limit for this tool`);
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

let tmpCounter = 0;

/**
 * Replace a file atomically: write a temporary file beside it, fsync, rename
 * over the target, fsync the directory. A crash leaves the old file or the new
 * one, never half of each. `mode` keeps an existing file's permission bits.
 */
export async function atomicWrite(real: string, data: string | Uint8Array, mode: number): Promise<void> {
  const dir = path.dirname(real);
  // Unique enough: O_EXCL refuses a clash rather than clobbering (node:crypto is
  // not worth its start-up cost for a temporary name).
  const name = path.basename(real).slice(0, 100); // stay under NAME_MAX whatever the target's length
  const tmp = path.join(dir, `.${name}.${process.pid}.${(tmpCounter++).toString(36)}${Date.now().toString(36)}.core-agent.tmp`);
  const fh = await openChecked(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  let renamed = false;
  try {
    await fh.writeFile(data);
    await fh.chmod(mode); // after creation, so the umask does not narrow it
    await fh.sync();
    await fh.close();
    await rename(tmp, real);
    renamed = true;
  } finally {
    if (!renamed) {
      await fh.close().catch(() => undefined);
      await unlink(tmp).catch(() => undefined);
    }
  }
  await syncDir(dir);
}

async function syncDir(dir: string): Promise<void> {
  try {
    const d = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  } catch {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic.
  }
}
