import undiciChunk from 'virtual:undici-chunk';
import { loadEmbeddedModule } from '../startup/embedded.ts';
import { describeFailure } from '../util/failure-sentences.ts';

type Undici = typeof import('./undici-entry.ts');
let undici: Promise<Undici> | undefined;

/** undici, from its embedded chunk (loaded on the first network call). */
export const loadUndici = () => (undici ??= loadEmbeddedModule<Undici>(undiciChunk, 'undici.cjs'));

/** Read a response body up to `max` bytes; the rest is never read. */
export async function readCapped(
  stream: ReadableStream<Uint8Array> | null,
  max: number,
  signal: AbortSignal,
): Promise<{ body: Buffer; truncated: boolean }> {
  if (!stream) return { body: Buffer.alloc(0), truncated: false };
  const reader = stream.getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { body: Buffer.concat(chunks), truncated: false };
      chunks.push(Buffer.from(value));
      size += value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => {});
        return { body: Buffer.concat(chunks).subarray(0, max), truncated: true };
      }
    }
  } catch (err) {
    if (signal.aborted)
      throw new Error(signal.reason instanceof Error && signal.reason.name === 'TimeoutError' ? 'timed out reading the body' : 'aborted');
    throw new Error(`reading the body: ${failureText(err)}`);
  }
}

/**
 * Why a request failed, as a sentence: TLS, DNS and connection codes mapped
 * (errors.ts) rather than OpenSSL's or libuv's wording; else the innermost message.
 */
export function failureText(err: unknown): string {
  return describeFailure(err) ?? innermostError(err).message;
}

/** The innermost cause of undici's layered errors ("fetch failed" → cause → …). */
export function innermostError(err: unknown): Error {
  let e = err instanceof Error ? err : new Error(String(err));
  while (e.cause instanceof Error) e = e.cause;
  return e;
}
