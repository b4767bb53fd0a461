// Model-facing tool descriptions live beside their tools as Markdown; esbuild and
// vitest both load them as plain text (see scripts/build.mjs and vitest.config.ts).
declare module '*.md' {
  const text: string;
  export default text;
}

// Embedded sources (scripts/bundle/embedded.mjs): bundled apart, brotli-compressed and
// base64-encoded, decoded on first use (src/startup/embedded.ts).
declare module 'virtual:jq-worker-source' {
  export default function embeddedSource(): string;
}
declare module 'virtual:providers-chunk' {
  export default function embeddedSource(): string;
}
declare module 'virtual:yaml-chunk' {
  export default function embeddedSource(): string;
}
declare module 'virtual:re2-chunk' {
  export default function embeddedSource(): string;
}
declare module 'virtual:bash-parser-chunk' {
  export default function embeddedSource(): string;
}
declare module 'virtual:outline-chunk' {
  export default function embeddedSource(): string;
}
declare module 'virtual:undici-chunk' {
  export default function embeddedSource(): string;
}
declare module 'virtual:html-chunk' {
  export default function embeddedSource(): string;
}
declare module 'virtual:k8s-chunk' {
  export default function embeddedSource(): string;
}
declare module 'virtual:mcp-chunk' {
  export default function embeddedSource(): string;
}
// A tool family's tool files (scripts/bundle/tool-family.mjs): every <name>.ts beside a <name>.md
// in the importing index.ts's folder, by file name, with all its exports (or, in the bundle,
// the tool answering from its build-time head: src/tools/tool-head.ts).
declare module 'virtual:tool-family' {
  const members: ReadonlyArray<import('./tools/framework/family.ts').FamilyMember>;
  export default members;
}
// WebAssembly modules, inlined as bytes by esbuild's binary loader (embedded chunks only).
declare module '*.wasm' {
  const bytes: Uint8Array;
  export default bytes;
}

// Replaced by esbuild's `define` with package.json's version; vitest defines it too.
declare const __CORE_AGENT_VERSION__: string;
// The embedded chunks' file beside the bundle (scripts/bundle/esbuild-options.mjs); undefined: after the bundle's own JavaScript.
declare const __CORE_AGENT_CHUNKS__: string | undefined;
// The CLI's script beside the entry (scripts/bundle/esbuild-options.mjs); undefined: the sources, where the entry imports src/cli/start.ts.
declare const __CORE_AGENT_CLI_SCRIPT__: string | undefined;
// The tools' script beside it, which `core-agent tools …` loads instead (src/cli/start-tools.ts).
declare const __CORE_AGENT_TOOLS_SCRIPT__: string | undefined;

// The GFM plugin for turndown ships no types.
declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown';
  export const gfm: TurndownService.Plugin;
}

// prom-client's index also loads its Pushgateway (node:http, https, zlib: OpenSSL for a
// watch that pushes nothing) and its cluster aggregator; watch/metrics.ts imports the
// files it uses, typed as the index types them.
declare module 'prom-client/lib/registry.js' {
  import { Registry } from 'prom-client';
  export default Registry;
}
declare module 'prom-client/lib/counter.js' {
  import { Counter } from 'prom-client';
  export default Counter;
}
declare module 'prom-client/lib/gauge.js' {
  import { Gauge } from 'prom-client';
  export default Gauge;
}
declare module 'prom-client/lib/histogram.js' {
  import { Histogram } from 'prom-client';
  export default Histogram;
}
declare module 'prom-client/lib/defaultMetrics.js' {
  import { collectDefaultMetrics } from 'prom-client';
  export default collectDefaultMetrics;
}
