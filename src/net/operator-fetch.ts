import type { Resolver } from './guarded-fetch.ts';
import { outboundFetch } from './outbound-fetch.ts';

/**
 * Requests to endpoints the operator configured (alert webhooks, the search
 * provider, the peer hub a daemon registers with) — never to a URL the model
 * chose, so url_scope does not apply. They still take the one address policy
 * (outbound-fetch.ts): the host the operator named may be loopback or private,
 * metadata and link-local addresses are refused whoever named them, the
 * connection is pinned to the checked address, no environment proxy, no
 * redirects (a webhook that redirects is misconfigured, and following it would
 * send the payload somewhere nobody named), a timeout, and a capped response body.
 */

export interface OperatorResponse {
  status: number;
  text: string;
}

export const OPERATOR_RESPONSE_CAP = 1024 * 1024;

export async function operatorFetch(
  url: string,
  init: { method: 'GET' | 'POST' | 'DELETE'; headers?: Record<string, string>; body?: string },
  signal: AbortSignal,
  o: { what?: string; resolve?: Resolver | undefined } = {},
): Promise<OperatorResponse> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new Error('the configured URL is not an absolute URL');
  }
  const fetch = outboundFetch({
    // The operator named this host: it may be loopback or private (never metadata).
    namedHosts: [target.hostname],
    setting: 'the configured URL',
    what: o.what ?? 'answers from configured endpoints',
    maxBodyBytes: OPERATOR_RESPONSE_CAP,
    resolve: o.resolve,
  });
  try {
    const res = await fetch(target, { ...init, redirect: 'error', signal });
    return { status: res.status, text: await res.text() };
  } catch (err) {
    if (signal.aborted) throw new Error(signal.reason instanceof Error && signal.reason.name === 'TimeoutError' ? 'timed out' : 'aborted');
    throw err instanceof Error ? err : new Error(String(err));
  }
}
