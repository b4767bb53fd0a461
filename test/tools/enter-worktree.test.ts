import { chmodSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/runtime.ts';
import { findOnPath } from '../../src/util/find-on-path.ts';
import { jjConfigArgs } from '../../src/tools/workspace/vcs-config.ts';
import { git, initRepo } from '../helpers/git-repo.ts';
import { setup, tempDir, writeTree } from '../helpers/workspace.ts';
import { BASE_CASES, REFUSAL_CASES, type RepoCommit } from './enter-worktree.cases.ts';

/** The repository of enter-worktree.cases.ts, and a runtime over it. */
async function repo(mode: 'yolo' | 'ask' = 'yolo', recipe?: string) {
  const rt = await setup({ tree: { 'src/a.txt': 'first\n', '.agents/worktrees/taken/x': 'x' }, flags: { mode }, recipe });
  const commits = {} as Record<RepoCommit, string>;
  commits.first = initRepo(rt.dir);
  git(rt.dir, 'tag', 'v1');
  git(rt.dir, 'commit', '--quiet', '--allow-empty', '-m', 'on main');
  commits.main = git(rt.dir, 'rev-parse', 'HEAD');
  git(rt.dir, 'checkout', '--quiet', '-b', 'feature');
  git(rt.dir, 'commit', '--quiet', '--allow-empty', '-m', 'on feature');
  commits.feature = git(rt.dir, 'rev-parse', 'HEAD');
  return { rt, commits };
}

describe('enter_worktree: a new branch at the base, entered', () => {
  it.each(BASE_CASES)('$what', async (c) => {
    const { rt, commits } = await repo();
    const base = c.base === '<first>' ? commits.first : c.base;
    const r = await rt.ok('enter_worktree', { name: 'wt', ...(base === undefined ? {} : { base }) });
    const wt = path.join(rt.dir, '.agents/worktrees/wt');
    expect(r).toEqual({
      cwd: '.agents/worktrees/wt',
      absolute_path: wt,
      outside_workspace: false,
      vcs: 'git',
      branch: 'wt',
      base: base ?? 'fresh',
      commit: commits[c.commit],
    });
    expect(git(wt, 'rev-parse', 'HEAD')).toBe(commits[c.commit]);
    expect(git(wt, 'branch', '--show-current')).toBe('wt');
    // The main checkout is where it was.
    expect(git(rt.dir, 'branch', '--show-current')).toBe('feature');
  });

  it('enters it: relative paths and bash resolve in the worktree; "." comes back', async () => {
    const { rt } = await repo();
    await rt.ok('enter_worktree', { name: 'wt' });
    expect((await rt.ok('read_file', { path: 'src/a.txt' })).path).toBe('.agents/worktrees/wt/src/a.txt');
    expect((await rt.ok('bash', { command: 'git branch --show-current' })).output).toBe('wt\n');
    await rt.ok('write_file', { path: 'new.txt', content: 'in the worktree\n' });
    expect(existsSync(path.join(rt.dir, '.agents/worktrees/wt/new.txt'))).toBe(true);
    expect((await rt.ok('change_working_directory', { path: '.' })).cwd).toBe('.');
    expect((await rt.ok('bash', { command: 'git branch --show-current' })).output).toBe('feature\n');
  });

  it.each(['ripgrep', 're2'])('%s: the search tools see the worktree even where the workspace ignores .agents/', async (engine) => {
    const { rt } = await repo('yolo', `tools:\n  grep:\n    engine: ${engine}\n  glob:\n    engine: ${engine}\n`);
    await writeTree(rt.dir, { '.gitignore': '.agents/\n' });
    await rt.ok('enter_worktree', { name: 'wt' });
    expect((await rt.ok('grep', { pattern: 'first' })).matches).toEqual([
      { path: '.agents/worktrees/wt/src/a.txt', line: 1, text: 'first' },
    ]);
    expect((await rt.ok('glob', { pattern: '*.txt' })).paths).toEqual(['.agents/worktrees/wt/src/a.txt']);
  });

  it('a generated name when neither name nor path is given', async () => {
    const { rt, commits } = await repo();
    const r = await rt.ok('enter_worktree', {});
    expect(r.branch).toMatch(/^worktree-[0-9a-f]{6}$/);
    expect(r.cwd).toBe(`.agents/worktrees/${String(r.branch)}`);
    expect(r.commit).toBe(commits.main);
  });

  it('a custom path, relative to the current directory, on a branch named after it', async () => {
    const { rt, commits } = await repo();
    await rt.ok('change_working_directory', { path: 'src' });
    const r = await rt.ok('enter_worktree', { path: '../trees/side', base: 'head' });
    expect(r).toMatchObject({ cwd: 'trees/side', branch: 'side', commit: commits.feature });
    expect(git(path.join(rt.dir, 'trees/side'), 'branch', '--show-current')).toBe('side');
  });

  it('the recipe sets the default base', async () => {
    const { rt, commits } = await repo('yolo', 'tools:\n  enter_worktree:\n    default_base: head\n');
    expect((await rt.ok('enter_worktree', { name: 'wt' })).commit).toBe(commits.feature);
  });

  it.each(REFUSAL_CASES)('refuses $what, and stays where it was', async (c) => {
    const { rt } = await repo();
    expect(await rt.refused('enter_worktree', c.args)).toMatch(c.error);
    expect(rt.session.cwd).toBeUndefined();
    expect(git(rt.dir, 'worktree', 'list').split('\n')).toHaveLength(1);
  });

  it('never removes one: a second call with the name is refused and the first worktree is untouched', async () => {
    const { rt } = await repo();
    await rt.ok('enter_worktree', { name: 'wt' });
    await rt.ok('write_file', { path: 'work.txt', content: 'unsaved work\n' });
    expect(await rt.refused('enter_worktree', { name: 'wt' })).toMatch(/already exists/);
    expect(existsSync(path.join(rt.dir, '.agents/worktrees/wt/work.txt'))).toBe(true);
  });

  it('ask mode headless: refused as needing approval, nothing created', async () => {
    const { rt } = await repo('ask');
    expect(await rt.refused('enter_worktree', { name: 'wt' })).toMatch(/needs approval/);
    expect(existsSync(path.join(rt.dir, '.agents/worktrees/wt'))).toBe(false);
  });

  it('outside a git repository: a sentence saying so', async () => {
    const rt = await setup({ flags: { mode: 'yolo' } });
    expect(await rt.refused('enter_worktree', { name: 'wt' })).toMatch(
      /the workspace is not in a git repository \(git rev-parse --show-toplevel failed: fatal: not a git repository/,
    );
  });

  it('without git on the commands PATH it is not registered, and the reason is given', async () => {
    const rt = await createRuntime({ flags: { workspace: await tempDir() }, env: {}, commandEnv: { PATH: '/nonexistent' } });
    expect(rt.catalog.has('enter_worktree')).toBe(false);
    expect(rt.catalog.has('change_working_directory')).toBe(true);
    expect(rt.catalog.skipped.find((s) => s.name === 'enter_worktree')?.reason).toBe(
      'git is not on the PATH commands run with, so enter_worktree is not registered',
    );
    await rt.session.close();
  });

  it('finds git on the PATH by looking, not by running it', () => {
    expect(findOnPath('git', { PATH: `/nonexistent:${path.dirname(findOnPath('git', process.env)!)}` })).toMatch(/\/git$/);
    expect(findOnPath('git', { PATH: 'relative/dir::/nonexistent' })).toBeUndefined();
    expect(findOnPath('git', {})).toBeUndefined();
  });

  // jj is not installed on the machine these tests were written on; this runs where it is.
  it.skipIf(findOnPath('jj', process.env) === undefined)('a Jujutsu repository gets a jj workspace', async () => {
    const rt = await setup({ tree: { 'a.txt': 'a\n' }, flags: { mode: 'yolo' } });
    initRepo(rt.dir);
    const { execFileSync } = await import('node:child_process');
    execFileSync('jj', ['git', 'init', '--colocate'], { cwd: rt.dir });
    const r = await rt.ok('enter_worktree', { name: 'jw', base: 'head' });
    expect(r).toMatchObject({ vcs: 'jj', workspace: 'jw', cwd: '.agents/worktrees/jw' });
    expect(existsSync(path.join(rt.dir, '.agents/worktrees/jw/a.txt'))).toBe(true);
  });
});

/**
 * The jj path where no jj binary can be had (none of this machine's registries
 * carries Jujutsu): a stand-in `jj` first on the commands PATH records its argv
 * and makes the destination, or fails as jj does. It pins what enter_worktree
 * asks of jj — `jj workspace add --name N --revision R DEST`, run in the
 * workspace — and what it makes of the answer; the real-jj test above checks
 * that jj itself agrees.
 */
describe('enter_worktree in a Jujutsu repository (a stand-in jj)', () => {
  async function jjRepo(script: string) {
    const bin = await tempDir('core-agent-fake-jj-');
    const log = path.join(bin, 'argv.json');
    await writeTree(bin, { jj: `#!/bin/sh\n${script.replaceAll('$LOG', log)}\n` });
    chmodSync(path.join(bin, 'jj'), 0o755);
    const dir = await tempDir();
    await writeTree(dir, { 'a.txt': 'a\n', '.jj/repo/store/type': 'git' });
    initRepo(dir);
    const rt = await createRuntime({
      flags: { workspace: dir, mode: 'yolo' },
      env: {},
      commandEnv: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
    });
    return { rt, dir, log };
  }
  async function pwd(rt: Awaited<ReturnType<typeof createRuntime>>): Promise<string> {
    const r = await rt.dispatcher.call('bash', { command: 'pwd' });
    if (!r.ok) throw new Error(r.error);
    return String(r.result.output).trim();
  }
  // Records "$PWD" and every argument, one JSON string per line, then makes the destination.
  const RECORD = `for a in "$PWD" "$@"; do printf '%s\\n' "$a"; done > $LOG\neval "dest=\\\${$#}"\nmkdir -p "$dest"`;

  it.each([
    { base: undefined, revision: 'trunk()' },
    { base: 'fresh', revision: 'trunk()' },
    { base: 'head', revision: '@' },
    { base: 'v1', revision: 'v1' },
  ])('base $base → jj workspace add --revision $revision, and the workspace is entered', async ({ base, revision }) => {
    const { rt, dir, log } = await jjRepo(RECORD);
    try {
      const r = await rt.dispatcher.call('enter_worktree', { name: 'jw', ...(base === undefined ? {} : { base }) });
      if (!r.ok) throw new Error(r.error);
      const dest = path.join(dir, '.agents/worktrees/jw');
      expect(readFileSync(log, 'utf8').split('\n').slice(0, -1)).toEqual([
        dir,
        ...jjConfigArgs(),
        'workspace',
        'add',
        '--name',
        'jw',
        '--revision',
        revision,
        dest,
      ]);
      expect(r.result).toMatchObject({ vcs: 'jj', workspace: 'jw', base: base ?? 'fresh', cwd: '.agents/worktrees/jw' });
      expect(await pwd(rt)).toBe(dest);
    } finally {
      await rt.session.close();
    }
  });

  it("jj's own error line is the refusal, and nothing is entered", async () => {
    const { rt, dir } = await jjRepo(`echo 'Error: Revision "nope" doesn'"'"'t exist' >&2\nexit 1`);
    try {
      const r = await rt.dispatcher.call('enter_worktree', { name: 'jw', base: 'nope' });
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error).toMatch(/jj workspace add failed: Error: Revision "nope" doesn't exist/);
      expect(await pwd(rt)).toBe(dir);
    } finally {
      await rt.session.close();
    }
  });
});
