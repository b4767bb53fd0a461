// Bundles the jq worker (src/tools/data/jq-worker.ts, with jq's WebAssembly
// inlined) into one CommonJS script and returns its text. The main bundle and
// the vitest run both import it as `virtual:jq-worker-source` and start it with
// `new Worker(source, { eval: true })`, so the single-file bundle needs no
// worker file on disk.
import { build } from 'esbuild';
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
