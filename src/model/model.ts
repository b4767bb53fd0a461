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
