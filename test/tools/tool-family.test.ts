import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../scripts/bundle/esbuild-options.mjs';
import type { FamilyMember } from '../../src/tools/framework/family.ts';
import members from '../fixtures/tool-family/index.ts';

// The fixture family: alpha.ts+alpha.md and beta.ts+beta.md are tools; helper.ts
// (no description) and orphan.md (no code) are not.
const expected = [
  { file: 'alpha.ts', exports: { alpha: { name: 'alpha', label: 'from the module' }, extra: 1 } },
  { file: 'beta.ts', exports: { beta: { name: 'beta' } } },
];

const plain = (ms: readonly FamilyMember[]) => ms.map((m) => ({ file: m.file, exports: 'exports' in m ? { ...m.exports } : {} }));

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

describe('virtual:tool-family with heads (the product bundle)', () => {
  it('gives each tool from its head, and evaluates its module on the first read past the head', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tool-family-lazy-'));
    try {
      const out = path.join(dir, 'family.mjs');
      const file = (name: string) => path.resolve('test/fixtures/tool-family', name);
      const heads = {
        [file('alpha.ts')]: { export: 'alpha', head: { fields: { name: 'alpha' }, present: ['label'] } },
        [file('beta.ts')]: { export: 'beta', head: { fields: { name: 'beta' }, present: [] } },
      };
      const opts = await esbuildOptions(path.resolve('test/fixtures/tool-family/index.ts'), out, { toolHeads: heads });
      await build({ ...opts, banner: {}, minify: false });
      const counter = globalThis as { __alphaEvaluated?: number };
      const before = counter.__alphaEvaluated ?? 0;
      const bundled = (await import(pathToFileURL(out).href)) as {
        default: ReadonlyArray<{ file: string; tool: Record<string, unknown> }>;
      };
      expect(bundled.default.map((m) => [m.file, m.tool.name])).toEqual([
        ['alpha.ts', 'alpha'],
        ['beta.ts', 'beta'],
      ]);
      expect(counter.__alphaEvaluated ?? 0).toBe(before);
      expect(bundled.default[0]!.tool.label).toBe('from the module');
      expect(counter.__alphaEvaluated).toBe(before + 1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses to bundle a tool file the heads do not know (the heads came from another tree)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tool-family-lazy-'));
    try {
      const opts = await esbuildOptions(path.resolve('test/fixtures/tool-family/index.ts'), path.join(dir, 'f.mjs'), { toolHeads: {} });
      await expect(build({ ...opts, banner: {}, logLevel: 'silent' })).rejects.toThrow(/alpha\.ts: no tool head computed/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
