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
  /**
   * How many of the calls counted here reported no usage, so that their tokens (and
   * so their cost) were estimated from the text (usage-estimate.ts); absent: none.
   */
  estimatedCalls?: number;
}

export const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };

export function addUsage(a: Usage, b: Usage): Usage {
  const estimated = (a.estimatedCalls ?? 0) + (b.estimatedCalls ?? 0);
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd,
    ...(estimated > 0 ? { estimatedCalls: estimated } : {}),
  };
}

/** What was used between two readings of a running total (a run's share of a resumed session). */
export function usageSince(before: Usage, now: Usage): Usage {
  const estimated = (now.estimatedCalls ?? 0) - (before.estimatedCalls ?? 0);
  return {
    inputTokens: now.inputTokens - before.inputTokens,
    outputTokens: now.outputTokens - before.outputTokens,
    costUsd: now.costUsd === null || before.costUsd === null ? null : Math.max(0, now.costUsd - before.costUsd),
    ...(estimated > 0 ? { estimatedCalls: estimated } : {}),
  };
}

/** ` (estimated)` after figures any of whose calls were estimated, for the lines people read. */
export function estimatedNote(u: Usage): string {
  return u.estimatedCalls ? ' (estimated: the server reported no usage)' : '';
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
