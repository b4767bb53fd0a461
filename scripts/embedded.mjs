// Code that most runs never need is kept out of the main bundle's JavaScript and
// embedded as data instead: bundled on its own (CommonJS), brotli-compressed and
// base64-encoded behind a function. V8 then only scans a string at start-up
// instead of compiling ~1.5 MB of code; the code is decompressed and evaluated on
// first use. The main bundle (scripts/esbuild-options.mjs) and the vitest run
// (vitest.config.ts) both load these virtual modules, so tests exercise the same
// path the bundle takes.
import { build } from 'esbuild';
import { brotliCompressSync, constants } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const src = (p) => fileURLToPath(new URL(`../src/${p}`, import.meta.url));

/** virtual module id → entry point. */
export const EMBEDDED = {
  // jq (WebAssembly) runs in a worker started from this source text.
  'virtual:jq-worker-source': src('tools/data/jq-worker.ts'),
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

/** The text of the virtual module: a function returning the compressed source. */
export async function embeddedModule(id) {
  const compressed = brotliCompressSync(Buffer.from(await embeddedSource(id)), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  return `export default function embeddedSource() { return ${JSON.stringify(compressed.toString('base64'))}; }`;
}
