import * as z from 'zod/v4';
import type { FailureKind } from '../../core/failure.ts';
import { LIMITS } from '../framework/limits.ts';
import { JqCrashError, JqTimeoutError, sharedJqRunner } from '../shared/jq-runner.ts';
import { quoteArg } from '../framework/error-text.ts';
import { tidyJqMessage } from '../shared/jq-errors.ts';
import { kindTraits } from '../framework/kinds.ts';
import { defineTool, ToolError, type JsonObject, type JsonValue, type ToolContext, type ToolSummary } from '../framework/tool.ts';
import description from './wait-and-verify.md';
import { monotonicMs } from '../../util/monotonic.ts';

/** Built-in bounds; `tools.wait_and_verify` sets the ceilings (which also lower the defaults). */
export const WAIT_DEFAULTS = {
  interval_seconds: 5,
  timeout_seconds: 60,
  max_attempts: 60,
  max_timeout_seconds: 300,
  min_interval_seconds: 1,
} as const;

/** Never pollable, whatever their classification: itself (recursion) and a person (ask_user). */
const NEVER = new Set(['wait_and_verify', 'ask_user']);
/**
 * Failures no wait will fix: the gate (or a precheck, or path_scope) said no, or
 * the arguments are wrong. Anything else — not found yet, a tool error, a poll
 * cut by the budget — may change, so the wait goes on.
 */
const PERMANENT: ReadonlySet<FailureKind> = new Set<FailureKind>(['denied', 'invalid_args']);
/** Compiling an expression (never running it) takes milliseconds; this only bounds a pathological one. */
const JQ_COMPILE_MS = 5_000;
/** The most of the last result the model gets back; the full one is in the polled tool's own caps. */
const LAST_RESULT_BYTES = 4_000;
const TRAIL_HEAD = 10;
const TRAIL_TAIL = 30;

interface Observation {
  attempt: number;
  at_seconds: number;
  matched: boolean;
  error?: string;
}

const seconds = (n: number) => Math.round(n * 10) / 10;

export const waitAndVerifyTool = defineTool({
  name: 'wait_and_verify',
  description,
  kind: 'read',
  settings: z.strictObject({
    max_timeout_seconds: z
      .number()
      .positive()
      .max(3600)
      .default(WAIT_DEFAULTS.max_timeout_seconds)
      .describe('The longest wait a call may ask for (default 300); asking for more is an error.'),
    max_attempts: z
      .int()
      .min(1)
      .max(10_000)
      .default(WAIT_DEFAULTS.max_attempts)
      .describe('The most polls a call may ask for (default 60).'),
    min_interval_seconds: z
      .number()
      .min(0.01)
      .max(60)
      .default(WAIT_DEFAULTS.min_interval_seconds)
      .describe('Polls are at least this far apart (default 1); a shorter interval is raised to it.'),
    poll_allow: z
      .array(z.string().min(1))
      .default([])
      .describe('Tools (canonical or model-facing names) you vouch are safe to poll though not classified read-only.'),
  }),
  ownsCancellation: true,
  narrowHint: 'Poll a narrower tool call (one object, a field selector).',
  aliases: { arguments: 'args' },
  args: z
    .strictObject({
      tool: z.string().min(1).max(LIMITS.toolName).describe('The read-only tool to poll, by the name you call it.'),
      args_json: z.string().max(LIMITS.argsJson).optional().describe('Its arguments as a JSON object in a string.'),
      args: z
        .record(z.string().max(LIMITS.toolName), z.unknown())
        .optional()
        .describe('Its arguments as an object (instead of args_json).'),
      expect_jq: z
        .string()
        .min(1)
        .max(LIMITS.jqExpression)
        .optional()
        .describe('jq over the result; matches when every output is neither false nor null.'),
      expect_contains: z.string().min(1).max(LIMITS.needle).optional().describe('A substring the result’s JSON must contain.'),
      expect_not_contains: z.string().min(1).max(LIMITS.needle).optional().describe('A substring the result’s JSON must not contain.'),
      // The schema's ceilings are the recipe's (tools.wait_and_verify accepts at most 3600 s and 10,000 polls);
      // the operator's own, usually lower, are checked when the call runs.
      interval_seconds: z.number().positive().max(3600).optional().describe('Between polls (default 5).'),
      timeout_seconds: z.number().positive().max(3600).optional().describe('The whole wait (default 60).'),
      max_attempts: z.int().min(1).max(10_000).optional().describe('Polls at most (default 60).'),
    })
    .refine((a) => a.expect_jq !== undefined || a.expect_contains !== undefined || a.expect_not_contains !== undefined, {
      message: 'give a condition: expect_jq, expect_contains or expect_not_contains (a poll without one is just a sleep)',
    })
    .refine((a) => a.args_json === undefined || a.args === undefined, { message: 'give args_json or args, not both' }),
  deadlineMs: (args, settings) => (bounds(args, settings).timeoutS + 30) * 1000,
  async run(args, ctx) {
    const b = bounds(args, ctx.settings);
    if (b.refusal) throw new ToolError(b.refusal);
    const target = pollTarget(args.tool, ctx);
    const toolArgs = parseArgs(args.args_json, args.args);
    const started = monotonicMs();
    const elapsed = () => (monotonicMs() - started) / 1000;
    // The budget covers everything the wait does: the compile check, each poll and each evaluation.
    const leftMs = () => Math.max(1, Math.ceil((b.timeoutS - elapsed()) * 1000));
    if (args.expect_jq !== undefined) await checkJq(args.expect_jq, ctx.signal, Math.min(JQ_COMPILE_MS, leftMs()));
    const condition = describeCondition(args);

    const observations: Observation[] = [];
    let lastResult: JsonObject | undefined;
    let lastError: string | undefined;
    let outcome: 'verified' | 'timeout' | 'attempts_exhausted' | 'canceled' = 'timeout';
    for (let attempt = 1; ; attempt++) {
      if (ctx.signal.aborted) {
        outcome = 'canceled';
        break;
      }
      // Each poll ends when the wait does: a hung poll cannot outlast the budget.
      const pollSignal = AbortSignal.any([ctx.signal, AbortSignal.timeout(leftMs())]);
      const at = seconds(elapsed());
      const r = await ctx.callTool(target.modelName, toolArgs, pollSignal, { digest: false });
      if (r.ok) {
        lastResult = r.result;
        lastError = undefined;
        // The condition runs on what is left of the budget: a runaway expression ends the wait on time.
        const verdict = await judge(args, r.result, attempt, leftMs(), ctx.signal);
        if (ctx.signal.aborted) {
          outcome = 'canceled';
          break;
        }
        if ('unfinished' in verdict) {
          lastError = verdict.unfinished;
          observations.push({ attempt, at_seconds: at, matched: false, error: verdict.unfinished });
          outcome = 'timeout'; // the evaluation used the rest of the budget
          break;
        }
        observations.push({ attempt, at_seconds: at, matched: verdict.matched });
        if (verdict.matched) {
          outcome = 'verified';
          break;
        }
      } else {
        // A refusal or a bad argument will be the same on every attempt: stop, don't burn the budget.
        if (PERMANENT.has(r.kind)) throw new ToolError(`polling ${target.modelName} cannot succeed: ${r.error}`, r.kind);
        lastError = r.error;
        observations.push({ attempt, at_seconds: at, matched: false, error: r.error.slice(0, 300) });
      }
      if (attempt >= b.attempts) {
        outcome = 'attempts_exhausted';
        break;
      }
      if (elapsed() + b.intervalS > b.timeoutS) {
        outcome = 'timeout';
        break;
      }
      if (!(await sleep(b.intervalS * 1000, ctx.signal))) {
        outcome = 'canceled';
        break;
      }
    }

    const result: JsonObject = {
      verified: outcome === 'verified',
      outcome,
      tool: target.modelName,
      condition,
      attempts: observations.length,
      interval_seconds: b.intervalS,
      timeout_seconds: b.timeoutS,
      elapsed_seconds: seconds(elapsed()),
      observations: trail(observations),
    };
    if (lastResult !== undefined) Object.assign(result, lastResultField(lastResult));
    if (lastError !== undefined && outcome !== 'verified') result.last_error = lastError;
    return result;
  },
});

interface Bounds {
  intervalS: number;
  timeoutS: number;
  attempts: number;
  refusal?: string;
}

/** The budget: a request past a ceiling is refused; an interval below the floor is raised (and reported). */
function bounds(
  args: { interval_seconds?: number | undefined; timeout_seconds?: number | undefined; max_attempts?: number | undefined },
  settings: { readonly max_timeout_seconds: number; readonly max_attempts: number; readonly min_interval_seconds: number },
): Bounds {
  const { max_timeout_seconds: maxTimeout, max_attempts: maxAttempts, min_interval_seconds: minInterval } = settings;
  const timeoutS = args.timeout_seconds ?? Math.min(WAIT_DEFAULTS.timeout_seconds, maxTimeout);
  const attempts = args.max_attempts ?? Math.min(WAIT_DEFAULTS.max_attempts, maxAttempts);
  const intervalS = Math.max(args.interval_seconds ?? WAIT_DEFAULTS.interval_seconds, minInterval);
  const out: Bounds = { intervalS, timeoutS: Math.min(timeoutS, maxTimeout), attempts };
  if (timeoutS > maxTimeout) {
    out.refusal = `timeout_seconds ${timeoutS} is above the operator's ceiling of ${maxTimeout} (tools.wait_and_verify.max_timeout_seconds); ask for at most ${maxTimeout}, or use schedule_next_turn for longer waits`;
  } else if (attempts > maxAttempts) {
    out.refusal = `max_attempts ${attempts} is above the operator's ceiling of ${maxAttempts} (tools.wait_and_verify.max_attempts)`;
  }
  return out;
}

/** Only a registered read-only tool, never itself or ask_user, and operator-vouched names. */
function pollTarget(name: string, ctx: ToolContext<{ readonly poll_allow: readonly string[] }>): { modelName: string } {
  const tool = ctx.lookupTool(name);
  const pollAllow = ctx.settings.poll_allow;
  const pollable = (t: ToolSummary) =>
    !NEVER.has(t.name) && (kindTraits(t.kind).readOnly || pollAllow.includes(t.name) || pollAllow.includes(t.modelName));
  if (!tool) {
    const names = ctx
      .listTools()
      .filter(pollable)
      .map((t) => t.modelName);
    throw new ToolError(`no tool named ${quoteArg(name)} to poll; pollable tools: ${names.join(', ') || '(none)'}`, 'unknown_tool');
  }
  if (NEVER.has(tool.name)) throw new ToolError(`${tool.modelName} cannot be polled`);
  if (!pollable(tool)) {
    throw new ToolError(
      `${tool.modelName} changes state, so it cannot be polled (a loop that writes is an amplifier, not a verifier); poll a read-only tool that observes the result instead`,
    );
  }
  return { modelName: tool.modelName };
}

function parseArgs(argsJson: string | undefined, args: Record<string, unknown> | undefined): Record<string, unknown> {
  if (args !== undefined) return args;
  if (argsJson === undefined || argsJson.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(argsJson);
  } catch (err) {
    throw new ToolError(`args_json is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ToolError('args_json must be a JSON object');
  return parsed as Record<string, unknown>;
}

/**
 * A malformed expression fails the same way on every attempt: refuse it before
 * the first poll. jq given no input compiles the program and runs it zero times,
 * so a runaway expression is checked in milliseconds rather than run.
 */
async function checkJq(expression: string, signal: AbortSignal, timeoutMs: number): Promise<void> {
  const r = await runJq('', expression, signal, timeoutMs);
  if (r.exitCode === 3) throw new ToolError(`expect_jq is not a valid jq expression: ${tidyJqMessage(r.stderr)}`);
}

/**
 * Whether a result satisfies the conditions; `unfinished` when the budget ran out
 * while expect_jq was still evaluating — recorded as that attempt's error, like a
 * poll that did not finish in time, and the wait ends as a timeout.
 */
async function judge(
  args: { expect_jq?: string | undefined; expect_contains?: string | undefined; expect_not_contains?: string | undefined },
  result: JsonObject,
  attempt: number,
  budgetMs: number,
  signal: AbortSignal,
): Promise<{ matched: boolean } | { unfinished: string }> {
  // An MCP tool's result is often `{text: "<JSON>"}`: substrings are looked for in that text
  // itself (no escaped quotes), and jq sees the JSON inside when it is JSON.
  const only = Object.keys(result).length === 1 && typeof result.text === 'string' ? result.text : undefined;
  const text = only ?? JSON.stringify(result);
  if (args.expect_contains !== undefined && !text.includes(args.expect_contains)) return { matched: false };
  if (args.expect_not_contains !== undefined && text.includes(args.expect_not_contains)) return { matched: false };
  if (args.expect_jq === undefined) return { matched: true };
  let r;
  try {
    r = await sharedJqRunner.run(
      JSON.stringify(only === undefined ? result : parsedOr(only, result)),
      args.expect_jq,
      budgetMs,
      64 * 1024,
      signal,
    );
  } catch (err) {
    if (err instanceof JqTimeoutError) {
      return {
        unfinished: `expect_jq was still running when the wait's budget ran out (${seconds(budgetMs / 1000)} s were left) and was stopped`,
      };
    }
    if (err instanceof JqCrashError) throw new ToolError(`expect_jq failed on attempt ${attempt}: ${err.message}`);
    throw err;
  }
  if (r.exitCode !== 0) {
    // The expression cannot be evaluated on what the tool returns: it will not improve with waiting.
    throw new ToolError(`expect_jq failed on attempt ${attempt}: ${tidyJqMessage(r.stderr) || `jq exited with status ${r.exitCode}`}`);
  }
  const outputs = r.stdout.length === 0 ? [] : r.stdout.split('\n').map((l) => JSON.parse(l) as JsonValue);
  return { matched: outputs.length > 0 && outputs.every((v) => v !== false && v !== null) };
}

/** The JSON a text holds, or `fallback` when it holds none. */
function parsedOr(text: string, fallback: JsonObject): JsonValue {
  const t = text.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return fallback;
  try {
    return JSON.parse(t) as JsonValue;
  } catch {
    return fallback;
  }
}

async function runJq(input: string, expression: string, signal: AbortSignal, timeoutMs: number) {
  try {
    return await sharedJqRunner.run(input, expression, timeoutMs, 64 * 1024, signal);
  } catch (err) {
    if (err instanceof JqTimeoutError || err instanceof JqCrashError) throw new ToolError(`expect_jq: ${err.message}`);
    throw err;
  }
}

function describeCondition(a: {
  expect_jq?: string | undefined;
  expect_contains?: string | undefined;
  expect_not_contains?: string | undefined;
}): string {
  const parts: string[] = [];
  if (a.expect_jq !== undefined) parts.push(`expect_jq=${a.expect_jq}`);
  if (a.expect_contains !== undefined) parts.push(`expect_contains=${JSON.stringify(a.expect_contains)}`);
  if (a.expect_not_contains !== undefined) parts.push(`expect_not_contains=${JSON.stringify(a.expect_not_contains)}`);
  return parts.join(' AND ');
}

/** The first and last observations when there are many (the middle is the same story). */
function trail(obs: Observation[]): JsonValue[] {
  const plain = (o: Observation): JsonObject => ({ ...o });
  if (obs.length <= TRAIL_HEAD + TRAIL_TAIL) return obs.map(plain);
  return [...obs.slice(0, TRAIL_HEAD).map(plain), { omitted: obs.length - TRAIL_HEAD - TRAIL_TAIL }, ...obs.slice(-TRAIL_TAIL).map(plain)];
}

function lastResultField(r: JsonObject): JsonObject {
  const text = JSON.stringify(r);
  if (Buffer.byteLength(text) <= LAST_RESULT_BYTES) return { last_result: r };
  return { last_result_head: text.slice(0, LAST_RESULT_BYTES), last_result_bytes: Buffer.byteLength(text) };
}

/** false when the signal ended the sleep. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
