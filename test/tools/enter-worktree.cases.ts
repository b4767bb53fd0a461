/**
 * enter_worktree against a repository the test makes: `main` (the default
 * branch) at commit `main`, a tag `v1` on the first commit, and the checkout on
 * branch `feature`, one commit ahead (`feature`). Each base names the commit
 * the new branch must start at; each refusal, the sentence it must give.
 */
export type RepoCommit = 'first' | 'main' | 'feature';

export const BASE_CASES: ReadonlyArray<{ what: string; base: string | undefined; commit: RepoCommit }> = [
  { what: 'no base: the configured default, fresh', base: undefined, commit: 'main' },
  { what: 'fresh: the default branch, not the checkout', base: 'fresh', commit: 'main' },
  { what: 'head: the current revision', base: 'head', commit: 'feature' },
  { what: 'a branch name', base: 'main', commit: 'main' },
  { what: 'a tag', base: 'v1', commit: 'first' },
  { what: 'a commit id', base: '<first>', commit: 'first' },
  { what: 'a revision expression', base: 'feature~1', commit: 'main' },
];

export const REFUSAL_CASES: ReadonlyArray<{ what: string; args: Record<string, unknown>; error: RegExp }> = [
  { what: 'name and path together', args: { name: 'a', path: 'b' }, error: /give name or path, not both/ },
  { what: 'a name with a slash', args: { name: 'a/b' }, error: /name must be letters, digits/ },
  { what: 'a name with ..', args: { name: 'a..b' }, error: /name must be letters, digits/ },
  { what: 'a name starting with -', args: { name: '-rf' }, error: /name must be letters, digits/ },
  { what: 'a name ending in .lock', args: { name: 'x.lock' }, error: /name must be letters, digits/ },
  { what: 'a base that is no revision', args: { name: 'a', base: 'no-such-branch' }, error: /base "no-such-branch" is not a revision/ },
  { what: 'a base that reads as an option', args: { name: 'a', base: '--orphan' }, error: /base cannot start with "-"/ },
  { what: 'an existing path', args: { path: 'src' }, error: /src already exists: enter_worktree never reuses or overwrites/ },
  { what: 'an existing named worktree', args: { name: 'taken' }, error: /\.agents\/worktrees\/taken already exists/ },
  { what: 'a branch that exists', args: { name: 'main' }, error: /git worktree add failed: fatal: a branch named 'main' already exists/ },
  { what: 'a path outside path_scope', args: { path: '/tmp/core-agent-nowhere/wt' }, error: /outside path_scope/ },
];
