import { brotliCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadEmbeddedModule, sharedEmbeddedModule } from '../../src/startup/embedded.ts';

/**
 * Embedded chunks as their callers rely on them: loadEmbeddedModule evaluates a fresh
 * instance each call (the bash parser replaces a WebAssembly module that aborted this
 * way), sharedEmbeddedModule one instance for all (the YAML parser, used by the recipe
 * and the kubeconfig loaders), and a chunk that failed to evaluate is tried again.
 */
const chunk = (code: string) => {
  const data = brotliCompressSync(Buffer.from(code)).toString('base64');
  return () => data;
};
const counter = (key: string) =>
  chunk(
    `globalThis[${JSON.stringify(key)}] = (globalThis[${JSON.stringify(key)}] ?? 0) + 1; module.exports = { n: globalThis[${JSON.stringify(key)}] };`,
  );
const runs = (key: string) => (globalThis as Record<string, unknown>)[key];

describe('embedded chunks', () => {
  it('loadEmbeddedModule: a fresh instance on every call', async () => {
    const source = counter('__embeddedFresh');
    const a = await loadEmbeddedModule<{ n: number }>(source, 'fresh.cjs');
    const b = await loadEmbeddedModule<{ n: number }>(source, 'fresh.cjs');
    expect(a).not.toBe(b);
    expect([a.n, b.n]).toEqual([1, 2]);
  });

  it('sharedEmbeddedModule: one instance, evaluated once, for every caller', async () => {
    const source = counter('__embeddedShared');
    const [a, b] = await Promise.all([sharedEmbeddedModule(source, 'shared.cjs'), sharedEmbeddedModule(source, 'shared.cjs')]);
    const c = await sharedEmbeddedModule(source, 'shared.cjs');
    expect(a).toBe(b);
    expect(a).toBe(c);
    expect(runs('__embeddedShared')).toBe(1);
  });

  it('sharedEmbeddedModule: a chunk that throws is evaluated again next time', async () => {
    const source = chunk(
      "globalThis.__embeddedFlaky = (globalThis.__embeddedFlaky ?? 0) + 1; if (globalThis.__embeddedFlaky === 1) throw new Error('first try'); module.exports = { ok: true };",
    );
    await expect(sharedEmbeddedModule(source, 'flaky.cjs')).rejects.toThrow('first try');
    await expect(sharedEmbeddedModule(source, 'flaky.cjs')).resolves.toEqual({ ok: true });
    expect(runs('__embeddedFlaky')).toBe(2);
  });
});
