import { lstat, readlink } from '../startup/fs-callbacks.ts';
import path from 'node:path';
import type { FailureKind } from '../core/failure.ts';

/** A path as the gate checked it and as the tool must use it. */
export interface ResolvedPath {
  /** What the caller sent. */
  readonly input: string;
  /** The physical location: every symlink followed, `..` applied after following. */
  readonly real: string;
  /** Whether every component exists (false for a file about to be created). */
  readonly exists: boolean;
  /**
   * The deepest directory on the way to `real` that exists (its physical path):
   * where a tool that creates `real` starts creating, and what it must pin and
   * verify first. For an existing path it is `real`'s parent.
   */
  readonly existing: string;
}

export class PathResolutionError extends Error {
  override readonly name = 'PathResolutionError';

  constructor(
    message: string,
    /** What the dispatcher reports: a malformed path, one through a file (not_found), or one it cannot walk. */
    readonly kind: FailureKind,
  ) {
    super(message);
  }
}

const MAX_SYMLINK_HOPS = 40; // Linux's own limit (MAXSYMLINKS)

/**
 * Resolve `input` against `base` the way the kernel will when a tool opens it:
 * component by component, following symlinks (including dangling ones, whose
 * target is where a write would land) and applying `..` to the physical
 * directory, not the lexical one. `link/../x` with link → /etc/ssl is /etc/x,
 * and that is what the scope check must see. Components that do not exist yet
 * are appended literally (a new file's path) — but a `..` after one steps back
 * onto what exists, and from there symlinks are followed again:
 * `missing/../link/f` is `link/f` with `link` followed, exactly as `mkdir -p`
 * and then the open would walk it. No `..` is ever applied to a path whose
 * symlinks are not yet known. With `followFinal: false` the last component is
 * left as is, so deleting a symlink deletes the link. `~` and `~/…` are under
 * `home`; without one such a path is refused rather than guessed.
 */
export async function resolvePath(
  input: string,
  base: string,
  opts: { followFinal?: boolean; home?: string | undefined } = {},
): Promise<ResolvedPath> {
  const followFinal = opts.followFinal ?? true;
  if (input.length === 0) throw new PathResolutionError('path is empty', 'invalid_args');
  if (input.includes('\0')) throw new PathResolutionError('path contains a NUL byte', 'invalid_args');

  let expanded = input;
  if (input === '~' || input.startsWith('~/')) {
    if (opts.home === undefined)
      throw new PathResolutionError(`${input.slice(0, 64)}: ~ has no home directory to stand for here`, 'invalid_args');
    expanded = path.join(opts.home, input.slice(1));
  }
  const start = path.isAbsolute(expanded) ? expanded : `${base}/${expanded}`;

  const queue = start.split('/');
  let resolved = '/';
  // How many trailing components of `resolved` do not exist (0: all of it does).
  let missing = 0;
  let hops = 0;

  while (queue.length > 0) {
    const part = queue.shift()!;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      // Above a missing component, `..` only undoes it; on what exists, it is physical.
      resolved = path.dirname(resolved);
      if (missing > 0) missing -= 1;
      continue;
    }
    const candidate = resolved === '/' ? `/${part}` : `${resolved}/${part}`;
    if (missing > 0) {
      resolved = candidate;
      missing += 1;
      continue;
    }
    const isLast = queue.every((p) => p === '' || p === '.');
    let st;
    try {
      st = await lstat(candidate);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        missing = 1;
        resolved = candidate;
        continue;
      }
      if (code === 'ENOTDIR') throw new PathResolutionError(`${path.dirname(candidate)} is not a directory`, 'not_found');
      if (code === 'EACCES') throw new PathResolutionError(`permission denied while resolving ${candidate}`, 'tool_error');
      throw err;
    }
    if (st.isSymbolicLink() && (!isLast || followFinal)) {
      hops += 1;
      if (hops > MAX_SYMLINK_HOPS) {
        throw new PathResolutionError(`symlink loop (more than ${MAX_SYMLINK_HOPS} links) while resolving the path`, 'tool_error');
      }
      const target = await readlink(candidate);
      if (path.isAbsolute(target)) resolved = '/';
      queue.unshift(...target.split('/'));
      continue;
    }
    if (!isLast && !st.isDirectory()) throw new PathResolutionError(`${candidate} is not a directory`, 'not_found');
    resolved = candidate;
  }
  let existing = resolved;
  for (let n = missing; n > 0; n--) existing = path.dirname(existing);
  if (missing === 0) existing = path.dirname(resolved);
  return { input, real: resolved, exists: missing === 0, existing };
}
