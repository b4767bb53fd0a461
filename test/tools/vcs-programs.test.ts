import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findOnPath } from '../../src/util/find-on-path.ts';
import { initRepo } from '../helpers/git-repo.ts';
import { setup, tempDir } from '../helpers/workspace.ts';
import { PLANT_CASES, type PlantCase } from './vcs-programs.cases.ts';

/** A committed repository with the case planted; its markers directory (outside it), empty. */
async function planted(c: PlantCase) {
  const m = await tempDir('core-agent-markers-');
  const dir = await tempDir();
  execFileSync('sh', ['-c', 'printf "stored\\n" > a.txt'], { cwd: dir });
  initRepo(dir);
  c.plant?.(dir, m);
  const touched = () => readdirSync(m).filter((f) => f !== 'bin' && f !== 'hooks' && !f.endsWith('.gitconfig'));
  return { dir, m, touched };
}

describe('git run by enter_worktree starts none of the repository’s programs', () => {
  it.each(PLANT_CASES)('$what', async (c) => {
    // The plant is live: plain git, with the same environment, runs it.
    // (A process filter that is no filter fails the checkout; it ran all the same.)
    const control = await planted(c);
    try {
      execFileSync('git', ['worktree', 'add', '-q', '-b', 'ctl', path.join(control.dir, 'ctl'), 'HEAD'], {
        cwd: control.dir,
        env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', ...c.env?.(control.m) },
        stdio: 'ignore',
      });
    } catch {
      // what matters is the marker
    }
    expect(control.touched()).toContain(c.marker);

    const { dir, m, touched } = await planted(c);
    const rt = await setup({
      workspace: dir,
      flags: { mode: 'yolo' },
      commandEnv: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', ...c.env?.(m) },
    });
    const r = await rt.ok('enter_worktree', { name: 'wt', base: 'head' });
    expect(r.vcs).toBe('git');
    expect(touched()).toEqual([]);
    // The checkout is the stored content, unfiltered.
    expect(readFileSync(path.join(dir, '.agents/worktrees/wt/a.txt'), 'utf8')).toBe('stored\n');
  });

  it('a filter driver whose name git -c cannot carry is refused, and nothing is checked out', async () => {
    const { dir, touched } = await planted(PLANT_CASES.find((c) => c.what.startsWith('a smudge filter, required'))!);
    execFileSync('git', ['config', 'filter.a=b.smudge', 'touch x'], { cwd: dir });
    const rt = await setup({ workspace: dir, flags: { mode: 'yolo' } });
    expect(await rt.refused('enter_worktree', { name: 'wt', base: 'head' })).toMatch(
      /the repository's config defines a filter driver named "a=b", which cannot be switched off safely/,
    );
    expect(existsSync(path.join(dir, '.agents/worktrees/wt'))).toBe(false);
    expect(touched()).toEqual([]);
  });

  // No jj binary can be had on the machine this was written on (no registry here carries
  // Jujutsu); the stand-in test in enter-worktree.test.ts pins the flags. This runs where jj is.
  it.skipIf(findOnPath('jj', process.env) === undefined)('jj: a signing program in the repository config is not run', async () => {
    const m = await tempDir('core-agent-markers-');
    const rt = await setup({ tree: { 'a.txt': 'a\n' }, flags: { mode: 'yolo' } });
    initRepo(rt.dir);
    execFileSync('jj', ['git', 'init', '--colocate'], { cwd: rt.dir });
    execFileSync('sh', ['-c', `printf '#!/bin/sh\\ntouch ${m}/signed\\nexit 1\\n' > ${m}/gpg && chmod +x ${m}/gpg`]);
    execFileSync('jj', ['config', 'set', '--repo', 'signing.behavior', 'force'], { cwd: rt.dir });
    execFileSync('jj', ['config', 'set', '--repo', 'signing.backend', 'gpg'], { cwd: rt.dir });
    execFileSync('jj', ['config', 'set', '--repo', 'signing.backends.gpg.program', `${m}/gpg`], { cwd: rt.dir });
    await rt.ok('enter_worktree', { name: 'jw', base: 'head' });
    expect(readdirSync(m).filter((f) => f !== 'gpg')).toEqual([]);
  });
});
