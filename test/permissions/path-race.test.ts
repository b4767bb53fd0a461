import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { setup, tempDir } from '../helpers/workspace.ts';
import { snapshot } from '../helpers/tree-snapshot.ts';

/**
 * A directory on the way to the file is swapped for a symlink to outside the
 * workspace, over and over, by another process, while write_file, edit_file and
 * delete_file run against it. Whatever the interleaving, not one byte may land
 * outside and no temporary file may be left anywhere. Each swap loop runs for a
 * few seconds (RACE_MS).
 */
const RACE_MS = 2500;

/**
 * Shell loops that swap what a path on the way to the files leads to; {ws} and
 * {out} are substituted. The tools work on the physical path the gate resolved,
 * so the dangerous swaps are of real directories (d, a) for symlinks to OUT.
 */
const SWAPS: Record<string, string> = {
  // l is a symlink flipped between the real directory and OUT (unlink, then symlink): the gate's own resolution races.
  'a symlink flipped (ln -sfn)': 'cd {ws}; while :; do ln -sfn d l; ln -sfn {out} l; done',
  // d, a real directory, is moved aside and a symlink to OUT put in its place, then moved back.
  'a directory replaced by a symlink': 'cd {ws}; while :; do mv -T d d.was && ln -s {out} d && rm d && mv -T d.was d; done',
  // The same, the symlink renamed into place atomically.
  'a directory replaced by a renamed-in symlink':
    'cd {ws}; while :; do mv -T d d.was && ln -sfn {out} t && mv -T t d && rm d && mv -T d.was d; done',
  // A parent of the file's directory: a/ is swapped, the files are under a/sub/.
  'a parent directory replaced by a symlink': 'cd {ws}; while :; do mv -T a a.was && ln -s {out}/a a && rm a && mv -T a.was a; done',
};

let swapper: ChildProcess | undefined;
afterEach(() => {
  swapper?.kill('SIGKILL');
  swapper = undefined;
});

const DELETABLE = 300;

/** The same layout inside (WS/d, WS/a/sub) and outside (OUT, OUT/a/sub), so a write that escapes would land. */
async function raceFixture() {
  const outside = await tempDir('core-agent-outside-');
  const ws = await tempDir();
  for (const dir of [outside, path.join(outside, 'a', 'sub'), path.join(ws, 'd'), path.join(ws, 'a', 'sub')]) {
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'target.txt'), dir.startsWith(outside) ? 'OUTSIDE\n' : 'inside\n');
    await writeFile(path.join(dir, 'e.txt'), 'secret\n');
    for (let i = 0; i < DELETABLE; i++) await writeFile(path.join(dir, `x-${i}.txt`), 'x\n');
  }
  await symlink('d', path.join(ws, 'l'));
  const rt = await setup({ flags: { mode: 'yolo' }, workspace: ws });
  return { rt, ws, outside };
}

describe('a directory swapped for a symlink while files are written', () => {
  it.each(Object.keys(SWAPS))('%s: zero bytes outside, zero temporary files left', async (name) => {
    const { rt, ws, outside } = await raceFixture();
    const before = await snapshot(outside);
    const dir = name.startsWith('a parent') ? 'a/sub' : name.startsWith('a symlink') ? 'l' : 'd';
    swapper = spawn('/bin/sh', ['-c', SWAPS[name]!.replaceAll('{ws}', ws).replaceAll('{out}', outside)], { stdio: 'ignore' });

    const outcomes = { ok: 0, refused: 0 };
    const deadline = Date.now() + RACE_MS;
    for (let i = 0; Date.now() < deadline; i++) {
      const [from, to] = i % 2 === 0 ? ['secret', 'SECRET'] : ['SECRET', 'secret'];
      const calls = [
        ['write_file', { path: `${dir}/target.txt`, content: `pwned ${i}\n` }],
        ['write_file', { path: `${dir}/new-${i % 5}.txt`, content: 'pwned\n' }],
        ['write_file', { path: `${dir}/newdir-${i % 3}/deeper/f.txt`, content: 'pwned\n' }],
        ['edit_file', { path: `${dir}/e.txt`, old_string: from, new_string: to }],
        ['delete_file', { path: `${dir}/x-${i % DELETABLE}.txt` }],
      ] as const;
      // Three of each at once: more calls in flight, more interleavings per swap.
      const results = await Promise.all([...calls, ...calls, ...calls].map(([tool, args]) => rt.dispatcher.call(tool, args)));
      for (const r of results) outcomes[r.ok ? 'ok' : 'refused'] += 1;
    }
    swapper.kill('SIGKILL');
    swapper = undefined;

    // The race ran both ways: some calls got through (the checked directory) and some were refused.
    expect(outcomes.ok, JSON.stringify(outcomes)).toBeGreaterThan(0);
    expect(outcomes.refused, JSON.stringify(outcomes)).toBeGreaterThan(0);
    expect(await snapshot(outside)).toEqual(before);
    const leftovers = Object.keys(await snapshot(ws)).filter((p) => p.endsWith('.core-agent.tmp'));
    expect(leftovers).toEqual([]);
  });

  it.each([
    ['write_file', { path: 'd/target.txt', content: 'pwned\n' }],
    ['write_file', { path: 'd/new/dirs/f.txt', content: 'pwned\n' }],
    ['edit_file', { path: 'd/e.txt', old_string: 'secret', new_string: 'pwned' }],
    ['delete_file', { path: 'd/target.txt' }],
  ] as const)('swapped after the gate, %s is refused and changes nothing (%j)', async (tool, args) => {
    const outside = await tempDir('core-agent-outside-');
    await writeFile(path.join(outside, 'target.txt'), 'OUTSIDE\n');
    await writeFile(path.join(outside, 'e.txt'), 'secret\n');
    const before = await snapshot(outside);
    const rt = await setup({
      flags: { mode: 'yolo' },
      tree: { 'd/e.txt': 'secret\n', 'd/target.txt': 'inside\n' },
      async afterGate() {
        // The gate saw d/ as a real directory; now it leads outside.
        await rename(path.join(rt.dir, 'd'), path.join(rt.dir, 'd-was'));
        await symlink(outside, path.join(rt.dir, 'd'));
      },
    });
    expect(await rt.refused(tool, args)).toMatch(/after the permission check/);
    expect(await snapshot(outside)).toEqual(before);
    await rm(path.join(rt.dir, 'd'));
    expect(Object.keys(await snapshot(rt.dir)).filter((p) => p.endsWith('.core-agent.tmp'))).toEqual([]);
  });
});
