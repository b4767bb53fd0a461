// joinUnder and resolveDir skip Node's normalization for paths already in normal form; what
// they return must be exactly what path.join and path.resolve return, for every input.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isNormalAbsolute, joinUnder, resolveDir } from '../../src/startup/join-path.ts';

const DIRS = [
  // normal, absolute: concatenated
  '/',
  '/work',
  '/work/main',
  '/home/u/.config',
  '/home/u/.cache/core-agent',
  '/a.b/c..d/...',
  '/with space/and-dash_x',
  // not normal: path.join / path.resolve
  '/work/',
  '//work',
  '/work//main',
  '/work/./main',
  '/work/../main',
  '/work/.',
  '/work/..',
  '/..',
  '/.',
  '/./',
  // relative, empty
  '',
  '.',
  '..',
  'work',
  'work/main',
  './work',
  '../work',
  'C:\\Users\\u',
];

const RELS = [
  '.agents/config.yaml',
  '.agents/mcp.json',
  '.kube/config',
  'core-agent/compile-cache',
  'cli-0123abcd-89abcdef-tools-list',
  'x',
  '...',
  // not plain: path.join
  '',
  '.',
  '..',
  './x',
  '../x',
  'a/./b',
  'a/../b',
  'a//b',
  'a/',
  '/abs',
  'a/.',
  'a/..',
];

describe('joinUnder', () => {
  it.each(DIRS)('joinUnder(%j, rel) is path.join for every rel', (dir) => {
    expect(RELS.map((rel) => [rel, joinUnder(dir, rel)])).toEqual(RELS.map((rel) => [rel, path.join(dir, rel)]));
  });
});

describe('resolveDir', () => {
  it.each(DIRS)('resolveDir(%j) is path.resolve', (dir) => {
    expect(resolveDir(dir)).toBe(path.resolve(dir));
  });
});

describe('isNormalAbsolute', () => {
  it.each(DIRS)('%j: what path.resolve leaves unchanged', (dir) => {
    // Normal and absolute is exactly what resolving gives back unchanged.
    expect(isNormalAbsolute(dir)).toBe(path.resolve(dir) === dir);
  });
  it('is what process.cwd() gives', () => {
    expect(isNormalAbsolute(process.cwd())).toBe(true);
  });
});
