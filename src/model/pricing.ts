/**
 * USD per million tokens. The figures come from the model registry
 * (registry.ts, a pinned models.dev snapshot) or the recipe's `context.price`; a
 * model with neither has no cost figure (shown as unknown), never a guessed one.
 */
export interface Price {
  input: number;
  output: number;
  /** Input tokens read from the provider's prompt cache; absent: billed as input. */
  cache_read?: number | undefined;
  /** Input tokens written to the prompt cache; absent: billed as input. */
  cache_write?: number | undefined;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** null when the model has no price. */
  costUsd: number | null;
}

export const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd,
  };
}

/** How the provider split the input tokens; counts it does not report are 0. */
export interface CacheTokens {
  cacheRead?: number | undefined;
  cacheWrite?: number | undefined;
}

/**
 * One call's usage and cost. `inputTokens` is every input token (cached ones
 * included, as the providers report the total); the cached part is billed at the
 * cache prices where the registry has them and at the input price where it does not
 * (the provider's list price for input: an upper bound, not a guess).
 */
export function usageOf(price: Price | null | undefined, inputTokens: number, outputTokens: number, cache: CacheTokens = {}): Usage {
  if (!price) return { inputTokens, outputTokens, costUsd: null };
  const read = Math.min(cache.cacheRead ?? 0, inputTokens);
  const write = Math.min(cache.cacheWrite ?? 0, inputTokens - read);
  const plain = inputTokens - read - write;
  const micro =
    plain * price.input +
    read * (price.cache_read ?? price.input) +
    write * (price.cache_write ?? price.input) +
    outputTokens * price.output;
  return { inputTokens, outputTokens, costUsd: micro / 1e6 };
}
