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

/** A failed fetch as the AI SDK reports it: retryable by its mark, the reason in the cause's code. */
const fetchFailed = (code: string) =>
  new APICallError({
    message: `Cannot connect to API: getaddrinfo ${code} api.example`,
    url: 'http://x',
    requestBodyValues: {},
    isRetryable: true,
    cause: Object.assign(new Error(`getaddrinfo ${code} api.example`), { code }),
  });

describe('what is not worth retrying five times', () => {
  const ctx = {
    provider: 'openai',
    modelId: 'gpt-4.1-mini',
    baseUrl: 'https://api.example/v1',
    urlVar: 'OPENAI_BASE_URL',
    urlFromEnv: true,
    credential: 'the key in OPENAI_API_KEY',
    credentialFix: 'that OPENAI_API_KEY holds a current OpenAI API key',
    accessFix: 'access',
    secrets: ['sk-secret-123456'],
  };

  it.each([
    ['a host DNS does not know (ENOTFOUND)', fetchFailed('ENOTFOUND'), 1],
    ['a temporary DNS failure (EAI_AGAIN): once more, not four times', fetchFailed('EAI_AGAIN'), 2],
    ['a certificate not trusted', fetchFailed('DEPTH_ZERO_SELF_SIGNED_CERT'), 1],
    [
      'an account out of quota (429 insufficient_quota)',
      new APICallError({
        message: 'quota',
        url: 'http://x',
        requestBodyValues: {},
        statusCode: 429,
        responseBody: '{"error":{"code":"insufficient_quota"}}',
      }),
      1,
    ],
    ['a refused connection: the server may be starting', fetchFailed('ECONNREFUSED'), 5],
  ])('%s', async (_, error, calls) => {
    const inner = flaky(Array.from({ length: 10 }, () => error));
    const m = new RetryingModel(inner, DEFAULT_RETRY, async () => undefined, ctx);
    await expect(m.doGenerate({ prompt: [] })).rejects.toMatchObject({ name: 'ModelCallError' });
    expect(inner.calls).toBe(calls);
  });

  it('a long Retry-After is said, and a key a server echoes is cut out', async () => {
    const limited = new APICallError({
      message: 'slow down, sk-secret-123456',
      url: 'http://x',
      requestBodyValues: {},
      statusCode: 429,
      responseHeaders: { 'Retry-After': '3600' },
    });
    const inner = flaky([limited]);
    const m = new RetryingModel(inner, { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 }, async () => undefined, ctx);
    await expect(m.doGenerate({ prompt: [] })).rejects.toThrow(
      'openai answered HTTP 429: rate limited (it asked to wait 3600 s) ("slow down, ****"); wait and run again, or check the quota of the key in OPENAI_API_KEY',
    );
  });
});
