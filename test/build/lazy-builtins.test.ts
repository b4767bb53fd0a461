// scripts/esbuild-options.mjs: in the product bundle, `import … from 'node:x'` loads the built-in
// on the first use of one of its exports, and every importing module reads one namespace object
// per built-in (the facade) instead of a copy of its exports of its own.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../scripts/esbuild-options.mjs';

let dir: string;
let text: string;
let out: string;

// Five modules import node:fs and node:path in every form a module can (named, default,
// namespace, two at once), and node:zlib without using it; a sixth import()s node:os and
// node:zlib, which the bundle resolves to the same lazy namespaces (the CLI is a script compiled
// through node:vm, where an import() left in the file would need an experimental option).
const MODULES: Record<string, string> = {
  'a.ts': `import { readFileSync, existsSync } from 'node:fs';\nexport const a = () => [typeof readFileSync, existsSync('/')];`,
  'b.ts': `import fs from 'node:fs';\nimport path from 'node:path';\nexport const b = () => [typeof fs.statSync, path.join('x', 'y')];`,
  'c.ts': `import * as fs from 'node:fs';\nexport const c = () => [typeof fs.lstatSync, typeof fs.default.readdirSync, fs.constants.F_OK];`,
  'd.ts': `import { sep } from 'node:path';\nimport { readFileSync } from 'node:fs';\nimport fs from 'node:fs';\nexport const d = () => [sep, readFileSync === fs.readFileSync];`,
  'e.ts': `import { gzipSync } from 'node:zlib';\nexport const e = () => typeof gzipSync;`,
  'f.ts': `export const f = async () => { const os = await import('node:os'); const z = await import('node:zlib'); return [typeof os.cpus, typeof os.default.cpus, typeof z.gunzipSync, z.default.gunzipSync === z.gunzipSync]; };`,
};
const ENTRY = `import { a } from './a.ts'; import { b } from './b.ts'; import { c } from './c.ts'; import { d } from './d.ts'; import './e.ts'; import { f } from './f.ts';
const before = process.moduleLoadList.filter((m) => m === 'NativeModule zlib').length;
process.stdout.write(JSON.stringify({ a: a(), b: b(), c: c(), d: d(), zlibLoaded: before > 0, f: await f() }));`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lazy-builtins-'));
  for (const [name, source] of Object.entries(MODULES)) await writeFile(path.join(dir, name), source);
  await writeFile(path.join(dir, 'entry.ts'), ENTRY);
  out = path.join(dir, 'out.mjs');
  const options = await esbuildOptions(path.join(dir, 'entry.ts'), out);
  await build({ ...options, minify: false, keepNames: false });
  text = await readFile(out, 'utf8');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('node: built-ins in the product bundle', () => {
  it('give every importer the built-in itself, whatever the form of the import', () => {
    const r = spawnSync(process.execPath, [out], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      a: ['function', true],
      b: ['function', path.join('x', 'y')],
      c: ['function', 'function', 0],
      d: [path.sep, true],
      zlibLoaded: false,
      f: ['function', 'function', 'function', true],
    });
  });

  it('leave no import() of a built-in in the file', () => {
    expect(text).not.toMatch(/\bimport\(\s*["']node:/);
  });

  it('copy each built-in’s exports once, however many modules import it', () => {
    // The copies are esbuild's __toESM over the lazy CommonJS object: one per built-in in the
    // facade, never one per importing module (four modules import node:fs here).
    for (const id of ['node_fs', 'node_path', 'node_zlib']) {
      expect(text.split(`__toESM(require_${id}())`).length - 1, id).toBe(1);
    }
  });

  it('define their getters without a name-keeping call each (the product build keeps names)', async () => {
    // An arrow function as a getter is one of keepNames' `__name(fn, "get")` calls per export
    // (Object.defineProperty on a fresh closure: ~6 ms of a replayed run, all built-ins together);
    // a method has its name already.
    const product = path.join(dir, 'product.mjs');
    await build({ ...(await esbuildOptions(path.join(dir, 'entry.ts'), product)), minify: false });
    const built = await readFile(product, 'utf8');
    expect(built).toContain('__name(');
    expect(built).toContain('Object.defineProperty(lazy, k, {');
    expect(built).not.toMatch(/__name\([^;]*?"get"\)/);
    const r = spawnSync(process.execPath, [product], { encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([0, '']);
  });
});
