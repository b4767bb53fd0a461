/**
 * The model registry as data: a `provider:model` spec, the recipe's `context:`
 * overrides if any, and what core-agent then knows — the catalog entry it
 * resolved to (null: none), the context window, the input and output price per
 * million tokens (null: unknown, never guessed).
 */
export interface RegistryCase {
  spec: string;
  overrides?: { window?: number; max_output?: number; price?: { input: number; output: number } };
  /** The registry id the spec resolved to, or null (not in the registry). */
  id: string | null;
  window: number | null;
  price: readonly [input: number, output: number] | null;
}

export const REGISTRY_CASES: readonly RegistryCase[] = [
  // Exact ids, one or more per provider.
  { spec: 'google:gemini-2.5-flash', id: 'gemini-2.5-flash', window: 1_048_576, price: [0.3, 2.5] },
  { spec: 'google:gemini-2.5-pro', id: 'gemini-2.5-pro', window: 1_048_576, price: [1.25, 10] },
  { spec: 'google:gemini-1.5-pro', id: 'gemini-1.5-pro', window: 1_000_000, price: [1.25, 5] },
  { spec: 'vertex:gemini-2.5-flash', id: 'gemini-2.5-flash', window: 1_048_576, price: [0.3, 2.5] },
  { spec: 'vertex:gemini-2.0-flash-lite', id: 'gemini-2.0-flash-lite', window: 1_048_576, price: [0.075, 0.3] },
  { spec: 'openai:gpt-4.1-mini', id: 'gpt-4.1-mini', window: 1_047_576, price: [0.4, 1.6] },
  { spec: 'openai:gpt-4o', id: 'gpt-4o', window: 128_000, price: [2.5, 10] },
  { spec: 'openai:gpt-5', id: 'gpt-5', window: 400_000, price: [1.25, 10] },
  { spec: 'openai:o3-mini', id: 'o3-mini', window: 200_000, price: [1.1, 4.4] },
  { spec: 'anthropic:claude-sonnet-4-20250514', id: 'claude-sonnet-4-20250514', window: 200_000, price: [3, 15] },
  { spec: 'anthropic:claude-3-5-haiku-20241022', id: 'claude-3-5-haiku-20241022', window: 200_000, price: [0.8, 4] },
  // Aliases the providers really accept.
  { spec: 'google:models/gemini-2.5-flash', id: 'gemini-2.5-flash', window: 1_048_576, price: [0.3, 2.5] },
  { spec: 'vertex:publishers/google/models/gemini-2.5-pro', id: 'gemini-2.5-pro', window: 1_048_576, price: [1.25, 10] },
  {
    spec: 'vertex:projects/p/locations/us-central1/publishers/google/models/gemini-2.5-pro',
    id: 'gemini-2.5-pro',
    window: 1_048_576,
    price: [1.25, 10],
  },
  { spec: 'vertex:gemini-2.0-flash-001', id: 'gemini-2.0-flash', window: 1_048_576, price: [0.1, 0.4] },
  { spec: 'google:gemini-2.0-flash-001', id: 'gemini-2.0-flash', window: 1_048_576, price: [0.1, 0.4] },
  { spec: 'anthropic:claude-sonnet-4-0', id: 'claude-sonnet-4-20250514', window: 200_000, price: [3, 15] },
  { spec: 'anthropic:claude-opus-4-0', id: 'claude-opus-4-20250514', window: 200_000, price: [15, 75] },
  { spec: 'anthropic:claude-opus-4-1', id: 'claude-opus-4-1-20250805', window: 200_000, price: [15, 75] },
  { spec: 'anthropic:claude-3-7-sonnet-latest', id: 'claude-3-7-sonnet-20250219', window: 200_000, price: [3, 15] },
  // -latest names the newest dated snapshot, not the older one.
  { spec: 'anthropic:claude-3-5-sonnet-latest', id: 'claude-3-5-sonnet-20241022', window: 200_000, price: [3, 15] },
  // Not aliases: a name that only looks like one is unknown, never priced as its neighbour.
  { spec: 'openai:gpt-4o-2024-05-13', id: null, window: null, price: null },
  { spec: 'openai:gpt-4.1-mini-turbo', id: null, window: null, price: null },
  { spec: 'google:gemini-2.5-flash-lite', id: null, window: null, price: null },
  { spec: 'anthropic:claude-sonnet-4-5', id: null, window: null, price: null },
  { spec: 'openai:models/gpt-4o', id: null, window: null, price: null },
  { spec: 'anthropic:gemini-2.5-flash', id: null, window: null, price: null },
  { spec: 'google:claude-sonnet-4-0', id: null, window: null, price: null },
  { spec: 'openai-compatible:gpt-4o', id: null, window: null, price: null },
  { spec: 'openai-compatible:llama3.1:8b', id: null, window: null, price: null },
  // Replay scripts are free and have no window of their own.
  { spec: 'replay:script.jsonl', id: null, window: null, price: [0, 0] },
  // The recipe's context: states what the registry does not know, or corrects it.
  { spec: 'openai-compatible:llama3.1:8b', overrides: { window: 131_072 }, id: null, window: 131_072, price: null },
  { spec: 'openai-compatible:qwen', overrides: { price: { input: 0.2, output: 0.6 } }, id: null, window: null, price: [0.2, 0.6] },
  { spec: 'openai:gpt-4o', overrides: { window: 64_000 }, id: 'gpt-4o', window: 64_000, price: [2.5, 10] },
  {
    spec: 'anthropic:claude-sonnet-4-0',
    overrides: { price: { input: 2, output: 10 } },
    id: 'claude-sonnet-4-20250514',
    window: 200_000,
    price: [2, 10],
  },
  { spec: 'replay:s.jsonl', overrides: { window: 4_000 }, id: null, window: 4_000, price: [0, 0] },
];

/** Price math: a price, the tokens of one call, the cost in USD. */
export interface PriceCase {
  name: string;
  price: { input: number; output: number; cache_read?: number; cache_write?: number } | null;
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  cost: number | null;
}

export const PRICE_CASES: readonly PriceCase[] = [
  { name: 'no price: unknown', price: null, input: 1000, output: 1000, cost: null },
  { name: 'input and output', price: { input: 3, output: 15 }, input: 1_000_000, output: 100_000, cost: 4.5 },
  { name: 'free', price: { input: 0, output: 0 }, input: 5000, output: 5000, cost: 0 },
  { name: 'zero tokens', price: { input: 3, output: 15 }, input: 0, output: 0, cost: 0 },
  {
    name: 'cache reads at the cache price',
    price: { input: 3, output: 15, cache_read: 0.3 },
    input: 1_000_000,
    output: 0,
    cacheRead: 500_000,
    cost: 1.65,
  },
  {
    name: 'cache writes at the write price',
    price: { input: 3, output: 15, cache_write: 3.75 },
    input: 1_000_000,
    output: 0,
    cacheWrite: 1_000_000,
    cost: 3.75,
  },
  { name: 'no cache price: billed as input', price: { input: 1, output: 2 }, input: 1_000_000, output: 0, cacheRead: 400_000, cost: 1 },
  {
    name: 'a cache count above the total is capped at it',
    price: { input: 1, output: 2, cache_read: 0 },
    input: 1_000,
    output: 0,
    cacheRead: 5_000,
    cost: 0,
  },
  {
    name: 'reads and writes together',
    price: { input: 2, output: 8, cache_read: 0.5, cache_write: 2.5 },
    input: 1_000_000,
    output: 1_000_000,
    cacheRead: 200_000,
    cacheWrite: 200_000,
    cost: 1.2 + 0.1 + 0.5 + 8,
  },
];
