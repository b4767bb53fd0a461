import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { PinnedDir } from './safe-fs.ts';
import { IGNORE_FILES, VENDORED_DIRS, isHidden } from './ignore-rules.ts';

interface IgnoreLayer {
  /** The directory the ignore file sits in; its patterns are relative to it. */
  readonly base: string;
  readonly rules: Ignore;
}

/** A file the walk found: its path, and the pinned directory it is in while the walk waits at it. */
export interface WalkedFile {
  readonly abs: string;
  readonly dir: PinnedDir;
  readonly name: string;
}

/**
 * The in-process file walk, used where no ripgrep binary exists: regular files
 * under `root`, leaving out hidden entries, vendored directories, symlinks
 * (never followed, as ripgrep does by default) and anything an ignore file
 * excludes — including ignore files in the directories between `ignoreFrom`
 * (the workspace) and `root`. Yields in name order.
 *
 * Every directory is read through a descriptor: the root's is verified to be
 * the checked path (a symlink swapped in for it is refused), and each one below
 * is opened with O_NOFOLLOW inside its parent's, so a directory swapped for a
 * symlink during the walk is skipped, never followed. A yielded file's `dir`
 * stays open until the walk moves on: open the file through it.
 */
export async function* walkFiles(root: string, signal: AbortSignal, ignoreFrom?: string): AsyncGenerator<WalkedFile> {
  const layers: IgnoreLayer[] = [];
  // A repository's root (a worktree's, entered by enter_worktree) is a boundary, as for git and rg:
  // the ignore files above it are another repository's.
  if (ignoreFrom && root !== ignoreFrom && root.startsWith(`${ignoreFrom}/`) && !existsSync(`${root}/.git`)) {
    for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
      const layer = await loadIgnore(dir, dir);
      if (layer) layers.unshift(layer);
      if (dir === ignoreFrom || dir === '/' || existsSync(`${dir}/.git`)) break;
    }
  }
  const pinned = await PinnedDir.open(root);
  try {
    yield* walkDir(pinned, root === '/' ? '' : root, layers, signal);
  } finally {
    await pinned.close();
  }
}

async function* walkDir(dir: PinnedDir, at: string, layers: readonly IgnoreLayer[], signal: AbortSignal): AsyncGenerator<WalkedFile> {
  if (signal.aborted) return;
  let entries;
  try {
    entries = await readdir(dir.self, { withFileTypes: true });
  } catch {
    return; // unreadable directory: skip it, as rg does
  }
  const own = await loadIgnore(dir.self, at || '/');
  const active = own ? [...layers, own] : layers;
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (isHidden(e.name) || e.isSymbolicLink()) continue;
    const abs = `${at}/${e.name}`;
    if (e.isDirectory()) {
      if (VENDORED_DIRS.includes(e.name) || ignored(active, abs, true)) continue;
      let child: PinnedDir;
      try {
        child = await dir.child(e.name, false);
      } catch {
        continue; // gone, or no longer a directory (a symlink swapped in): not followed
      }
      try {
        yield* walkDir(child, abs, active, signal);
      } finally {
        await child.close();
      }
    } else if (e.isFile() && !ignored(active, abs, false)) {
      yield { abs, dir, name: e.name };
    }
  }
}

function ignored(layers: readonly IgnoreLayer[], abs: string, isDir: boolean): boolean {
  for (const layer of layers) {
    const rel = path.relative(layer.base, abs);
    if (layer.rules.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return false;
}

/** The ignore files in the directory read at `from` (a pinned directory's own path), for patterns relative to `base`. */
async function loadIgnore(from: string, base: string): Promise<IgnoreLayer | null> {
  let rules: Ignore | null = null;
  for (const name of IGNORE_FILES) {
    try {
      const text = await readFile(`${from}/${name}`, 'utf8');
      rules ??= ignore();
      rules.add(text);
    } catch {
      // no such file
    }
  }
  return rules ? { base, rules } : null;
}
