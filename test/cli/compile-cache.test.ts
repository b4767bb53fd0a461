import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CACHE_ENTRIES_KEPT, CACHE_PRUNE_EVERY_MS, compileCacheDir, pruneCompileCache } from '../../src/cli/compile-cache.ts';

// Where the CLI's V8 code cache goes (the whole-process cases are in startup.cases.ts).
describe('compileCacheDir', () => {
  const own = (dir: string) => ({ dir, owned: true });
  it.each([
    [{ HOME: '/home/u' }, own('/home/u/.cache/core-agent/compile-cache')],
    [{ HOME: '/home/u', XDG_CACHE_HOME: '/x' }, own('/x/core-agent/compile-cache')],
    // Relative values are ignored (the XDG spec; a relative HOME would write under the cwd).
    [{ HOME: '/home/u', XDG_CACHE_HOME: 'rel' }, own('/home/u/.cache/core-agent/compile-cache')],
    [{ HOME: 'rel' }, undefined],
    [{ HOME: '' }, undefined],
    [{}, undefined],
    [{ HOME: 'rel', XDG_CACHE_HOME: '/x' }, own('/x/core-agent/compile-cache')],
    // Node's own variables win: nothing to do here.
    [{ HOME: '/home/u', NODE_COMPILE_CACHE: '/ncc' }, undefined],
    [{ HOME: '/home/u', NODE_DISABLE_COMPILE_CACHE: '1' }, undefined],
    // CORE_AGENT_COMPILE_CACHE: that directory as it is, never pruned (the image's is read-only).
    [
      { HOME: '/home/u', CORE_AGENT_COMPILE_CACHE: '/app/compile-cache' },
      { dir: '/app/compile-cache', owned: false },
    ],
    [
      { CORE_AGENT_COMPILE_CACHE: '/app/compile-cache', XDG_CACHE_HOME: '/x' },
      { dir: '/app/compile-cache', owned: false },
    ],
    // Relative or too long: no cache at all (the CLI reports the variable as an error, exit 2).
    [{ HOME: '/home/u', CORE_AGENT_COMPILE_CACHE: 'cache' }, undefined],
    [{ HOME: '/home/u', CORE_AGENT_COMPILE_CACHE: `/${'x'.repeat(4096)}` }, undefined],
    // Empty is unset.
    [{ HOME: '/home/u', CORE_AGENT_COMPILE_CACHE: '' }, own('/home/u/.cache/core-agent/compile-cache')],
    // Node's variables still win over it.
    [{ CORE_AGENT_COMPILE_CACHE: '/app/compile-cache', NODE_COMPILE_CACHE: '/ncc' }, undefined],
    [{ CORE_AGENT_COMPILE_CACHE: '/app/compile-cache', NODE_DISABLE_COMPILE_CACHE: '1' }, undefined],
  ])('%j → %j', (env, where) => {
    expect(compileCacheDir(env)).toEqual(where);
  });
});

describe('pruneCompileCache', () => {
  const DAY = 24 * 3600_000;
  const now = Date.parse('2026-12-02T00:00:00Z');
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(path.join(tmpdir(), 'compile-cache-prune-'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  /** A directory of Node's with `n` entries, the i-th written i hours before `newest`. */
  function nodeDir(name: string, n: number, newest: number): string {
    const dir = path.join(base, name);
    mkdirSync(dir);
    for (let i = 0; i < n; i++) {
      const file = path.join(dir, `e${String(i).padStart(2, '0')}`);
      writeFileSync(file, 'x');
      utimesSync(file, (newest - i * 3600_000) / 1000, (newest - i * 3600_000) / 1000);
    }
    utimesSync(dir, newest / 1000, newest / 1000);
    return dir;
  }
  const names = (dir: string) => readdirSync(dir).sort();

  it(`keeps the ${CACHE_ENTRIES_KEPT} newest entries of each directory, removes one unused for 30 days`, () => {
    const current = nodeDir('v24-a', 20, now - DAY);
    const few = nodeDir('v24-b', 3, now - 2 * DAY);
    nodeDir('v22-old', 2, now - 31 * DAY);
    nodeDir('v20-empty', 0, now - 31 * DAY);
    const emptyNew = nodeDir('v24-empty', 0, now - DAY);
    writeFileSync(path.join(base, 'stray'), 'not a directory of Node’s');
    const removed = pruneCompileCache(base, now);
    expect(names(current)).toEqual(Array.from({ length: CACHE_ENTRIES_KEPT }, (_, i) => `e${String(i).padStart(2, '0')}`));
    expect(names(few)).toHaveLength(3);
    expect(names(emptyNew)).toEqual([]);
    expect(names(base)).toEqual(['.pruned', 'stray', 'v24-a', 'v24-b', 'v24-empty']);
    expect(removed.map((p) => path.relative(base, p)).sort()).toEqual([
      'v20-empty',
      'v22-old',
      'v24-a/e16',
      'v24-a/e17',
      'v24-a/e18',
      'v24-a/e19',
    ]);
  });

  it('never removes whole the directory this process uses, however old; trims it', () => {
    const inUse = nodeDir('v24-in-use', 18, now - 60 * DAY);
    nodeDir('v24-other', 1, now - 60 * DAY);
    const removed = pruneCompileCache(base, now, inUse);
    expect(names(inUse)).toHaveLength(CACHE_ENTRIES_KEPT);
    expect(removed.map((p) => path.relative(base, p)).sort()).toEqual(['v24-in-use/e16', 'v24-in-use/e17', 'v24-other']);
  });

  it('runs at most once a day: the stamp file says when it last did', () => {
    const dir = nodeDir('v24-a', 20, now - DAY);
    expect(pruneCompileCache(base, now)).toHaveLength(4);
    nodeDir('v24-b', 20, now);
    expect(pruneCompileCache(base, now + CACHE_PRUNE_EVERY_MS - 1)).toEqual([]);
    expect(names(path.join(base, 'v24-b'))).toHaveLength(20);
    expect(pruneCompileCache(base, now + CACHE_PRUNE_EVERY_MS + 1)).toHaveLength(4);
    expect(names(dir)).toHaveLength(CACHE_ENTRIES_KEPT);
  });

  it('a stamp from the future (a clock set back) does not stop it', () => {
    nodeDir('v24-a', 18, now - DAY);
    writeFileSync(path.join(base, '.pruned'), '');
    utimesSync(path.join(base, '.pruned'), (now + 10 * DAY) / 1000, (now + 10 * DAY) / 1000);
    expect(pruneCompileCache(base, now)).toHaveLength(2);
  });

  it.each([
    ['a directory that does not exist', () => path.join(base, 'missing')],
    ['a file', () => (writeFileSync(path.join(base, 'file'), ''), path.join(base, 'file'))],
  ])('%s: nothing removed, nothing thrown', (_what, dir) => {
    expect(pruneCompileCache(dir(), now)).toEqual([]);
  });

  it('the CLI prunes its own cache directory when it starts', () => {
    const cache = path.join(base, 'xdg', 'core-agent', 'compile-cache');
    mkdirSync(cache, { recursive: true });
    const fake = path.join(cache, 'v0-fake');
    mkdirSync(fake);
    for (let i = 0; i < 20; i++) writeFileSync(path.join(fake, `e${i}`), 'x');
    const bundle = path.resolve(import.meta.dirname, '../../dist/core-agent.mjs');
    const r = spawnSync(process.execPath, [bundle, 'tools', 'list'], {
      cwd: base,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: base, XDG_CACHE_HOME: path.join(base, 'xdg') },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(readdirSync(fake)).toHaveLength(CACHE_ENTRIES_KEPT);
    expect(readdirSync(cache)).toContain('.pruned');
    // Node's own directory for this run was kept, with the entry it wrote at exit.
    const own = readdirSync(cache).filter((n) => n.startsWith(`v${process.versions.node}-`));
    expect(own).toHaveLength(1);
    expect(readdirSync(path.join(cache, own[0]!)).length).toBeGreaterThan(0);
  });
});
