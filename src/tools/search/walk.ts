import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { IGNORE_FILES, VENDORED_DIRS, isHidden } from './ignore-rules.ts';

interface IgnoreLayer {
  /** The directory the ignore file sits in; its patterns are relative to it. */
  readonly base: string;
  readonly rules: Ignore;
}

/**
 * The in-process file walk, used where no ripgrep binary exists: regular files
 * under `root`, leaving out hidden entries, vendored directories, symlinks
 * (never followed, as ripgrep does by default) and anything an ignore file
 * excludes — including ignore files in the directories between `ignoreFrom`
 * (the workspace) and `root`. Yields absolute paths in name order.
 */
export async function* walkFiles(root: string, signal: AbortSignal, ignoreFrom?: string): AsyncGenerator<string> {
  const layers: IgnoreLayer[] = [];
  // A repository's root (a worktree's, entered by enter_worktree) is a boundary, as for git and rg:
  // the ignore files above it are another repository's.
  if (ignoreFrom && root !== ignoreFrom && root.startsWith(`${ignoreFrom}/`) && !existsSync(`${root}/.git`)) {
    for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
      const layer = await loadIgnore(dir);
      if (layer) layers.unshift(layer);
      if (dir === ignoreFrom || dir === '/' || existsSync(`${dir}/.git`)) break;
    }
  }
  yield* walkDir(root, layers, signal);
}

async function* walkDir(dir: string, layers: readonly IgnoreLayer[], signal: AbortSignal): AsyncGenerator<string> {
  if (signal.aborted) return;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return; // unreadable directory: skip it, as rg does
  }
  const own = await loadIgnore(dir);
  const active = own ? [...layers, own] : layers;
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (isHidden(e.name) || e.isSymbolicLink()) continue;
    const abs = `${dir}/${e.name}`;
    if (e.isDirectory()) {
      if (VENDORED_DIRS.includes(e.name) || ignored(active, abs, true)) continue;
      yield* walkDir(abs, active, signal);
    } else if (e.isFile() && !ignored(active, abs, false)) {
      yield abs;
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

async function loadIgnore(dir: string): Promise<IgnoreLayer | null> {
  let rules: Ignore | null = null;
  for (const name of IGNORE_FILES) {
    try {
      const text = await readFile(`${dir}/${name}`, 'utf8');
      rules ??= ignore();
      rules.add(text);
    } catch {
      // no such file
    }
  }
  return rules ? { base: dir, rules } : null;
}
