import { execFileSync } from 'node:child_process';

/** Run git in `dir` as a test does: a fixed identity, no global or system config. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  }).trim();
}

/** Make `dir` a git repository on branch `main` with its files committed; returns the commit id. */
export function initRepo(dir: string): string {
  git(dir, 'init', '--quiet', '--initial-branch=main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '--quiet', '--allow-empty', '-m', 'first');
  return git(dir, 'rev-parse', 'HEAD');
}
