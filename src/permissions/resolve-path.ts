import { lstat, readlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

/** A path as the gate checked it and as the tool must use it. */
export interface ResolvedPath {
  /** What the caller sent. */
  readonly input: string;
  /** The physical location: every symlink followed, `..` applied after following. */
  readonly real: string;
  /** Whether every component exists (false for a file about to be created). */
  readonly exists: boolean;
}

export class PathResolutionError extends Error {
  override readonly name = 'PathResolutionError';
}

const MAX_SYMLINK_HOPS = 40; // Linux's own limit (MAXSYMLINKS)

/**
 * Resolve `input` against `base` the way the kernel will when a tool opens it:
 * component by component, following symlinks (including dangling ones, whose
 * target is where a write would land) and applying `..` to the physical
 * directory, not the lexical one. `link/../x` with link → /etc/ssl is /etc/x,
 * and that is what the scope check must see. Components that do not exist yet
 * are appended literally (a new file's path). With `followFinal: false` the
 * last component is left as is, so deleting a symlink deletes the link.
 */
export async function resolvePath(input: string, base: string, opts: { followFinal?: boolean } = {}): Promise<ResolvedPath> {
  const followFinal = opts.followFinal ?? true;
  if (input.length === 0) throw new PathResolutionError('path is empty');
  if (input.includes('\0')) throw new PathResolutionError('path contains a NUL byte');

  let expanded = input;
  if (input === '~' || input.startsWith('~/')) expanded = path.join(homedir(), input.slice(1));
  const start = path.isAbsolute(expanded) ? expanded : `${base}/${expanded}`;

  const queue = start.split('/');
  let resolved = '/';
  let missing = false;
  let hops = 0;

  while (queue.length > 0) {
    const part = queue.shift()!;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      resolved = path.dirname(resolved);
      continue;
    }
    const candidate = resolved === '/' ? `/${part}` : `${resolved}/${part}`;
    if (missing) {
      resolved = candidate;
      continue;
    }
    const isLast = queue.every((p) => p === '' || p === '.');
    let st;
    try {
      st = await lstat(candidate);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        missing = true;
        resolved = candidate;
        continue;
      }
      if (code === 'ENOTDIR') throw new PathResolutionError(`${path.dirname(candidate)} is not a directory`);
      if (code === 'EACCES') throw new PathResolutionError(`permission denied while resolving ${candidate}`);
      throw err;
    }
    if (st.isSymbolicLink() && (!isLast || followFinal)) {
      hops += 1;
      if (hops > MAX_SYMLINK_HOPS) {
        throw new PathResolutionError(`symlink loop (more than ${MAX_SYMLINK_HOPS} links) while resolving ${input}`);
      }
      const target = await readlink(candidate);
      if (path.isAbsolute(target)) resolved = '/';
      queue.unshift(...target.split('/'));
      continue;
    }
    if (!isLast && !st.isDirectory()) throw new PathResolutionError(`${candidate} is not a directory`);
    resolved = candidate;
  }
  return { input, real: resolved, exists: !missing };
}
