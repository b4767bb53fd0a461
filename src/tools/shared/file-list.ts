import { ToolError } from '../framework/tool.ts';
import { ripgrepExclusions } from './ignore-rules.ts';
import { runRipgrep } from './ripgrep.ts';
import { regularFilesIn } from './recheck.ts';
import { walkFiles } from './walk.ts';

/** A listing stops here whatever the caps say: enough for any real tree, bounded memory. */
export const MAX_LISTED_FILES = 1_000_000;

/**
 * The searchable files under `root` that `keep` keeps, as paths relative to it
 * (unordered), using `rg --files` when a binary is available and the
 * in-process walk otherwise. Relative, because most of a big listing is
 * filtered away and building absolute strings for all of it is wasted work.
 * `complete` is false when the listing hit MAX_LISTED_FILES.
 *
 * The in-process walk reads every directory through a pinned descriptor; rg
 * walks by path, so what it lists (after `keep`) is checked again through
 * descriptors and a name that is not a regular file of the checked tree —
 * one listed through a directory swapped for a symlink — is dropped (recheck.ts).
 */
export async function listFiles(
  root: string,
  engine: { kind: 'ripgrep'; rg: string } | { kind: 're2' },
  signal: AbortSignal,
  workspace: string,
  keep: (rel: string) => boolean,
  /** A file-name pattern rg may pre-filter on (callers still apply their own match). */
  namePattern?: string,
): Promise<{ files: string[]; complete: boolean }> {
  const files: string[] = [];
  if (engine.kind === 're2') {
    const skip = root === '/' ? 1 : root.length + 1;
    let listed = 0;
    for await (const f of walkFiles(root, signal, workspace)) {
      const rel = f.abs.slice(skip);
      if (keep(rel)) files.push(rel);
      if (++listed >= MAX_LISTED_FILES) return { files, complete: false };
    }
    return { files, complete: true };
  }
  const listing = await listWithRipgrep(root, engine.rg, signal, keep, namePattern);
  const present = await regularFilesIn(root, listing.files);
  return { files: listing.files.filter((rel) => present.has(rel)), complete: listing.complete };
}

async function listWithRipgrep(
  root: string,
  rg: string,
  signal: AbortSignal,
  keep: (rel: string) => boolean,
  namePattern: string | undefined,
): Promise<{ files: string[]; complete: boolean }> {
  const files: string[] = [];
  let listed = 0;
  // No path argument: rg lists the working directory and prints paths without "./".
  const run = runRipgrep(
    rg,
    ['--files', '--null', ...ripgrepTypeFilter(namePattern), ...ripgrepExclusions()],
    root,
    '\0',
    (rec) => {
      if (keep(rec)) files.push(rec);
      return ++listed < MAX_LISTED_FILES;
    },
    signal,
  );
  const { code, stderr, stopped } = await run.done;
  if (!stopped && code === 2 && listed === 0) throw new ToolError(`listing files failed: ${firstLine(stderr)}`);
  return { files, complete: !stopped };
}

/**
 * Let rg drop non-matching names itself (most of a big tree), as a file type:
 * unlike --glob, a type does not override .gitignore. Only for plain name
 * patterns whose meaning is the same in both glob dialects; anything else is
 * listed in full and filtered in JS.
 */
export function ripgrepTypeFilter(namePattern: string | undefined): string[] {
  if (namePattern === undefined || !/^[A-Za-z0-9._*?{},-]+$/.test(namePattern)) return [];
  return [`--type-add=match:${namePattern}`, '--type=match'];
}

export function firstLine(s: string): string {
  return s.trim().split('\n')[0] ?? '';
}
