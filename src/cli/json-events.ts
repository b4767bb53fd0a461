import * as z from 'zod/v4';
import { INLINE_LIMIT_CHARS, JSON_STREAM_SCHEMA_VERSION, PREVIEW_CHARS } from './json-stream-limits.ts';

/**
 * The `run -o json` event stream, version 1 (docs/json-stream.md is its prose).
 * JsonRenderer builds every line through `JSON_EVENT`, so the stream, this schema
 * and the type scripts can import cannot drift apart: a field added to an event
 * without adding it here fails the renderer's parse (the objects are strict).
 * Consumers should ignore event types and fields they do not know: adding either
 * is not a new version; renaming, removing or retyping a field is.
 */
export { INLINE_LIMIT_CHARS, JSON_STREAM_SCHEMA_VERSION, PREVIEW_CHARS };

const ts = z.iso.datetime({ offset: false }).describe('when the event was written, ISO 8601 UTC with milliseconds');
const base = { ts };
const elided = z.strictObject({ chars: z.number().int().positive(), preview: z.string().max(PREVIEW_CHARS) });
const record = z.record(z.string(), z.unknown());
const camelUsage = z.strictObject({
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  costUsd: z.number().nullable(),
  /** Calls counted here whose server reported no usage: their tokens, and so the cost, are estimated from the text. */
  estimatedCalls: z.number().int().positive().optional(),
});

const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.strictObject({ type: z.literal(type), ...base, ...shape });

export const SESSION_EVENT = event('session', {
  schema_version: z.literal(JSON_STREAM_SCHEMA_VERSION),
  id: z.string(),
  model: z.string(),
  resumed: z.boolean(),
});

export const TOOL_START_EVENT = event('tool_start', {
  id: z.string(),
  name: z.string(),
  /** The arguments as an object; null when the model's text is not a JSON object (see args_raw) or too large (args_elided). */
  args: record.nullable(),
  args_raw: z.string().max(PREVIEW_CHARS).optional(),
  args_elided: elided.optional(),
});

export const TOOL_END_EVENT = event('tool_end', {
  id: z.string(),
  name: z.string(),
  ok: z.boolean(),
  ms: z.number().int().min(0),
  /** What the model was shown (ok calls), unless above INLINE_LIMIT_CHARS (result_elided). */
  result: record.optional(),
  result_elided: elided.optional(),
  /** The output caps cut the result the model saw. */
  truncated: z.literal(true).optional(),
  /** The result is a digest; the raw payload is in the session store (retrieve_raw). */
  digest: z.strictObject({ raw_ref: z.string() }).optional(),
  /** Failed calls: the message the model got (at most 8,000 characters) and the failure kind. */
  error: z.string().optional(),
  kind: z.string().optional(),
});

export const JSON_EVENT = z.discriminatedUnion('type', [
  SESSION_EVENT,
  event('text', { text: z.string() }),
  TOOL_START_EVENT,
  TOOL_END_EVENT,
  event('retry', {
    attempt: z.number().int().positive(),
    attempts: z.number().int().positive(),
    delay_ms: z.number().int().min(0),
    reason: z.string().max(200),
  }),
  event('step_limit', { steps: z.number().int().positive() }),
  event('watchdog', {
    alert: z.strictObject({ signal: z.string(), severity: z.enum(['warn', 'critical']), reason: z.string(), guidance: z.string() }),
    action: z.enum(['logged', 'feedback', 'cut']),
  }),
  event('checkpoint', { detail: z.string() }),
  event('compaction', {
    /** auto: the conversation neared the context window; manual: the operator's /compact. */
    trigger: z.enum(['auto', 'manual']),
    /** false: the compaction failed and the conversation is as it was (error says why). */
    ok: z.boolean(),
    /** The conversation's size before (the provider's count of the last request, estimated since) and after (estimated). */
    tokens_before: z.number().int().min(0),
    tokens_after: z.number().int().min(0).optional(),
    error: z.string().max(400).optional(),
  }),
  event('plan', {
    plan: z.array(z.strictObject({ step: z.string(), status: z.enum(['pending', 'in_progress', 'completed']) })),
    explanation: z.string().optional(),
  }),
  /** A child agent started (spawn_agent and its kin): its own session in the event log, `parent` the session that spawned it. */
  event('agent_start', { name: z.string(), profile: z.string(), session: z.string(), parent: z.string().nullable(), model: z.string() }),
  /** A child agent ended; its cost (by its own model, null when unpriced) is already in the parent's usage. */
  event('agent_end', {
    name: z.string(),
    profile: z.string(),
    session: z.string(),
    status: z.enum(['running', 'done', 'stopped', 'error']),
    stop_reason: z.string().nullable(),
    turns: z.number().int().min(0),
    cost_usd: z.number().min(0).nullable(),
  }),
  event('sleep', { until: z.iso.datetime(), detail: z.string().optional() }),
  event('log_error', { message: z.string() }),
  event('turn_end', { status: z.string(), text: z.string(), steps: z.number().int().min(0), usage: camelUsage, session_usage: camelUsage }),
  event('unanswered_questions', {
    message: z.string(),
    questions: z.array(z.strictObject({ id: z.string(), header: z.string(), question: z.string() }).loose()),
  }),
  event('cancelled', { reason: z.literal('SIGINT') }),
  event('error', {
    message: z.string(),
    /** The exit status the run ends with (the same as the process's). */
    exit: z.number().int().min(1),
  }),
  event('result', {
    session: z.string(),
    status: z.enum(['done', 'step_limit', 'script_ended', 'cut', 'halted', 'cost_limit', 'error', 'cancelled']),
    is_error: z.boolean(),
    exit: z.number().int().min(0),
    duration_ms: z.number().int().min(0),
    /** This run's model usage (a resumed session's earlier runs are not counted). */
    usage: z.strictObject({
      input_tokens: z.number().int().min(0),
      output_tokens: z.number().int().min(0),
      /** This run's calls whose server reported no usage: their tokens (and cost) are estimated from the text. */
      estimated_calls: z.number().int().positive().optional(),
    }),
    /** USD for this run; null when the model has no price entry (never a guess). */
    cost_usd: z.number().min(0).nullable(),
  }),
  event('exit', { status: z.number().int().min(0), session: z.string().optional() }),
]);

export type JsonEvent = z.infer<typeof JSON_EVENT>;
/** What the renderer is handed: every event but its timestamp, which the renderer stamps. */
export type JsonEventBody = JsonEvent extends infer E ? (E extends JsonEvent ? Omit<E, 'ts'> : never) : never;

/** A value inlined when its JSON is small enough, else its size and the head of its JSON text. */
export function inlineOrElide(value: Record<string, unknown>): { value: Record<string, unknown> } | { elided: z.infer<typeof elided> } {
  const text = JSON.stringify(value);
  return text.length <= INLINE_LIMIT_CHARS ? { value } : { elided: { chars: text.length, preview: text.slice(0, PREVIEW_CHARS) } };
}

/** tool_start's argument fields from the model's raw argument text (a JSON object, usually). */
export function argsFields(raw: string): Pick<z.infer<typeof TOOL_START_EVENT>, 'args' | 'args_raw' | 'args_elided'> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { args: null, args_raw: raw.slice(0, PREVIEW_CHARS) };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { args: null, args_raw: raw.slice(0, PREVIEW_CHARS) };
  const shown = inlineOrElide(parsed as Record<string, unknown>);
  return 'value' in shown ? { args: shown.value } : { args: null, args_elided: shown.elided };
}
