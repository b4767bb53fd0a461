import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vitest/config';
import { EMBEDDED, embeddedModule } from './scripts/embedded.mjs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/** The same loaders the esbuild bundle uses: .md as text, and the embedded sources (scripts/embedded.mjs). */
const coreAgentLoaders: Plugin = {
  name: 'core-agent-loaders',
  enforce: 'pre',
  resolveId(id) {
    return id in EMBEDDED ? `\0${id}` : null;
  },
  async load(id) {
    if (id.startsWith('\0virtual:')) return embeddedModule(id.slice(1));
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
