// Model-facing tool descriptions live beside their tools as Markdown; esbuild and
// vitest both load them as plain text (see scripts/build.mjs and vitest.config.ts).
declare module '*.md' {
  const text: string;
  export default text;
}

// The jq worker's bundled source, produced by scripts/worker-source.mjs at build
// (and test) time, so the single-file bundle can start the worker with eval.
declare module 'virtual:jq-worker-source' {
  /** The worker's source, brotli-compressed and base64-encoded (a third of the size to parse at start-up). */
  export default function compressedJqWorkerSource(): string;
}

// Replaced by esbuild's `define` with package.json's version; vitest defines it too.
declare const __CORE_AGENT_VERSION__: string;
