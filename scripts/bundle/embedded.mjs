// Code that most runs never need is kept out of the main bundle's JavaScript and
// embedded as data instead: bundled on its own (CommonJS), brotli-compressed and
// base64-encoded. In the bundle the data sits in comments after the JavaScript
// (embeddedTrailer), which V8 skips without building a string: as string literals
// the 4.3 MB cost every start-up ~20 ms of scanning and hashing, --version too.
// src/startup/embedded.ts (bundledChunk) reads a chunk back from the bundle's own file on first use.
// Under vitest (no bundle file) the module returns the same data as a string
// (embeddedModule); decoding and evaluating it (src/startup/embedded.ts) is the same path.
import { build } from 'esbuild';
import { brotliCompressSync, constants } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const src = (p) => fileURLToPath(new URL(`../../src/${p}`, import.meta.url));

/** virtual module id → entry point. */
export const EMBEDDED = {
  // jq (WebAssembly) runs in a worker started from this source text.
  'virtual:jq-worker-source': src('tools/shared/jq-worker.ts'),
  // The AI SDK provider packages, loaded when a run names a provider model.
  'virtual:providers-chunk': src('model/provider-entry.ts'),
  // The YAML parser, loaded when a recipe is read.
  'virtual:yaml-chunk': src('config/yaml-entry.ts'),
  // re2js, loaded on the first grep.
  'virtual:re2-chunk': src('tools/search/re2-entry.ts'),
  // tree-sitter with the bash grammar (WebAssembly), loaded on the first bash parse.
  'virtual:bash-parser-chunk': src('tools/shell/bash-parser-entry.ts'),
  // tree-sitter with the grammars view_file_outline parses (WebAssembly), loaded on the first outline.
  'virtual:outline-chunk': src('tools/files/outline-entry.ts'),
  // undici (an HTTP client whose connections the SSRF guard can pin), loaded on the first fetch.
  'virtual:undici-chunk': src('net/undici-entry.ts'),
  // turndown and html-to-text, loaded when web_fetch converts a page.
  'virtual:html-chunk': src('net/html-entry.ts'),
  // The MCP SDK and google-auth-library, loaded when a run has MCP servers or serves over MCP.
  'virtual:mcp-chunk': src('mcp/sdk-entry.ts'),
  // @kubernetes/client-node, loaded when a Kubernetes tool runs.
  'virtual:k8s-chunk': src('k8s/client-entry.ts'),
  // zod, for the tools' listing script, which evaluates it only when a recipe is read (listing-zod.mjs).
  'virtual:zod-chunk': src('config/zod-entry.ts'),
};

const cache = new Map();

/** The bundled source of one embedded entry (CommonJS, minified). */
export function embeddedSource(id) {
  if (!cache.has(id)) {
    cache.set(
      id,
      build({
        entryPoints: [EMBEDDED[id]],
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node24',
        minify: true,
        keepNames: true,
        legalComments: 'none',
        loader: { '.wasm': 'binary' },
        write: false,
        logLevel: 'silent',
      }).then((r) => r.outputFiles[0].text),
    );
  }
  return cache.get(id);
}

// Compressed once per process: the bench builds seven bundles with the same chunks.
const compressedCache = new Map();
function compressed(id) {
  if (!compressedCache.has(id)) {
    compressedCache.set(
      id,
      embeddedSource(id).then((text) =>
        brotliCompressSync(Buffer.from(text), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).toString('base64'),
      ),
    );
  }
  return compressedCache.get(id);
}

/** The bundle's form of the virtual module: the data is read from the bundle's trailer. */
export function embeddedBundleModule(id) {
  return `import { bundledChunk } from ${JSON.stringify(src('startup/embedded.ts'))};
export default function embeddedSource() { return bundledChunk(${JSON.stringify(id)}); }`;
}

/** The comments appended to a bundle, one per chunk it uses (src/startup/embedded.ts parses them). */
export async function embeddedTrailer(ids) {
  const parts = await Promise.all(ids.map(async (id) => `\n/*core-agent-chunk ${id}\n${await compressed(id)}\n*/`));
  return `${parts.join('')}\n`;
}

/** The text of the virtual module under vitest: a function returning the compressed source. */
export async function embeddedModule(id) {
  return `export default function embeddedSource() { return ${JSON.stringify(await compressed(id))}; }`;
}
