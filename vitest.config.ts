import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vitest/config';
import path from 'node:path';
import { EMBEDDED, embeddedModule } from './scripts/bundle/embedded.mjs';
import { TOOL_FAMILY, toolFamilyModule } from './scripts/bundle/tool-family.mjs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/** The same loaders the esbuild bundle uses: .md as text, the embedded sources (scripts/bundle/embedded.mjs), the tool families (scripts/bundle/tool-family.mjs). */
const coreAgentLoaders: Plugin = {
  name: 'core-agent-loaders',
  enforce: 'pre',
  resolveId(id, importer) {
    if (id === TOOL_FAMILY && importer) return `\0${TOOL_FAMILY}:${path.dirname(importer)}`;
    return id in EMBEDDED ? `\0${id}` : null;
  },
  async load(id) {
    if (id.startsWith(`\0${TOOL_FAMILY}:`)) return toolFamilyModule(id.slice(TOOL_FAMILY.length + 2));
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
