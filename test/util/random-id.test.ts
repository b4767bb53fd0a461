// src/util/random-id.ts: ids from the kernel's generator, without loading node:crypto.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fillFromKernel, randomBytes, randomUUID } from '../../src/util/random-id.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

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
    // A child whose node:fs refuses the device: the ids still come, from node:crypto.
    const source = path.resolve(import.meta.dirname, '../../src/util/random-id.ts');
    const dir = mkdtempSync(path.join(tmpdir(), 'random-id-'));
    try {
      const probe = path.join(dir, 'probe.mjs');
      writeFileSync(
        probe,
        `import fs, { syncBuiltinESMExports } from 'node:module';
import nodeFs from 'node:fs';
const open = nodeFs.openSync;
nodeFs.openSync = (p, ...rest) => { if (p === '/dev/urandom') throw Object.assign(new Error('denied'), { code: 'EACCES' }); return open(p, ...rest); };
syncBuiltinESMExports();
const m = await import(${JSON.stringify(source)});
const ids = [m.randomUUID(), m.randomUUID()];
process.stdout.write(JSON.stringify({ ids, crypto: process.moduleLoadList.includes('NativeModule crypto') }));
`,
      );
      const r = spawnSync(process.execPath, [probe], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      const out = JSON.parse(r.stdout) as { ids: string[]; crypto: boolean };
      expect(out.crypto).toBe(true);
      for (const id of out.ids) expect(id).toMatch(UUID_V4);
      expect(out.ids[0]).not.toBe(out.ids[1]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fillFromKernel: false for a device that cannot be read, without throwing', () => {
    const buf = Buffer.alloc(16);
    expect(fillFromKernel(buf, '/nonexistent/urandom')).toBe(false);
    expect(fillFromKernel(buf, '/dev/null')).toBe(false); // end of file before the buffer is full
    expect(fillFromKernel(buf)).toBe(true);
  });

  it('loads node:crypto neither to import nor to make ids', () => {
    // A script file, not -e: Node's -e itself loads node:crypto.
    const source = path.resolve(import.meta.dirname, '../../src/util/random-id.ts');
    const dir = mkdtempSync(path.join(tmpdir(), 'random-id-'));
    try {
      const probe = path.join(dir, 'probe.mjs');
      writeFileSync(
        probe,
        `const m = await import(${JSON.stringify(source)}); m.randomUUID(); m.randomBytes(8);\n` +
          `process.stdout.write(String(process.moduleLoadList.includes('NativeModule crypto')));\n`,
      );
      const r = spawnSync(process.execPath, [probe], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('false');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
