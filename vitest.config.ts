import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vitest/config';
import { JQ_WORKER_MODULE, jqWorkerModule } from './scripts/worker-source.mjs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/** The same two loaders the esbuild bundle uses: .md as text, and the jq worker's source. */
const coreAgentLoaders: Plugin = {
  name: 'core-agent-loaders',
  enforce: 'pre',
  resolveId(id) {
    return id === JQ_WORKER_MODULE ? `\0${JQ_WORKER_MODULE}` : null;
  },
  async load(id) {
    if (id === `\0${JQ_WORKER_MODULE}`) return jqWorkerModule();
    if (id.endsWith('.md')) return `export default ${JSON.stringify(readFileSync(id, 'utf8'))};`;
    return null;
  },
};

export default defineConfig({
  plugins: [coreAgentLoaders],
  define: { __CORE_AGENT_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['test/**/*.test.ts'],
    // The Kubernetes suite needs the local control plane (test/cluster); it is wired in separately.
    exclude: ['test/cluster/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
