// scripts/bundle/esbuild-options.mjs: in the product bundle, `import … from 'node:x'` loads the built-in
// on the first use of one of its exports, and every importing module reads the built-in's one
// object of getters through its prototype, with no copy of its exports of its own.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../scripts/bundle/esbuild-options.mjs';

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
  'c.ts': `import * as fs from 'node:fs';\nexport const c = () => [typeof fs.lstatSync, typeof fs.default.readdirSync, fs.constants.F_OK, Object.getOwnPropertyNames(fs), typeof fs.default.hasOwnProperty];`,
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
      // The namespace owns `default` alone: the exports are read through its prototype. The
      // default import has Object.prototype's methods, as node:fs's own object has.
      c: ['function', 'function', 0, ['default'], 'function'],
      d: [path.sep, true],
      zlibLoaded: false,
      f: ['function', 'function', 'function', true],
    });
  });

  it('leave no import() of a built-in in the file', () => {
    expect(text).not.toMatch(/\bimport\(\s*["']node:/);
  });

  it('define each built-in’s getters once, and copy none of them into an importer', () => {
    // esbuild's __toESM gives each importing module an object whose prototype is the module's
    // own and copies its own properties: the lazy object owns none, so nothing is copied.
    // Before, each built-in's exports were defined three times (the lazy object, the __toESM
    // copy of it, a facade's `export *` copy), ~500 KB of allocation in `tools list`.
    // One object of getters per built-in the bundle imports: fs, path, zlib, and os (by import()).
    // (esbuild renames the variable, getters2, in this test's bundle.) The object starts with
    // no prototype, so that V8 keeps its properties in a dictionary as they are defined.
    expect(text.match(/Object\.defineProperty\(getters\d*, k,/g)?.length).toBe(4);
    expect(text.match(/getters\d* = (\/\* @__PURE__ \*\/ )?Object\.create\(null\)/g)?.length).toBe(4);
    expect(text).not.toContain('__reExport');
    expect(text).toMatch(/module\.exports = Object\.create\(getters\d*\)/);
  });

  it('define their getters without a name-keeping call each (the entry’s build keeps names)', async () => {
    // An arrow function as a getter is one of keepNames' `__name(fn, "get")` calls per export
    // (Object.defineProperty on a fresh closure: ~6 ms of a replayed run, all built-ins together);
    // a method has its name already.
    const product = path.join(dir, 'product.mjs');
    await build({ ...(await esbuildOptions(path.join(dir, 'entry.ts'), product)), minify: false });
    const built = await readFile(product, 'utf8');
    expect(built).toContain('__name(');
    expect(built).toMatch(/Object\.defineProperty\(getters\d*, k, \{/);
    expect(built).not.toMatch(/__name\([^;]*?"get"\)/);
    const r = spawnSync(process.execPath, [product], { encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([0, '']);
  });
});
