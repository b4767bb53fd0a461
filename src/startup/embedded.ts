import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setV8Flags, WASM_FLAGS } from './v8-flags.ts';

/**
 * Embedded sources (scripts/bundle/embedded.mjs): code kept out of the bundle's
 * JavaScript as compressed data, so it costs nothing at start-up. Decoded once,
 * on first use.
 */
const decoded = new Map<() => string, string>();

export function decodeEmbedded(source: () => string): Promise<string> {
  return Promise.resolve().then(() => decodeEmbeddedNow(source));
}

function decodeEmbeddedNow(source: () => string): string {
  let text = decoded.get(source);
  if (text === undefined) {
    // Every WebAssembly module this program compiles (tree-sitter, jq's worker) is in an
    // embedded chunk, so setting WebAssembly's flags (src/startup/v8-flags.ts) before the first
    // chunk is decoded is setting them before any WebAssembly exists; a command that decodes
    // none never loads node:v8.
    setV8Flags(WASM_FLAGS);
    // Asked of Node when first needed: a start that decodes no chunk never loads node:zlib.
    const { brotliDecompressSync } = process.getBuiltinModule('node:zlib');
    text = brotliDecompressSync(Buffer.from(source(), 'base64')).toString('utf8');
    decoded.set(source, text);
  }
  return text;
}

/**
 * Evaluate an embedded CommonJS bundle and return its exports: a fresh instance on every
 * call, so a caller whose WebAssembly module aborted (the bash parser) gets a working one.
 */
export function loadEmbeddedModule<T>(source: () => string, name: string): Promise<T> {
  return evaluate(source, name) as Promise<T>;
}

const shared = new Map<() => string, Promise<unknown>>();

/**
 * One instance of a chunk for every caller of this function, across layers (the YAML
 * parser, which the recipe and the kubeconfig loaders both need): evaluating it twice
 * would hold it twice. A failed evaluation is not kept.
 */
export function sharedEmbeddedModule<T>(source: () => string, name: string): Promise<T> {
  let exports = shared.get(source);
  if (!exports) {
    exports = evaluate(source, name);
    shared.set(source, exports);
    exports.catch(() => shared.delete(source));
  }
  return exports as Promise<T>;
}

/**
 * The same as sharedEmbeddedModule, evaluated at once: for a chunk that stands in for a package
 * other modules import statically (zod in the tools' listing script, scripts/bundle/listing-zod.mjs),
 * whose exports must exist when the importing module is evaluated.
 */
export function sharedEmbeddedModuleNow<T>(source: () => string, name: string): T {
  let exports = sharedNow.get(source);
  if (exports === undefined) {
    exports = evaluateNow(source, name);
    sharedNow.set(source, exports);
  }
  return exports as T;
}

const sharedNow = new Map<() => string, unknown>();

function evaluate(source: () => string, name: string): Promise<unknown> {
  return Promise.resolve().then(() => evaluateNow(source, name));
}

function evaluateNow(source: () => string, name: string): unknown {
  const code = decodeEmbeddedNow(source);
  const module = { exports: {} as unknown };
  // new Function rather than node:vm: code in it may use import() (web-tree-sitter
  // does) with the ordinary loader, with no experimental flag.
  const fn = new Function('module', 'exports', 'require', '__filename', '__dirname', `${code}\n//# sourceURL=core-agent:${name}`) as (
    ...args: unknown[]
  ) => void;
  const self = fileURLToPath(import.meta.url);
  fn(module, module.exports, createRequire(import.meta.url), self, path.dirname(self));
  return module.exports;
}

/**
 * In the bundle the embedded chunks are comments (scripts/bundle/embedded.mjs): `/*core-agent-chunk ID`,
 * a newline, the base64 data, a newline and the comment's end — in the file the build names
 * (__CORE_AGENT_CHUNKS__, dist/core-agent-chunks.txt beside the CLI's file), or else after the
 * bundle's own JavaScript (a bench harness). The file is read when the first chunk is needed, and
 * after that only the bytes of each chunk asked for; nothing else of the run touches it.
 */
const chunksFile = (): string =>
  fileURLToPath(typeof __CORE_AGENT_CHUNKS__ === 'string' ? new URL(__CORE_AGENT_CHUNKS__, import.meta.url) : import.meta.url);

/** Where each chunk lies in the chunks file: its header's offset, its data's, and the data's end. */
let chunkIndex: Map<string, [header: number, start: number, end: number]> | undefined;
const OPEN = '\n/*core-agent-chunk ';

export function bundledChunk(id: string): string {
  // The file is read whole once, to find the chunks, and not kept (as a string it held
  // 4 MiB of a daemon's memory for its whole life): later chunks read only their bytes.
  // latin1: the data is base64, and a byte-per-character read needs no UTF-8 decoding.
  if (!chunkIndex) {
    const bytes = readFileSync(chunksFile());
    chunkIndex = indexChunks(bytes);
    const found = chunkIndex.get(id);
    if (found) return bytes.toString('latin1', found[1], found[2]);
  }
  const range = chunkIndex.get(id);
  if (!range) throw new Error(`the bundle has no embedded chunk "${id}" (${chunksFile()}): rebuild it with scripts/build.mjs`);
  const [header, start, end] = range;
  const bytes = Buffer.alloc(end - header);
  const fd = openSync(chunksFile(), 'r');
  try {
    readSync(fd, bytes, 0, bytes.length, header);
  } finally {
    closeSync(fd);
  }
  // A file rebuilt under a running process: its chunks moved, so find them again.
  if (bytes.toString('latin1', 0, start - header) !== `${OPEN}${id}\n`) {
    chunkIndex = undefined;
    return bundledChunk(id);
  }
  return bytes.toString('latin1', start - header);
}

function indexChunks(bytes: Buffer): Map<string, [number, number, number]> {
  const index = new Map<string, [number, number, number]>();
  for (let at = bytes.indexOf(OPEN, 0, 'latin1'); at !== -1; at = bytes.indexOf(OPEN, at + 1, 'latin1')) {
    const nl = bytes.indexOf('\n', at + OPEN.length, 'latin1');
    const end = nl === -1 ? -1 : bytes.indexOf('\n*/', nl + 1, 'latin1');
    if (end === -1) break;
    // The last of a name wins, as the old lastIndexOf did: a chunk after the bundle's own text.
    index.set(bytes.toString('latin1', at + OPEN.length, nl), [at, nl + 1, end]);
  }
  return index;
}
