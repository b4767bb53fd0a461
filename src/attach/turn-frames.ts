import type { SessionEvent } from '../store/event-log.ts';

/** The author of the model's and the tools' events, as the Go original's (ADK) events name their agent. */
export const AGENT_AUTHOR = 'core-agent';

export interface TypedFrame {
  event: 'agent' | 'turn-complete' | 'turn-error';
  data: Record<string, unknown>;
}

/**
 * The Go original's typed frames for a session's log, beside the log's own
 * frames on /events: what a client written against its wire (core-tui, and our
 * call_peer) reads to follow a turn and see it end.
 *
 * - `agent`: an ADK event `{author, partial, content: {role, parts}, timestamp}` for
 *   the user's message, each model response (`{text}` and `{functionCall}` parts)
 *   and each of the model's tool results (`{functionResponse}`); replayed too.
 * - `turn-complete` `{prompt_id, model, tokens_in, tokens_out, cost_usd, latency_ms}`
 *   when a turn ends, and `turn-error` `{kind, message, retryable}` when it fails
 *   or the watchdog cuts it: live only, as the Go daemon sends them (a client
 *   replaying an old session must not take its ended turns for new ones).
 *
 * One instance per stream: it follows the log in order (an inject's prompt id
 * becomes the next user message's, the last response names the model).
 */
export class TurnFrames {
  private readonly prompts: string[] = [];
  private promptId = '';
  private startedAt = Number.NaN;
  private model = '';

  of(e: SessionEvent, live: boolean): TypedFrame[] {
    const d = e.data;
    switch (e.kind) {
      case 'operator':
        if (d.action === 'inject' && typeof d.prompt_id === 'string') this.prompts.push(d.prompt_id);
        return [];
      case 'user':
        this.promptId = this.prompts.shift() ?? '';
        this.startedAt = Date.parse(e.at);
        return [agent(e, 'user', 'user', [{ text: String(d.text ?? '') }])];
      case 'response': {
        if (typeof d.model === 'string') this.model = d.model;
        const parts = modelParts(d.content);
        return parts.length > 0 ? [agent(e, AGENT_AUTHOR, 'model', parts)] : [];
      }
      case 'tool_result': {
        // Only the model's own calls are in its conversation (a `tools call` or a poll is not).
        if (d.source !== undefined && d.source !== 'model') return [];
        const response = d.ok === true ? { output: d.shown } : { error: (d.shown as { error?: unknown } | null)?.error ?? '' };
        return [agent(e, AGENT_AUTHOR, 'user', [{ functionResponse: { id: d.call_id, name: d.name, response } }])];
      }
      case 'turn_end': {
        if (!live) return [];
        if (d.status === 'cut')
          return [{ event: 'turn-error', data: { kind: 'watchdog', message: String(d.text ?? ''), retryable: false } }];
        const usage = (d.usage ?? {}) as { inputTokens?: unknown; outputTokens?: unknown; costUsd?: unknown };
        const latency = Date.parse(e.at) - this.startedAt;
        return [
          {
            event: 'turn-complete',
            data: {
              prompt_id: this.promptId,
              model: this.model,
              tokens_in: num(usage.inputTokens),
              tokens_out: num(usage.outputTokens),
              cost_usd: num(usage.costUsd),
              latency_ms: Number.isFinite(latency) ? Math.max(0, latency) : 0,
            },
          },
        ];
      }
      case 'error': {
        if (!live) return [];
        const cancelled = d.cancelled === true || d.interrupted === true;
        const kind = d.halted === true ? 'watchdog' : cancelled ? 'canceled' : 'unknown';
        return [{ event: 'turn-error', data: { kind, message: String(d.message ?? ''), retryable: false } }];
      }
      default:
        return [];
    }
  }
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

function agent(e: SessionEvent, author: string, role: 'user' | 'model', parts: Array<Record<string, unknown>>): TypedFrame {
  return { event: 'agent', data: { author, partial: false, content: { role, parts }, timestamp: e.at } };
}

/** A response's content (the AI SDK's text and tool-call parts) as ADK parts. */
function modelParts(content: unknown): Array<Record<string, unknown>> {
  if (!Array.isArray(content)) return [];
  const parts: Array<Record<string, unknown>> = [];
  for (const c of content as Array<Record<string, unknown> | null>) {
    if (c?.type === 'text' && typeof c.text === 'string' && c.text !== '') parts.push({ text: c.text });
    else if (c?.type === 'tool-call') parts.push({ functionCall: { id: c.toolCallId, name: c.toolName, args: parseArgs(c.input) } });
  }
  return parts;
}

function parseArgs(input: unknown): unknown {
  if (typeof input !== 'string') return input ?? {};
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}
