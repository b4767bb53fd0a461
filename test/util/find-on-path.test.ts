// findOnPath (src/util/find-on-path.ts): the binary a spawn with that PATH would run, found
// by looking, as the shell finds it. Where it finds one and the PATH has only absolute entries,
// /bin/sh's `command -v` with the same PATH must print the same file. (Where nothing is found
// the shells disagree: bash prints a file that is not executable, dash prints nothing.)
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOnPath } from '../../src/util/find-on-path.ts';

let root: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'find-on-path-')));
  const tool = (dir: string, mode = 0o755) => {
    mkdirSync(`${root}/${dir}`, { recursive: true });
    writeFileSync(`${root}/${dir}/tool`, '#!/bin/sh\n');
    chmodSync(`${root}/${dir}/tool`, mode);
  };
  tool('bin');
  tool('other');
  tool('plain', 0o644); // not executable
  mkdirSync(`${root}/isdir/tool`, { recursive: true }); // a directory of that name
  mkdirSync(`${root}/empty`);
  mkdirSync(`${root}/dangling`);
  symlinkSync(`${root}/nowhere/tool`, `${root}/dangling/tool`);
  mkdirSync(`${root}/linked`);
  symlinkSync(`${root}/bin/tool`, `${root}/linked/tool`);
  writeFileSync(`${root}/afile`, 'not a directory');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

// [what, PATH (ROOT is the test's directory), where the tool is found (undefined: nowhere)]
const CASES: [string, string, string | undefined][] = [
  ['the only entry', 'ROOT/bin', 'ROOT/bin/tool'],
  ['the first entry that has it', 'ROOT/empty:ROOT/other:ROOT/bin', 'ROOT/other/tool'],
  ['an entry with a trailing slash', 'ROOT/bin/', 'ROOT/bin/tool'],
  ['an entry spelled with a dot, kept as spelled', 'ROOT/./bin', 'ROOT/./bin/tool'],
  ['a missing directory, then one that has it', 'ROOT/missing:ROOT/bin', 'ROOT/bin/tool'],
  ['an entry that is a file, then one that has it', 'ROOT/afile:ROOT/bin', 'ROOT/bin/tool'],
  ['a file that is not executable is passed over', 'ROOT/plain:ROOT/other', 'ROOT/other/tool'],
  ['a directory of that name is passed over', 'ROOT/isdir:ROOT/bin', 'ROOT/bin/tool'],
  ['a dangling symbolic link is passed over', 'ROOT/dangling:ROOT/other', 'ROOT/other/tool'],
  ['a symbolic link to the binary is found as the link', 'ROOT/linked:ROOT/bin', 'ROOT/linked/tool'],
  ['an entry named twice', 'ROOT/empty:ROOT/empty:ROOT/bin', 'ROOT/bin/tool'],
  ['nowhere', 'ROOT/empty:ROOT/missing:ROOT/plain:ROOT/isdir:ROOT/dangling', undefined],
];

describe('findOnPath', () => {
  it.each(CASES)('%s', (_what, pathValue, expected) => {
    const PATH = pathValue.replaceAll('ROOT', root);
    const found = findOnPath('tool', { PATH });
    expect(found).toBe(expected?.replaceAll('ROOT', root));
    if (found !== undefined) {
      // The shell, from a directory with no `tool` in it, finds the same file; after an entry's
      // trailing slash dash prints the slash twice.
      const sh = spawnSync('/bin/sh', ['-c', 'command -v tool'], { cwd: `${root}/empty`, env: { PATH }, encoding: 'utf8' });
      expect(sh.stdout.trim().replace('//tool', '/tool')).toBe(found);
    }
  });

  // Not the shell's behaviour: an empty or relative entry is the current directory, or a
  // directory under it, to a shell; a tool's binary is never taken from there. Each runs from a
  // directory where the shell would find one that way.
  it.each([
    ['an empty entry', ':ROOT/other', 'ROOT/bin', 'ROOT/other/tool'],
    ['a relative entry', 'bin:ROOT/other', 'ROOT', 'ROOT/other/tool'],
    ['only an empty and a relative entry', ':bin', 'ROOT', undefined],
  ])('%s is never looked in', (_what, pathValue, cwd, expected) => {
    const before = process.cwd();
    process.chdir(cwd.replaceAll('ROOT', root));
    try {
      const PATH = pathValue.replaceAll('ROOT', root);
      expect(findOnPath('tool', { PATH })).toBe(expected?.replaceAll('ROOT', root));
      const sh = spawnSync('/bin/sh', ['-c', 'command -v tool'], { env: { PATH }, encoding: 'utf8' });
      expect(sh.stdout.trim()).not.toBe(expected?.replaceAll('ROOT', root) ?? '');
    } finally {
      process.chdir(before);
    }
  });

  it('finds nothing without a PATH', () => {
    expect(findOnPath('tool', {})).toBeUndefined();
    expect(findOnPath('tool', { PATH: '' })).toBeUndefined();
  });
});
