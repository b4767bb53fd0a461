/**
 * Paths an edit tool may name, in accept-edits: those under a `.git` or `.jj`
 * directory in any spelling (`vcs: true`) always ask, and near misses
 * (`vcs: false`) stay inside accept-edits' grant. `path` is an existing file of
 * VCS_TREE holding "old\n"; `fresh` does not exist yet and is classed the same
 * (for Add File and a move's destination). `{ws}` is the workspace.
 */
export const VCS_PATHS: ReadonlyArray<{ path: string; fresh: string; vcs: boolean; why: string }> = [
  { path: '.git/config', fresh: '.git/hooks/post-checkout', vcs: true, why: 'the repository config, a new hook' },
  { path: './.git/config', fresh: './.git/hooks/post-merge', vcs: true, why: 'a leading ./' },
  { path: 'sub/../.git/config', fresh: 'sub/../.git/hooks/pre-commit', vcs: true, why: '.. after a directory' },
  { path: '.git/hooks/../config', fresh: '.git/hooks/../info/exclude', vcs: true, why: '.. inside .git' },
  { path: '.git//config', fresh: '.git//hooks//post-rewrite', vcs: true, why: 'double slashes' },
  { path: '.git/./config', fresh: '.git/./hooks/./reference-transaction', vcs: true, why: 'dot segments' },
  { path: '{ws}/.git/config', fresh: '{ws}/.git/hooks/post-commit', vcs: true, why: 'absolute' },
  { path: 'link-to-git/config', fresh: 'link-to-git/hooks/pre-push', vcs: true, why: 'a symlink to .git' },
  { path: '.git/hooks/pre-commit.sample', fresh: '.git/hooks/pre-auto-gc', vcs: true, why: 'a sample hook' },
  { path: '.git/info/attributes', fresh: '.git/info/sparse-checkout', vcs: true, why: 'attributes that outrank .gitattributes' },
  { path: 'sub/.git/config', fresh: 'sub/.git/hooks/post-checkout', vcs: true, why: 'a nested repository' },
  { path: 'vendor/lib/.git/HEAD', fresh: 'vendor/lib/.git/hooks/post-checkout', vcs: true, why: 'a deeper nested repository' },
  { path: 'wt/.git', fresh: 'wt2/.git', vcs: true, why: "a worktree's .git file (a gitdir: pointer)" },
  { path: '.jj/repo/config.toml', fresh: '.jj/repo/new.toml', vcs: true, why: "jj's repository config" },
  { path: '.GIT/config', fresh: '.GIT/hooks/post-checkout', vcs: true, why: 'upper case (case-insensitive filesystems)' },
  { path: '.Jj/repo/config.toml', fresh: '.Jj/repo/new.toml', vcs: true, why: 'mixed case .jj' },
  { path: '.g\u200cit/config', fresh: '.g\u200cit/hooks/post-checkout', vcs: true, why: 'a code point HFS+ ignores' },
  { path: '.gitignore', fresh: 'sub/.gitignore', vcs: false, why: 'an ignore file' },
  {
    path: '.gitattributes',
    fresh: 'sub/.gitattributes',
    vcs: false,
    why: 'attributes in the tree (they name drivers only config defines)',
  },
  { path: '.github/workflows/ci.yml', fresh: '.github/workflows/new.yml', vcs: false, why: '.github' },
  { path: 'git/config', fresh: 'git/hooks/post-checkout', vcs: false, why: 'git without the dot' },
  { path: 'x.git/config', fresh: 'x.git/hooks/post-checkout', vcs: false, why: 'a directory name ending in .git' },
  { path: '.gitmodules', fresh: 'sub/.gitmodules', vcs: false, why: '.gitmodules (git ignores update = !command there)' },
  { path: '.jjconfig', fresh: '.jj-new', vcs: false, why: 'names starting with .jj' },
  { path: '.git-blame-ignore-revs', fresh: '.git-new', vcs: false, why: 'names starting with .git' },
];

/** The workspace: every existing path above, and what the spellings walk through. */
export const VCS_TREE: Record<string, string | { symlink: string }> = {
  '.git/config': 'old\n',
  '.git/hooks/pre-commit.sample': 'old\n',
  '.git/info/attributes': 'old\n',
  'link-to-git': { symlink: '.git' },
  'sub/.git/config': 'old\n',
  'vendor/lib/.git/HEAD': 'old\n',
  'wt/.git': 'old\n',
  '.jj/repo/config.toml': 'old\n',
  '.GIT/config': 'old\n',
  '.Jj/repo/config.toml': 'old\n',
  '.g\u200cit/config': 'old\n',
  '.gitignore': 'old\n',
  '.gitattributes': 'old\n',
  '.github/workflows/ci.yml': 'old\n',
  'git/config': 'old\n',
  'x.git/config': 'old\n',
  '.gitmodules': 'old\n',
  '.jjconfig': 'old\n',
  '.git-blame-ignore-revs': 'old\n',
  'plain.txt': 'old\n',
};

/** One edit per tool and apply_patch operation; each would succeed if the gate let it through. */
export function editCalls(p: string, fresh: string): ReadonlyArray<readonly [label: string, tool: string, args: Record<string, unknown>]> {
  const patch = (body: string) => ({ patch: `*** Begin Patch\n${body}\n*** End Patch` });
  return [
    ['write_file', 'write_file', { path: p, content: 'new\n' }],
    ['write_file (a new file)', 'write_file', { path: fresh, content: 'new\n' }],
    ['edit_file', 'edit_file', { path: p, old_string: 'old', new_string: 'new' }],
    ['delete_file', 'delete_file', { path: p }],
    ['apply_patch add', 'apply_patch', patch(`*** Add File: ${fresh}\n+new`)],
    ['apply_patch update', 'apply_patch', patch(`*** Update File: ${p}\n@@\n-old\n+new`)],
    ['apply_patch delete', 'apply_patch', patch(`*** Delete File: ${p}`)],
    ['apply_patch move out', 'apply_patch', patch(`*** Update File: ${p}\n*** Move to: moved-out.txt\n@@\n-old\n+new`)],
    ['apply_patch move in', 'apply_patch', patch(`*** Update File: plain.txt\n*** Move to: ${fresh}\n@@\n-old\n+new`)],
  ];
}
