import { createRequire } from 'node:module';

/**
 * Embedded sources (scripts/embedded.mjs): code kept out of the bundle's
 * JavaScript as compressed data, so it costs nothing at start-up. Decoded once,
 * on first use.
 */
const decoded = new Map<() => string, string>();

export async function decodeEmbedded(source: () => string): Promise<string> {
  let text = decoded.get(source);
  if (text === undefined) {
    const { brotliDecompressSync } = await import('node:zlib');
    text = brotliDecompressSync(Buffer.from(source(), 'base64')).toString('utf8');
    decoded.set(source, text);
  }
  return text;
}

/** Evaluate an embedded CommonJS bundle and return its exports. */
export async function loadEmbeddedModule<T>(source: () => string, name: string): Promise<T> {
  const code = await decodeEmbedded(source);
  const { compileFunction } = await import('node:vm');
  const module = { exports: {} as T };
  const fn = compileFunction(code, ['module', 'exports', 'require'], { filename: `core-agent:${name}` });
  fn(module, module.exports, createRequire(import.meta.url));
  return module.exports;
}
