import { APICallError, type LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { sleep as sleepFor } from '../util/sleep.ts';
import type { CallOptions, ChatModel, GenerateResult } from './model.ts';
import {
  explainModelError,
  explainStreamError,
  isOutOfQuota,
  isTlsCode,
  networkCode,
  TRANSIENT_NETWORK_CODES,
  type ProviderContext,
} from './model-errors.ts';

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
 * unknown model, a malformed request, a host DNS does not know, a certificate
 * not trusted, an account out of quota — fail at once: retrying cannot fix them.
 * A temporary DNS failure (EAI_AGAIN) gets one more try, not five: a machine
 * whose resolver is down stays down for longer than the backoff.
 *
 * With a provider context, the error a call finally fails with is a
 * ModelCallError: one sentence naming the provider, the status and what to check.
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
    private readonly context?: ProviderContext,
  ) {
    this.provider = inner.provider;
    this.modelId = inner.modelId;
    this.supportedUrls = inner.supportedUrls;
  }

  async doGenerate(options: CallOptions): Promise<GenerateResult> {
    return this.retry(() => this.inner.doGenerate(options), options.abortSignal);
  }

  async doStream(options: CallOptions) {
    const result = await this.retry(() => this.inner.doStream(options), options.abortSignal);
    const ctx = this.context;
    if (!ctx) return result;
    // A stream that breaks off after it started is not retried (text has been shown), but it is explained.
    const explain = new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
      transform(part, controller) {
        controller.enqueue(
          part.type === 'error' && !options.abortSignal?.aborted ? { type: 'error', error: explainStreamError(part.error, ctx) } : part,
        );
      },
    });
    return { ...result, stream: result.stream.pipeThrough(explain) };
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
        if (signal?.aborted) throw err;
        if (attempt >= attemptsFor(err, this.policy) || !retryable(err))
          throw this.context ? explainModelError(err, this.context, attempt) : err;
        const delayMs = retryDelay(err, attempt, this.policy);
        const notice = {
          attempt,
          attempts: attemptsFor(err, this.policy),
          delayMs: Math.round(delayMs),
          reason: retryReason(err, this.context?.secrets),
        };
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
export function retryReason(err: unknown, secrets: readonly string[] = []): string {
  const status = APICallError.isInstance(err) && err.statusCode !== undefined ? `HTTP ${err.statusCode}` : undefined;
  const code = networkCode(err) ?? (err as Error)?.name;
  let message = ((err as Error)?.message ?? String(err)).replace(/\s+/g, ' ').trim();
  for (const s of secrets) if (s.length >= 6) message = message.split(s).join('****');
  const line = [status ?? code, message].filter(Boolean).join(': ');
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

export function retryable(err: unknown): boolean {
  if (APICallError.isInstance(err) && err.statusCode !== undefined) {
    const s = err.statusCode;
    return s === 408 || s === 409 || (s === 429 && !isOutOfQuota(err)) || s >= 500;
  }
  // The AI SDK marks every failed fetch retryable; the code under it says whether it is.
  const code = networkCode(err);
  if (code === 'ENOTFOUND' || (code !== undefined && isTlsCode(code))) return false;
  if (code === 'EAI_AGAIN' || (code !== undefined && TRANSIENT_NETWORK_CODES.has(code))) return true;
  if (APICallError.isInstance(err)) return err.isRetryable;
  return (err as Error)?.name === 'TimeoutError';
}

/** Attempts in all for this error: the policy's, but two for a temporary DNS failure. */
export function attemptsFor(err: unknown, policy: RetryPolicy): number {
  return networkCode(err) === 'EAI_AGAIN' ? Math.min(2, policy.attempts) : policy.attempts;
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
