// The `run -o json` renderer, apart from render.ts: it parses every line through the stream's zod
// schema (json-events.ts), which a run rendering text never evaluates (run-command.ts imports
// this module only for -o json).
import type { AgentEvent } from '../agent/agent.ts';
import { argsFields, inlineOrElide, JSON_EVENT, type JsonEventBody } from './json-events.ts';
import type { Io } from './usage.ts';
import type { SecretValues } from '../util/secret-values.ts';

/**
 * JSON Lines for programs (docs/json-stream.md): one event a line, each built
 * through the zod schema in json-events.ts and stamped with its time.
 */
export class JsonRenderer {
  constructor(
    private readonly io: Io,
    private readonly now: () => Date = () => new Date(),
    /** Values masked in every line (a model's text, an error), on top of the dispatcher's masking of results. */
    private readonly secrets?: SecretValues,
  ) {}

  /** Parsing is the drift check: an event the schema does not describe fails here, in the tests, not in a script. */
  line(body: JsonEventBody): void {
    const event = JSON_EVENT.parse({ ...body, ts: this.now().toISOString() });
    const line = JSON.stringify(event);
    this.io.out(`${this.secrets ? this.secrets.mask(line) : line}\n`);
  }

  /** Deltas are for terminals; programs get each response's whole text once. */
  onEvent = (e: AgentEvent): void => {
    switch (e.type) {
      case 'text_delta':
        return;
      case 'tool_start':
        return this.line({ type: 'tool_start', id: e.id, name: e.name, ...argsFields(e.args) });
      case 'tool_end': {
        const shown = e.result ? inlineOrElide(e.result) : undefined;
        return this.line({
          type: 'tool_end',
          id: e.id,
          name: e.name,
          ok: e.ok,
          ms: e.ms,
          ...(shown ? ('value' in shown ? { result: shown.value } : { result_elided: shown.elided }) : {}),
          ...(e.truncated ? { truncated: true as const } : {}),
          ...(e.rawRef ? { digest: { raw_ref: e.rawRef } } : {}),
          ...(e.error !== undefined ? { error: e.error } : {}),
          ...(e.kind ? { kind: e.kind } : {}),
        });
      }
      case 'retry':
        return this.line({ type: 'retry', attempt: e.attempt, attempts: e.attempts, delay_ms: e.delayMs, reason: e.reason });
      case 'compaction':
        return this.line({
          type: 'compaction',
          trigger: e.trigger,
          ok: e.ok,
          tokens_before: e.tokensBefore,
          ...(e.tokensAfter !== undefined ? { tokens_after: e.tokensAfter } : {}),
          ...(e.error !== undefined ? { error: e.error.slice(0, 400) } : {}),
        });
      case 'agent_end':
        return this.line({
          type: 'agent_end',
          name: e.name,
          profile: e.profile,
          session: e.session,
          status: e.status,
          stop_reason: e.stopReason,
          turns: e.turns,
          cost_usd: e.costUsd,
        });
      default:
        // text, step_limit, agent_start, watchdog, checkpoint, plan: the same fields as the agent's event.
        return this.line(e);
    }
  };
}
