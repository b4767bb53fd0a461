import type {
  LanguageModelV4Content,
  LanguageModelV4Message,
  LanguageModelV4ToolCall,
  LanguageModelV4ToolResultPart,
} from '@ai-sdk/provider';
import { addUsage, ZERO_USAGE, type Usage } from '../model/pricing.ts';
import type { SessionEvent } from '../store/event-log.ts';
import { asPromptPart, toolResultPart } from './agent.ts';
import { compactedConversation } from './compaction.ts';

export interface RebuiltSession {
  messages: LanguageModelV4Message[];
  turn: number;
  usage: Usage;
  /** A turn was started (user message) and never ended: the loop should continue it. */
  openTurn: boolean;
  /** Tool calls of the last response that have no result (the process died while running them). */
  unanswered: LanguageModelV4ToolCall[];
  /** Script lines a replay model has already consumed. */
  replayPosition: number;
  /** The watchdog's state: a halt survives a restart, and so does the count of cut turns. */
  watchdog: { halted: string | null; cutTurns: number };
}

/**
 * Rebuild the conversation from the event log, exactly as the model saw it:
 * user messages, the model's responses, the tool results shown to it. Nothing
 * after the last committed event is assumed.
 */
export function rebuildSession(events: readonly SessionEvent[]): RebuiltSession {
  const messages: LanguageModelV4Message[] = [];
  let turn = 0;
  let usage: Usage = ZERO_USAGE;
  let openTurn = false;
  let lastCalls: LanguageModelV4ToolCall[] = [];
  let answered = new Set<string>();
  let replayPosition = 0;
  let toolParts: LanguageModelV4ToolResultPart[] | null = null;
  const watchdog = { halted: null as string | null, cutTurns: 0 };

  const closeToolMessage = () => {
    if (toolParts && toolParts.length > 0) {
      // Concurrent calls finish in any order; the model got the results in call order.
      const order = new Map(lastCalls.map((c, i) => [c.toolCallId, i]));
      toolParts.sort((a, b) => (order.get(a.toolCallId) ?? 0) - (order.get(b.toolCallId) ?? 0));
      messages.push({ role: 'tool', content: toolParts });
    }
    toolParts = null;
  };

  for (const e of events) {
    turn = Math.max(turn, e.turn);
    if (e.kind !== 'tool_result') closeToolMessage();
    switch (e.kind) {
      case 'user':
        messages.push({ role: 'user', content: [{ type: 'text', text: String(e.data.text) }] });
        openTurn = true;
        break;
      case 'response': {
        const content = (e.data.content ?? []) as Array<Extract<LanguageModelV4Content, { type: 'text' | 'tool-call' }>>;
        if ((e.data.finish_reason as { raw?: string } | undefined)?.raw !== 'replay-exhausted') replayPosition += 1;
        if (content.length > 0) messages.push({ role: 'assistant', content: content.map(asPromptPart) });
        lastCalls = content.filter((c): c is LanguageModelV4ToolCall => c.type === 'tool-call');
        answered = new Set();
        if (openTurn) usage = addUsage(usage, e.data.usage as Usage);
        break;
      }
      case 'tool_result': {
        // Only the model's own calls were shown to it: a poll (wait_and_verify's) or a
        // `tools call` / `mcp serve` call is on the record but never in the conversation.
        // Logs from before calls carried a source hold only the model's.
        if (e.data.source !== undefined && e.data.source !== 'model') break;
        const call = lastCalls.find((c) => c.toolCallId === e.data.call_id);
        if (!call) break;
        answered.add(call.toolCallId);
        toolParts ??= [];
        const shown = e.data.shown as Record<string, unknown>;
        toolParts.push(toolResultPart(call, e.data.ok ? { ok: true, result: shown as never } : { ok: false, error: String(shown.error) }));
        break;
      }
      case 'turn_end':
        // The turn's child agents' spend (their own responses are in their own sessions).
        if (e.data.delegated_usage) usage = addUsage(usage, e.data.delegated_usage as Usage);
        openTurn = false;
        lastCalls = [];
        if (e.data.status !== 'cut') watchdog.cutTurns = 0;
        break;
      case 'checkpoint':
        // Later requests started from the completion record, so the rebuilt conversation does too.
        messages.splice(0, messages.length, { role: 'user', content: [{ type: 'text', text: String(e.data.record) }] });
        break;
      case 'compaction': {
        // The compaction's model call used a script line (as a response does) and cost what it cost, whether it worked or not.
        const finish = e.data.finish_reason as { raw?: string } | undefined;
        if (finish && finish.raw !== 'replay-exhausted') replayPosition += 1;
        if (e.data.usage) usage = addUsage(usage, e.data.usage as Usage);
        // A failed one left the conversation as it was; a compaction kept the latest operator message when nothing followed it.
        if (e.data.ok === true) {
          const kept = e.data.kept_last === true ? messages.at(-1) : undefined;
          messages.splice(0, messages.length, ...compactedConversation(String(e.data.record), kept));
        }
        break;
      }
      case 'clear':
        messages.splice(0, messages.length);
        break;
      case 'watchdog':
        if (e.data.reset === true) {
          watchdog.halted = null;
          watchdog.cutTurns = 0;
        } else if (typeof e.data.cut_turns === 'number') {
          watchdog.cutTurns = e.data.cut_turns;
          watchdog.halted = e.data.halted === true ? String(e.data.reason) : null;
        }
        break;
      default:
        break;
    }
  }
  closeToolMessage();
  return {
    messages,
    turn,
    usage,
    openTurn,
    unanswered: openTurn ? lastCalls.filter((c) => !answered.has(c.toolCallId)) : [],
    replayPosition,
    watchdog,
  };
}
