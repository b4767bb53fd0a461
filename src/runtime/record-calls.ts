import type { EventLog } from '../store/event-log.ts';
import type { CallLog } from '../tools/framework/call-log.ts';

/**
 * The dispatcher's calls as tool_result events in one session of the event log,
 * in the shape the agent has always written (resume reads them back), plus who
 * made the call (`source`), the call that made it (`parent_call_id`) and, for a
 * failure, its kind (`failure`). Each event carries the session's turn at the
 * time the call ended.
 */
export function recordCalls(log: EventLog, sessionId: string, session: { readonly turn: number }): CallLog {
  return {
    record(call) {
      log.append(sessionId, session.turn, 'tool_result', {
        call_id: call.callId,
        name: call.name,
        args: call.args,
        ok: call.ok,
        // `raw` is null when it equals `shown` (the caps changed nothing).
        shown: call.ok ? (call.shown ?? null) : { error: call.error ?? '' },
        raw: call.ok ? (call.raw ?? null) : null,
        ...(call.rawRef ? { raw_ref: call.rawRef } : {}),
        ...(!call.ok && call.kind ? { failure: call.kind } : {}),
        source: call.source,
        ...(call.parentCallId ? { parent_call_id: call.parentCallId } : {}),
        ms: call.ms,
      });
    },
  };
}
