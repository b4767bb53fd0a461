import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../scripts/esbuild-options.mjs';
import members from '../fixtures/tool-family/index.ts';

// The fixture family: alpha.ts+alpha.md and beta.ts+beta.md are tools; helper.ts
// (no description) and orphan.md (no code) are not.
const expected = [
  { file: 'alpha.ts', exports: { alpha: { name: 'alpha' }, extra: 1 } },
  { file: 'beta.ts', exports: { beta: { name: 'beta' } } },
];

const plain = (ms: ReadonlyArray<{ file: string; exports: Record<string, unknown> }>) =>
  ms.map((m) => ({ file: m.file, exports: { ...m.exports } }));

describe('virtual:tool-family', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('gives a family index every .ts that has its .md beside it, by file name (vitest)', () => {
    expect(plain(members)).toEqual(expected);
  });

  it('gives the bundle the same members (esbuild)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tool-family-'));
    dirs.push(dir);
    const out = path.join(dir, 'family.mjs');
    const opts = await esbuildOptions(path.resolve('test/fixtures/tool-family/index.ts'), out);
    await build({ ...opts, banner: {}, minify: false });
    const bundled = (await import(pathToFileURL(out).href)) as { default: typeof members };
    expect(plain(bundled.default)).toEqual(expected);
  });
});
