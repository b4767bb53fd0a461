import { ToolError } from '../tool.ts';
import { ripgrepExclusions } from './ignore-rules.ts';
import { runRipgrep } from './ripgrep.ts';
import { walkFiles } from './walk.ts';

/** A listing stops here whatever the caps say: enough for any real tree, bounded memory. */
export const MAX_LISTED_FILES = 1_000_000;

/**
 * Every searchable file under `root` (absolute paths, unordered), using
 * `rg --files` when a binary is available and the in-process walk otherwise.
 * `complete` is false when the listing hit MAX_LISTED_FILES.
 */
export async function listFiles(
  root: string,
  engine: { kind: 'ripgrep'; rg: string } | { kind: 're2' },
  signal: AbortSignal,
  workspace: string,
): Promise<{ files: string[]; complete: boolean }> {
  const files: string[] = [];
  if (engine.kind === 're2') {
    for await (const f of walkFiles(root, signal, workspace)) {
      files.push(f);
      if (files.length >= MAX_LISTED_FILES) return { files, complete: false };
    }
    return { files, complete: true };
  }
  const prefix = root === '/' ? '/' : `${root}/`;
  const run = runRipgrep(
    engine.rg,
    ['--files', '--null', ...ripgrepExclusions(), '--', '.'],
    root,
    '\0',
    (rec) => {
      files.push(prefix + (rec.startsWith('./') ? rec.slice(2) : rec));
      return files.length < MAX_LISTED_FILES;
    },
    signal,
  );
  const { code, stderr, stopped } = await run.done;
  if (!stopped && code === 2 && files.length === 0) throw new ToolError(`listing files failed: ${firstLine(stderr)}`);
  return { files, complete: !stopped };
}

export function firstLine(s: string): string {
  return s.trim().split('\n')[0] ?? '';
}
