// src/util/random-id.ts: ids from the kernel's generator, without loading node:crypto.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fillFromKernel, randomBytes, randomUUID } from '../../src/util/random-id.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const source = path.resolve(import.meta.dirname, '../../src/util/random-id.ts');
const dir = mkdtempSync(path.join(tmpdir(), 'random-id-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs `code` as a script file in a child Node (not -e: Node's -e itself loads node:crypto),
 * after `before` and with the module imported as `m`; returns what it printed, parsed.
 */
function probe<T>(code: string, before = ''): T {
  const file = path.join(dir, `probe-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, `${before}\nconst m = await import(${JSON.stringify(source)});\n${code}\n`);
  const r = spawnSync(process.execPath, [file], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as T;
}

describe('random ids', () => {
  it('randomUUID is a version 4 UUID, as node:crypto formats one, and never repeats', () => {
    const ids = Array.from({ length: 2000 }, () => randomUUID());
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('randomBytes gives the length asked, across refills of the pool, each byte once', () => {
    const chunks = Array.from({ length: 300 }, (_, i) => randomBytes((i % 17) + 1));
    chunks.forEach((c, i) => expect(c.length).toBe((i % 17) + 1));
    // 64-bit values drawn twice would show a pool handed out twice.
    const words = Array.from({ length: 500 }, () => randomBytes(8).toString('hex'));
    expect(new Set(words).size).toBe(words.length);
    // Every byte value shows up in 64 KiB of output (a stuck or zeroed pool would not).
    const seen = new Set<number>();
    for (let i = 0; i < 256; i++) for (const b of randomBytes(256)) seen.add(b);
    expect(seen.size).toBe(256);
  });

  it.each([513, -1, 1.5, Number.NaN, Infinity])('refuses %s bytes (more than the pool holds, or not a count)', (n) => {
    expect(() => randomBytes(n)).toThrow(RangeError);
  });

  it('where /dev/urandom cannot be read, node:crypto fills the pool', () => {
    // node:fs refuses the device in the child: the ids still come, from node:crypto.
    const out = probe<{ ids: string[]; crypto: boolean }>(
      `const ids = [m.randomUUID(), m.randomUUID()];
process.stdout.write(JSON.stringify({ ids, crypto: process.moduleLoadList.includes('NativeModule crypto') }));`,
      `import { syncBuiltinESMExports } from 'node:module';
import nodeFs from 'node:fs';
const open = nodeFs.openSync;
nodeFs.openSync = (p, ...rest) => { if (p === '/dev/urandom') throw Object.assign(new Error('denied'), { code: 'EACCES' }); return open(p, ...rest); };
syncBuiltinESMExports();`,
    );
    expect(out.crypto).toBe(true);
    for (const id of out.ids) expect(id).toMatch(UUID_V4);
    expect(out.ids[0]).not.toBe(out.ids[1]);
  });

  it('fillFromKernel: false for a device that cannot be read, without throwing', () => {
    const buf = Buffer.alloc(16);
    expect(fillFromKernel(buf, '/nonexistent/urandom')).toBe(false);
    expect(fillFromKernel(buf, '/dev/null')).toBe(false); // end of file before the buffer is full
    expect(fillFromKernel(buf)).toBe(true);
  });

  it('loads node:crypto neither to import nor to make ids', () => {
    expect(
      probe(`m.randomUUID(); m.randomBytes(8);\nprocess.stdout.write(String(process.moduleLoadList.includes('NativeModule crypto')));`),
    ).toBe(false);
  });
});
