import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { ChatModel, GenerateResult } from '../../src/model/model.ts';
import { DEFAULT_RETRY, retryable, retryDelay, RetryingModel } from '../../src/model/retry.ts';

const apiError = (statusCode: number, headers: Record<string, string> = {}) =>
  new APICallError({ message: `status ${statusCode}`, url: 'http://x', requestBodyValues: {}, statusCode, responseHeaders: headers });

const ok: GenerateResult = {
  content: [{ type: 'text', text: 'ok' }],
  finishReason: { unified: 'stop', raw: undefined },
  usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
  warnings: [],
};

function flaky(failures: unknown[]): ChatModel & { calls: number } {
  const m = {
    specificationVersion: 'v4' as const,
    provider: 'test',
    modelId: 'm',
    supportedUrls: {},
    calls: 0,
    async doGenerate() {
      m.calls += 1;
      const f = failures.shift();
      if (f) throw f;
      return ok;
    },
    async doStream(): Promise<never> {
      throw new Error('unused');
    },
  };
  return m;
}

describe('retries', () => {
  it('retries 429 and 5xx, honouring Retry-After, then succeeds', async () => {
    const inner = flaky([apiError(429, { 'Retry-After': '2' }), apiError(503)]);
    const waits: number[] = [];
    const m = new RetryingModel(inner, DEFAULT_RETRY, async (ms) => void waits.push(ms));
    expect(await m.doGenerate({ prompt: [] })).toBe(ok);
    expect(inner.calls).toBe(3);
    expect(waits[0]).toBe(2000);
    expect(waits[1]).toBeLessThanOrEqual(DEFAULT_RETRY.baseDelayMs * 2);
  });

  it('does not retry what retrying cannot fix', async () => {
    const inner = flaky([apiError(401)]);
    const m = new RetryingModel(inner, DEFAULT_RETRY, async () => undefined);
    await expect(m.doGenerate({ prompt: [] })).rejects.toThrow('status 401');
    expect(inner.calls).toBe(1);
  });

  it('gives up after the bounded number of attempts', async () => {
    const inner = flaky(Array.from({ length: 10 }, () => apiError(500)));
    const m = new RetryingModel(inner, { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 }, async () => undefined);
    await expect(m.doGenerate({ prompt: [] })).rejects.toThrow('status 500');
    expect(inner.calls).toBe(3);
  });

  it('classifies errors and caps delays', () => {
    expect(retryable(apiError(408))).toBe(true);
    expect(retryable(apiError(400))).toBe(false);
    expect(retryable(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBe(true);
    expect(retryable(new Error('bad'))).toBe(false);
    expect(retryDelay(apiError(429, { 'retry-after': '3600' }), 1, DEFAULT_RETRY)).toBe(DEFAULT_RETRY.maxDelayMs);
    const date = new Date(Date.now() + 5000).toUTCString();
    expect(retryDelay(apiError(429, { 'retry-after': date }), 1, DEFAULT_RETRY)).toBeGreaterThan(3000);
  });
});
