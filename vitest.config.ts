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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      // Everything that needs only this machine.
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/cluster/**'] } },
      // Needs a Kubernetes API in KUBECONFIG: test/cluster/with-cluster.sh provides one.
      { extends: true, test: { name: 'k8s', include: ['test/cluster/**/*.test.ts'], testTimeout: 120_000 } },
    ],
  },
});
