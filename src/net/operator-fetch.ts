import { failureText, loadUndici, readCapped } from './undici.ts';

/**
 * Requests to endpoints the operator configured (alert webhooks, the search
 * provider) — never to a URL the model chose, so url_scope does not apply. Still:
 * no environment proxy, no redirects (a webhook that redirects is misconfigured,
 * and following it would send the payload somewhere nobody named), a timeout,
 * and a capped response body.
 */

export interface OperatorResponse {
  status: number;
  text: string;
}

const MAX_RESPONSE = 1024 * 1024;

export async function operatorFetch(
  url: string,
  init: { method: 'GET' | 'POST' | 'DELETE'; headers?: Record<string, string>; body?: string },
  signal: AbortSignal,
): Promise<OperatorResponse> {
  const { Agent, fetch } = await loadUndici();
  const agent = new Agent({ connections: 1 });
  try {
    const res = await fetch(url, { ...init, dispatcher: agent, redirect: 'error', signal });
    const { body } = await readCapped(res.body, MAX_RESPONSE, signal);
    return { status: res.status, text: body.toString('utf8') };
  } catch (err) {
    if (signal.aborted) throw new Error(signal.reason instanceof Error && signal.reason.name === 'TimeoutError' ? 'timed out' : 'aborted');
    throw new Error(failureText(err));
  } finally {
    agent.destroy().catch(() => {});
  }
}
