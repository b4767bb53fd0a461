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
function newSpaceMib(argv: string[]): number {
  const report = path.join(dir, 'report');
  const r = spawnSync(process.execPath, ['--require', path.join(dir, 'preload.cjs'), bundle, ...argv], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: dir, REPORT: report },
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
    expect(holdsYoungGeneration(argv)).toBe(held);
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
