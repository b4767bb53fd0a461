// Bundles the jq worker (src/tools/data/jq-worker.ts, with jq's WebAssembly
// inlined) into one CommonJS script. The main bundle and the vitest run both
// import it as `virtual:jq-worker-source` — brotli-compressed and base64-encoded,
// behind a function — and start it with `new Worker(source, { eval: true })`, so
// the single-file bundle needs no worker file on disk, and the 1.3 MB of source
// costs start-up only a 0.5 MB string that V8 merely pre-parses.
import { build } from 'esbuild';
import { brotliCompressSync, constants } from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const JQ_WORKER_MODULE = 'virtual:jq-worker-source';
const entry = fileURLToPath(new URL('../src/tools/data/jq-worker.ts', import.meta.url));

let cached;
export async function jqWorkerSource() {
  cached ??= build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    minify: true,
    write: false,
    logLevel: 'silent',
  }).then((r) => r.outputFiles[0].text);
  return cached;
}

/** The module text for `virtual:jq-worker-source`. */
export async function jqWorkerModule() {
  const compressed = brotliCompressSync(Buffer.from(await jqWorkerSource()), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  return `export default function compressedJqWorkerSource() { return ${JSON.stringify(compressed.toString('base64'))}; }`;
}
