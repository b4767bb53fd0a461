/**
 * Path-scope escapes, one line a case. Every case is tried with every file tool
 * (path-escapes.test.ts): each must be refused as outside path_scope, and nothing
 * outside the workspace may change. The fixture (built per case):
 *
 *   OUT/secret.txt, OUT/sub/secret.txt           the outside tree
 *   WS/link-file   → OUT/secret.txt               WS/link-dir  → OUT
 *   WS/link-sub    → OUT/sub                      WS/rel-link  → ../<OUT> (relative)
 *   WS/chain-a → WS/chain-b → OUT                  WS/dangling  → OUT/new-file.txt
 *   WS/dir/inside.txt, WS/dir/nested/             real directories inside
 *
 * `{out}` is OUT's absolute path, `{outRel}` OUT relative to WS, `{ws}` WS's
 * basename, `{wsAbs}` WS's absolute path. `link` names the workspace entry a
 * path ends in when that is itself a link inside the workspace: delete_file
 * removes the link (allowed) rather than what it points to.
 */
export interface EscapeCase {
  name: string;
  path: string;
  link?: string;
}

export const ESCAPES: readonly EscapeCase[] = [
  { name: 'parent-relative', path: '{outRel}/secret.txt' },
  { name: 'absolute', path: '{out}/secret.txt' },
  { name: 'absolute-dir', path: '{out}' },
  { name: 'symlink-file', path: 'link-file', link: 'link-file' },
  { name: 'symlink-dir', path: 'link-dir', link: 'link-dir' },
  { name: 'through-symlink-dir', path: 'link-dir/secret.txt' },
  { name: 'through-relative-link', path: 'rel-link/secret.txt' },
  { name: 'through-link-chain', path: 'chain-a/secret.txt' },
  { name: 'dangling-link', path: 'dangling', link: 'dangling' },
  { name: 'new-file-through-link', path: 'link-dir/new-file.txt' },
  { name: 'new-dirs-through-link', path: 'link-dir/new-dir/deeper/new-file.txt' },
  { name: 'dotdot-after-link', path: 'link-sub/../secret.txt' },
  { name: 'missing-dotdot-link', path: 'missing/../link-dir/secret.txt' },
  { name: 'missing-dotdot-link-new-file', path: 'missing/../link-dir/new-file.txt' },
  { name: 'missing-dotdot-link-new-dirs', path: 'missing/../link-dir/new-dir/new-file.txt' },
  { name: 'missing-deep-dotdot-link', path: 'missing/deeper/../../link-dir/secret.txt' },
  { name: 'missing-dot-dotdot-link', path: 'missing/./../link-dir/secret.txt' },
  { name: 'missing-dotdot-link-dotdot', path: 'missing/../link-sub/../secret.txt' },
  { name: 'missing-dotdot-relative-link', path: 'missing/../rel-link/secret.txt' },
  { name: 'missing-dotdot-dangling', path: 'missing/../dangling', link: 'dangling' },
  { name: 'missing-dotdot-out-of-workspace', path: 'missing/../../{ws}/link-dir/secret.txt' },
  { name: 'real-dir-dotdot-link', path: 'dir/../link-dir/secret.txt' },
  { name: 'nested-dotdot-link', path: 'dir/nested/../../link-sub/secret.txt' },
  { name: 'dot-segments', path: './link-dir/./secret.txt' },
  { name: 'double-slash', path: 'link-dir//secret.txt' },
  { name: 'absolute-through-workspace-link', path: '{wsAbs}/link-dir/secret.txt' },
  { name: 'absolute-missing-dotdot-link', path: '{wsAbs}/missing/../link-dir/secret.txt' },
  { name: 'parent-of-workspace', path: '..' },
  { name: 'root', path: '/' },
  { name: 'etc', path: '/etc/hostname' },
];
