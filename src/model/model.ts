import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';

/**
 * The provider-neutral model interface is the AI SDK's LanguageModelV4 — a
 * published, versioned spec every provider package implements — used directly at
 * its low level (doGenerate). The loop, the replay model and the session store
 * speak it; nothing above this folder knows which provider is behind it.
 */
export type ChatModel = LanguageModelV4;
export type CallOptions = LanguageModelV4CallOptions;
export type GenerateResult = LanguageModelV4GenerateResult;

/** A model error a person can fix (no key, unknown model, bad script): reported without a stack. */
export class ModelConfigError extends Error {
  override readonly name = 'ModelConfigError';
}

/**
 * Why a model call failed, as data (model-errors.ts decides it from the status and the
 * network error's code): `auth` a key or credentials refused, `forbidden` refused this
 * model, `not_found` no such model (or path), `rate_limit` still limited after the
 * retries, `quota` out of quota (not retried), `server` a 5xx after the retries,
 * `bad_request` any other refusal, `refused`/`dns`/`tls`/`connection`/`timeout` the
 * server was not reached, `stream` the answer broke off, `other` anything else.
 */
export type ModelFailure =
  | 'auth'
  | 'forbidden'
  | 'not_found'
  | 'rate_limit'
  | 'quota'
  | 'server'
  | 'bad_request'
  | 'refused'
  | 'dns'
  | 'tls'
  | 'connection'
  | 'timeout'
  | 'stream'
  | 'other';

/**
 * A model call that failed after the retries it was worth: one sentence naming the
 * provider, the status (or the network error) and what to check. `run` exits with
 * its own status for it (3), apart from a refused tool or a runtime failure.
 */
export class ModelCallError extends Error {
  override readonly name = 'ModelCallError';
  /** The message's two halves: what happened, and what to check (absent when there is nothing to say). */
  readonly what: string;
  readonly fix: string | undefined;
  constructor(
    message: string,
    readonly failure: ModelFailure,
    readonly status?: number,
    options: { cause?: unknown; what?: string; fix?: string | undefined } = {},
  ) {
    super(message, { cause: options.cause });
    this.what = options.what ?? message;
    this.fix = options.fix;
  }
}
