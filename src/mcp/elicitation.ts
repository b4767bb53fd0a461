import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../log.ts';
import type { Asker } from '../tools/framework/services.ts';
import { completeAnswer, parseForm } from './elicit-form.ts';

/** Where a decline's reason goes: servers see it in the result's _meta (the spec's ElicitResult has no reason field). */
export const REASON_KEY = 'core-agent/reason';

/** One form at a time across the process: two servers asking at once must not interleave on one terminal. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * A server's `elicitation/create` during a tool call. It is always a question for a
 * person — an `ask` in every permission mode: yolo, accept-edits and allow rules
 * approve calls, not what goes into a form (the operator's data, or their consent),
 * so nothing answers it for them. Without someone to answer (headless, --ask off,
 * an asker that cannot show forms) it is declined at once, with the reason, so the
 * server never waits. Fields the operator leaves empty get the server's defaults
 * (SEP-1034, completeAnswer; the capability says `applyDefaults`).
 */
export async function answerElicitation(
  server: string,
  params: Readonly<Record<string, unknown>>,
  call: { asker: Asker | undefined } | undefined,
  signal: AbortSignal,
  log: Logger,
): Promise<ElicitResult> {
  const decline = (reason: string, action: 'decline' | 'cancel' = 'decline'): ElicitResult => {
    log.info({ action, reason }, 'MCP elicitation not answered');
    return { action, _meta: { [REASON_KEY]: reason } };
  };
  if (params.mode === 'url') return decline('core-agent does not open URL-mode elicitations');
  if (params.mode !== undefined && params.mode !== 'form') return decline('core-agent shows form-mode elicitations only');
  if (!call) return decline('no tool call of core-agent is in progress to ask for');
  const asker = call.asker;
  if (!asker?.elicit) return decline('core-agent is running unattended: no one can fill in a form (headless, or --ask off)');
  const parsed = parseForm(server, params.message, params.requestedSchema);
  if ('error' in parsed) return decline(`core-agent cannot show this form: ${parsed.error}`);
  const { form } = parsed;
  const elicit = asker.elicit.bind(asker);
  const turn = queue.then(async () => {
    if (signal.aborted) return { unavailable: 'the request was cancelled' };
    // The server cancelling (or the call's deadline) ends the wait; the answer, if any, is dropped.
    const aborted = new Promise<{ unavailable: string }>((resolve) =>
      signal.addEventListener('abort', () => resolve({ unavailable: 'the request was cancelled before an answer' }), { once: true }),
    );
    return Promise.race([elicit(form), aborted]);
  });
  queue = turn.catch(() => {});
  const answer = await turn.catch((err: unknown) => ({ unavailable: `the form failed: ${(err as Error).message}` }));
  if ('unavailable' in answer) return decline(answer.unavailable, signal.aborted ? 'cancel' : 'decline');
  if (answer.action !== 'accept') {
    log.info({ action: answer.action, fields: form.fields.length }, 'MCP elicitation answered');
    return { action: answer.action, _meta: { [REASON_KEY]: `the operator chose ${answer.action}` } };
  }
  const done = completeAnswer(form, answer.values);
  if ('error' in done) return decline(`the answer did not fit the form: ${done.error}`);
  // Field names only: the values are the operator's and may be private.
  log.info({ action: 'accept', fields: Object.keys(done.content) }, 'MCP elicitation answered');
  return { action: 'accept', content: done.content };
}
