/**
 * USD per million tokens, by model id prefix (longest match wins). A model not
 * listed has no cost figure (shown as unknown), never a guessed one.
 */
export interface Price {
  input: number;
  output: number;
}

const PRICES: ReadonlyArray<[prefix: string, price: Price]> = [
  ['gemini-2.5-pro', { input: 1.25, output: 10 }],
  ['gemini-2.5-flash-lite', { input: 0.1, output: 0.4 }],
  ['gemini-2.5-flash', { input: 0.3, output: 2.5 }],
  ['gpt-4.1-mini', { input: 0.4, output: 1.6 }],
  ['gpt-4.1', { input: 2, output: 8 }],
  ['gpt-4o-mini', { input: 0.15, output: 0.6 }],
  ['gpt-4o', { input: 2.5, output: 10 }],
  ['claude-sonnet-4', { input: 3, output: 15 }],
  ['claude-opus-4', { input: 15, output: 75 }],
  ['claude-haiku-4', { input: 1, output: 5 }],
];

export function priceFor(modelId: string): Price | undefined {
  let best: [string, Price] | undefined;
  for (const entry of PRICES) if (modelId.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  return best?.[1];
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** null when the model has no price entry. */
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

export function usageOf(modelId: string, inputTokens: number, outputTokens: number): Usage {
  const p = priceFor(modelId);
  return { inputTokens, outputTokens, costUsd: p ? (inputTokens * p.input + outputTokens * p.output) / 1e6 : null };
}
