// src/cli/young-generation.ts: watch and serve keep V8's young generation at its initial size;
// every other command lets V8 grow it. Read from the process itself: a preload that, at exit,
// allocates objects that all survive (what grows the new space) and reports its size.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdsYoungGeneration } from '../../src/cli/young-generation.ts';

const bundle = path.resolve(import.meta.dirname, '../../dist/core-agent.mjs');
const PRELOAD = `process.on('exit', () => {
  const keep = [];
  for (let i = 0; i < 400000; i++) keep.push({ i, s: 'x' + i });
  const space = require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  require('node:fs').writeFileSync(process.env.REPORT, String(space.space_size / 1048576));
});`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'core-agent-young-'));
  writeFileSync(path.join(dir, 'preload.cjs'), PRELOAD);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The new space's size in MiB at exit, after the preload's allocations. */
function newSpaceMib(argv: string[], env: Record<string, string> = {}): number {
  const report = path.join(dir, 'report');
  const r = spawnSync(process.execPath, ['--require', path.join(dir, 'preload.cjs'), bundle, ...argv], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: dir, REPORT: report, ...env },
  });
  expect(r.status, r.stderr).toBe(0);
  return Number(readFileSync(report, 'utf8'));
}

describe('the young generation', () => {
  it.each([
    [['watch'], true],
    [['serve', '--listen', '127.0.0.1:0'], true],
    [['run', 'hi'], false],
    [['tools', 'list'], false],
    [['--version'], false],
    [[], false],
    [['--watch'], false],
  ])('%j holds it: %s', (argv, held) => {
    expect(holdsYoungGeneration(argv, {})).toBe(held);
  });

  it('not under NODE_COMPILE_CACHE (the image): a flag changed after start-up would void that cache', () => {
    expect(holdsYoungGeneration(['watch'], { NODE_COMPILE_CACHE: '/app/compile-cache' })).toBe(false);
    expect(newSpaceMib(['watch', '--help'], { NODE_COMPILE_CACHE: path.join(dir, 'ncc') })).toBeGreaterThan(2);
  });

  // V8 checks a cached entry against the flags; the daemons' entries live apart (the entry sets
  // the flag before turning the cache on), so neither side recompiles the CLI after the other.
  it.each([[{}], [{ NODE_COMPILE_CACHE: 'ncc' }]])('the code cache is accepted, daemon or not, in any order (%j)', (extra) => {
    const home = mkdtempSync(path.join(dir, 'home-'));
    const env = Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, path.join(home, v)]));
    const run = (argv: string[]) =>
      spawnSync(process.execPath, [bundle, ...argv], {
        cwd: dir,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: home, NODE_DEBUG_NATIVE: 'COMPILE_CACHE', ...env },
      }).stderr;
    run(['tools', 'list']); // fills the commands' cache
    run(['watch', '--help']); // fills the daemons' (or shares the one NODE_COMPILE_CACHE names)
    const later = [run(['tools', 'list']), run(['watch', '--help']), run(['serve', '--help']), run(['tools', 'list'])];
    for (const stderr of later) {
      expect(stderr).toMatch(/core-agent-cli\.mjs was accepted/);
      expect(stderr).not.toMatch(/rejected/);
    }
  });

  it.each([
    ['watch', '--help'],
    ['serve', '--help'],
  ])('%s %s: stays at 1 MiB per semi-space', (...argv) => {
    expect(newSpaceMib(argv)).toBeLessThanOrEqual(2);
  });

  it.each([
    ['tools', '--help'],
    ['run', '--help'],
  ])('%s %s: V8 grows it (the control)', (...argv) => {
    expect(newSpaceMib(argv)).toBeGreaterThan(2);
  });
});
