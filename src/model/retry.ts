import { APICallError } from '@ai-sdk/provider';
import { sleep as sleepFor } from '../util/sleep.ts';
import type { CallOptions, ChatModel, GenerateResult } from './model.ts';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 };

/** One failed attempt about to be retried: what a caller shows so a wait is not silent. */
export interface RetryNotice {
  /** The attempt that failed (1 = the first call). */
  attempt: number;
  /** Attempts in all, the first included (the policy's bound). */
  attempts: number;
  /** The wait before the next attempt. */
  delayMs: number;
  /** Why, in one bounded line: the HTTP status and the provider's message, or the connection error. */
  reason: string;
}

export type RetryListener = (notice: RetryNotice) => void;

/**
 * Bounded retries around a provider model: 408/409/429/5xx, connection errors
 * and timeouts are retried with exponential backoff and full jitter, honouring
 * Retry-After (seconds or a date) up to maxDelayMs. Other errors — a bad key, an
 * unknown model, a malformed request — fail at once: retrying cannot fix them.
 */
export class RetryingModel implements ChatModel {
  readonly specificationVersion = 'v4';
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls: ChatModel['supportedUrls'];
  /** Who hears of each retry (the agent, which reports it as an event); the model knows no caller. */
  private readonly listeners = new Set<RetryListener>();

  constructor(
    private readonly inner: ChatModel,
    private readonly policy: RetryPolicy = DEFAULT_RETRY,
    private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void> = sleepFor,
  ) {
    this.provider = inner.provider;
    this.modelId = inner.modelId;
    this.supportedUrls = inner.supportedUrls;
  }

  async doGenerate(options: CallOptions): Promise<GenerateResult> {
    return this.retry(() => this.inner.doGenerate(options), options.abortSignal);
  }

  async doStream(options: CallOptions) {
    return this.retry(() => this.inner.doStream(options), options.abortSignal);
  }

  /** Hear of every retry until the returned function is called. */
  onRetry(listener: RetryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async retry<T>(fn: () => PromiseLike<T>, signal?: AbortSignal): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        if (attempt >= this.policy.attempts || signal?.aborted || !retryable(err)) throw err;
        const delayMs = retryDelay(err, attempt, this.policy);
        const notice = { attempt, attempts: this.policy.attempts, delayMs: Math.round(delayMs), reason: retryReason(err) };
        for (const listener of this.listeners) listener(notice);
        await this.sleep(delayMs, signal);
      }
    }
  }
}

/**
 * Subscribe to a model's retries when it retries (a replay model does not): the
 * agent takes any ChatModel and need not know which wrapper it got.
 */
export function onRetries(model: ChatModel, listener: RetryListener): () => void {
  return model instanceof RetryingModel ? model.onRetry(listener) : () => {};
}

/** `HTTP 429: rate limited`, `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9`: one line, at most 200 characters. */
export function retryReason(err: unknown): string {
  const status = APICallError.isInstance(err) && err.statusCode !== undefined ? `HTTP ${err.statusCode}` : undefined;
  const code = (err as NodeJS.ErrnoException)?.code ?? (err as Error)?.name;
  const message = ((err as Error)?.message ?? String(err)).replace(/\s+/g, ' ').trim();
  const line = [status ?? code, message].filter(Boolean).join(': ');
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

export function retryable(err: unknown): boolean {
  if (APICallError.isInstance(err)) {
    const s = err.statusCode;
    return s === undefined ? err.isRetryable : s === 408 || s === 409 || s === 429 || s >= 500;
  }
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  const name = (err as Error)?.name ?? '';
  return (
    ['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT'].includes(code) ||
    name === 'TimeoutError'
  );
}

export function retryDelay(err: unknown, attempt: number, policy: RetryPolicy): number {
  const header = APICallError.isInstance(err) ? lowerKeys(err.responseHeaders)['retry-after'] : undefined;
  if (header !== undefined) {
    const seconds = Number(header);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
    if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, policy.maxDelayMs);
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.random() * ceiling;
}

function lowerKeys(h: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(h ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
}
