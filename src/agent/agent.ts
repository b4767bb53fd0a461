import type {
  LanguageModelV4Content,
  LanguageModelV4FunctionTool,
  LanguageModelV4Message,
  LanguageModelV4ToolCall,
  LanguageModelV4ToolResultPart,
} from '@ai-sdk/provider';
import type { Catalog } from '../tools/framework/catalog.ts';
import type { Dispatcher, ToolCallResult } from '../tools/framework/dispatch.ts';
import type { HookEvent, HookFields, HookSink, HookUsage } from '../tools/framework/hooks.ts';
import type { EventLog } from '../store/event-log.ts';
import type { CallOptions, ChatModel, GenerateResult } from '../model/model.ts';
import { withEstimate } from '../model/usage-estimate.ts';
import { streamGenerate } from '../model/stream.ts';
import { onRetries, type RetryNotice } from '../model/retry.ts';
import { addUsage, usageOf, ZERO_USAGE, type Price, type Usage } from '../model/pricing.ts';
import type { PlanStep, SessionState } from '../tools/framework/session.ts';
import { completionRecord, type CallFacts, type PendingCheckpoint } from './checkpoint.ts';
import { kindTraits } from '../tools/framework/kinds.ts';
import {
  compactedConversation,
  compactionRequest,
  DEFAULT_COMPACT_AT,
  estimateTokens,
  missingSections,
  promptTokens,
  type ContextLimit,
} from './compaction.ts';
import type { Alert, Watchdog } from './watchdog.ts';
import type { FailureKind } from '../core/failure.ts';
import type { JsonObject } from '../core/json.ts';
import { monotonicMs } from '../util/monotonic.ts';

/** What the loop reports as it goes (for live output); everything is also in the event log. */
export type AgentEvent =
  | { type: 'text'; text: string }
  /** Streaming only: a piece of the text as it arrives; the whole text follows as `text`. */
  | { type: 'text_delta'; delta: string }
  | { type: 'tool_start'; id: string; name: string; args: string }
  /**
   * A call finished. `result` is what the model was shown (capped, or the digest);
   * `truncated` says the caps cut it, `rawRef` that it is a digest whose raw payload
   * retrieve_raw returns; `kind` says why a failed call failed.
   */
  | {
      type: 'tool_end';
      id: string;
      name: string;
      ok: boolean;
      ms: number;
      error?: string;
      kind?: FailureKind;
      result?: JsonObject;
      truncated?: boolean;
      rawRef?: string;
    }
  /** A model call failed in a way retrying can fix; the next attempt follows after `delayMs`. */
  | ({ type: 'retry' } & RetryNotice)
  | { type: 'step_limit'; steps: number }
  | { type: 'watchdog'; alert: Alert; action: 'logged' | 'feedback' | 'cut' }
  | { type: 'checkpoint'; detail: string }
  /**
   * The conversation was compacted into a completion record (ok), or a compaction
   * failed and the conversation is as it was (`error` says why). `trigger`: auto
   * (it neared the context window) or manual (/compact).
   */
  | {
      type: 'compaction';
      trigger: 'auto' | 'manual';
      ok: boolean;
      tokensBefore: number;
      tokensAfter?: number;
      error?: string;
    }
  /** update_plan replaced the turn's checklist (it is gone when the turn ends). */
  | { type: 'plan'; plan: PlanStep[]; explanation?: string }
  /** A child agent of this session (or of one of its children) started: its own session in the event log. */
  | { type: 'agent_start'; name: string; profile: string; session: string; parent: string | null; model: string }
  /** A child agent ended; its cost (by its own model) is already in this session's usage. */
  | {
      type: 'agent_end';
      name: string;
      profile: string;
      session: string;
      status: 'running' | 'done' | 'stopped' | 'error';
      stopReason: string | null;
      turns: number;
      costUsd: number | null;
    };

/**
 * done: the model answered. step_limit: it answered after the step limit took its
 * tools away. script_ended: a replay script ran out. cut: the watchdog (enforce)
 * ended the turn. halted: the watchdog has halted the agent; nothing ran.
 */
export type TurnStatus = 'done' | 'step_limit' | 'script_ended' | 'cut' | 'halted' | 'cost_limit';

export interface TurnResult {
  status: TurnStatus;
  text: string;
  steps: number;
  usage: Usage;
}

export interface AgentOptions {
  model: ChatModel;
  dispatcher: Dispatcher;
  catalog: Catalog;
  instructions: string;
  log: EventLog;
  sessionId: string;
  /** Model calls with tools per turn before the model is asked to answer without them. */
  maxSteps?: number;
  onEvent?: (e: AgentEvent) => void;
  /** The dispatcher's session (default: the dispatcher's own): the agent advances its turn counter. */
  session?: SessionState;
  /** mark_task_done's pending request, acted on when a turn ends. */
  checkpoints?: PendingCheckpoint;
  watchdog?: Watchdog;
  /** Use the model's streaming interface, reporting text as it arrives (default true). */
  stream?: boolean;
  /** The recipe's hooks: the turn's and the model calls' events (the dispatcher fires the tool ones, agent-step the session's). */
  hooks?: HookSink | undefined;
  /**
   * The model's price (model registry or recipe). Absent: a replay model is free
   * and any other has an unknown cost; null: unknown.
   */
  price?: Price | null | undefined;
  /** The context window and the fraction at which the conversation is compacted (default: unknown window, no automatic compaction). */
  context?: ContextLimit | undefined;
  /** Messages for the model that arrived on their own (a child agent's report), taken before each model call. */
  inbox?: (() => string[]) | undefined;
  /**
   * --max-session-cost-usd: past it (the session's cost, its child agents' included), no further
   * model call is made: the turn ends as `cost_limit`, and the children are stopped (overBudget).
   */
  maxSessionCostUsd?: number | undefined;
}

export type CompactionOutcome =
  { ok: true; tokensBefore: number; tokensAfter: number } | { ok: false; tokensBefore: number; error: string };

export const DEFAULT_MAX_STEPS = 50;

/** A prompt or an answer in a hook's envelope is cut here (sciontool keeps 64 KiB of a reply). */
const HOOK_TEXT_CHARS = 64 * 1024;

const STEP_LIMIT_NOTE =
  'You have reached the tool-call limit for this turn. Do not call any more tools: answer now with what you have found, and say what is left undone.';

/**
 * The loop: one turn = the user's message, then model calls until the model
 * answers without calling a tool. Tool calls from one response run through the
 * dispatcher (the same gated, capped path as any call): consecutive read-only
 * calls concurrently, any other call alone and in order. A tool error goes back
 * to the model as a result; it never ends the turn. Past the step limit the model
 * is asked once more, with tools withheld, for a final answer.
 */
export class Agent {
  private readonly messages: LanguageModelV4Message[] = [];
  private turnNumber = 0;
  private sessionUsage: Usage = ZERO_USAGE;
  /** The running turn's own model calls so far (live, for a budget read mid-turn). */
  private turnUsage: Usage = ZERO_USAGE;
  /** What child agents spent since the last turn_end: rolled into the next one (its cost is the turn's). */
  private delegatedUsage: Usage = ZERO_USAGE;
  private readonly maxSteps: number;
  /** The running (or last) turn's answered model calls that had tools: what maxSteps bounds. */
  private toolSteps = 0;

  private readonly session: SessionState;
  /** The provider's input + output tokens for the last request, and how many messages that covered. */
  private measured: { tokens: number; messages: number } | null = null;
  /** A failed automatic compaction is not retried in the same turn (each try is a model call). */
  private autoCompactionFailed = false;
  /** What a checkpoint's record asks of a call, from the catalog's definitions (never a tool's name). */
  private readonly callFacts: CallFacts = {
    fileEdit: (tool) => {
      const t = this.opts.catalog.get(tool);
      return t !== undefined && kindTraits(t.kind).fileEdit;
    },
    plan: (tool, args) => {
      const text: unknown = this.opts.catalog.get(tool)?.def.planText?.(args as never);
      return typeof text === 'string' ? text : undefined;
    },
  };

  constructor(private readonly opts: AgentOptions) {
    this.maxSteps = opts.maxSteps ?? DEFAULT_MAX_STEPS;
    // The call log stamps each tool result with the session's turn: the agent keeps it current.
    this.session = opts.session ?? opts.dispatcher.session;
    // The dispatcher writes the tool results (the one writer of every call); unrecorded,
    // a session could not be resumed, so that is refused here rather than found out later.
    if (!opts.dispatcher.recording) throw new Error('the agent needs a dispatcher that records its calls (Dispatcher.recordTo)');
    // A provider's retries are waits the operator should see (5 attempts can take many seconds).
    onRetries(opts.model, (notice) => opts.onEvent?.({ type: 'retry', ...notice }));
  }

  /** The session's usage so far, the running turn's calls and its children's spend included. */
  get usage(): Usage {
    return addUsage(addUsage(this.sessionUsage, this.turnUsage), this.delegatedUsage);
  }

  /**
   * A child agent's spend (priced by its own model), rolled up: it counts in this session's
   * usage at once (a budget or /stats reads it mid-turn) and is recorded with the turn that
   * ends next, so a resumed session counts it too.
   */
  addDelegatedUsage(usage: Usage): void {
    this.delegatedUsage = addUsage(this.delegatedUsage, usage);
  }

  /** Whether the session's cost (its children's included) has passed --max-session-cost-usd. An unpriced session is never over. */
  overBudget(): boolean {
    const max = this.opts.maxSessionCostUsd;
    const cost = this.usage.costUsd;
    return max !== undefined && cost !== null && cost > max;
  }

  /** An event from outside the loop that belongs in this session's live output (a child agent started or ended). */
  report(e: AgentEvent): void {
    this.opts.onEvent?.(e);
  }

  get turn(): number {
    return this.turnNumber;
  }

  /**
   * The running (or last) turn's model calls that were offered tools and answered, live: what
   * maxSteps bounds (a child's max_turns). The answer asked for without tools past the limit is
   * not one; a call still in flight when the turn is stopped is not either.
   */
  get stepsWithTools(): number {
    return this.toolSteps;
  }

  /**
   * Carry the conversation on with another model (the REPL's /model): recorded, and the
   * session's model becomes it, so --resume continues on it. Each response is priced by
   * the model that gave it, so the session's cost keeps both.
   */
  useModel(model: ChatModel, spec: string, limits: { price: Price | null | undefined; window: number | null }): void {
    this.record('model_switch', { from: `${this.opts.model.provider}:${this.opts.model.modelId}`, to: spec });
    this.opts.log.setModel(this.opts.sessionId, spec);
    this.opts.model = model;
    // The new model's own price and window: its turns are priced, and the conversation compacted, by them.
    this.opts.price = limits.price;
    this.opts.context = { window: limits.window, compactAt: this.opts.context?.compactAt ?? DEFAULT_COMPACT_AT };
    onRetries(model, (notice) => this.opts.onEvent?.({ type: 'retry', ...notice }));
  }

  /** Continue a session from its event log (see resume.ts). */
  restore(messages: LanguageModelV4Message[], turn: number, usage: Usage): void {
    this.messages.splice(0, this.messages.length, ...messages);
    this.turnNumber = turn;
    this.session.turn = turn; // an interrupted turn continues as the same turn
    this.sessionUsage = usage;
  }

  async runTurn(prompt: string, signal?: AbortSignal): Promise<TurnResult> {
    const halted = this.opts.watchdog?.halted;
    if (halted) return { status: 'halted', text: halted, steps: 0, usage: ZERO_USAGE };
    this.turnNumber += 1;
    this.session.turn = this.turnNumber;
    this.autoCompactionFailed = false;
    const feedback = this.opts.watchdog?.takeFeedback() ?? null;
    const text = feedback ? `${feedback}\n\n---\n\n${prompt}` : prompt;
    this.record('user', { text });
    this.messages.push({ role: 'user', content: [{ type: 'text', text }] });
    // New work: an orchestrator clears a sticky state (Scion's completed) on it.
    await this.fire('prompt-submit', { prompt: prompt.slice(0, HOOK_TEXT_CHARS) });
    return this.continueTurn(signal);
  }

  /**
   * Run model steps until the model stops calling tools (also the entry point
   * after a resume). agent-start and agent-end bracket it however it ends — an
   * answer, a failed model call, a cancel — so a watcher never sees a turn that
   * stays started.
   */
  async continueTurn(signal?: AbortSignal): Promise<TurnResult> {
    await this.fire('agent-start');
    let ended: { status: string; text: string } = { status: 'failed', text: '' };
    try {
      const result = await this.runSteps(signal);
      ended = result;
      return result;
    } catch (err) {
      if (signal?.aborted) ended = { status: 'cancelled', text: '' };
      throw err;
    } finally {
      await this.fire('agent-end', {
        status: ended.status,
        ...(ended.text ? { last_assistant_message: ended.text.slice(0, HOOK_TEXT_CHARS) } : {}),
      });
    }
  }

  private async runSteps(signal?: AbortSignal): Promise<TurnResult> {
    let usage: Usage = ZERO_USAGE;
    this.turnUsage = usage;
    this.toolSteps = 0;
    let text = '';
    for (let step = 1; ; step++) {
      // Stopped (shutdown, a session deadline): the turn stays open in the log and --resume continues it.
      signal?.throwIfAborted();
      if (this.overBudget()) {
        const spent = (this.usage.costUsd ?? 0).toFixed(4);
        const text = `stopped: the session has cost $${spent}, past --max-session-cost-usd ${this.opts.maxSessionCostUsd}; no further model call was made (raise the limit to continue)`;
        return this.endTurn('cost_limit', text, step - 1, usage, null);
      }
      this.deliverInbox();
      const limitReached = step > this.maxSteps;
      if (limitReached) this.opts.onEvent?.({ type: 'step_limit', steps: this.maxSteps });
      const compacted = await this.compactIfNear(signal);
      if (compacted) usage = addUsage(usage, compacted);
      this.turnUsage = usage;
      const response = await this.modelCall(
        'step',
        () => this.callModel(step, limitReached, signal),
        (r) => ({ input_tokens: r.usage.inputTokens, output_tokens: r.usage.outputTokens }),
      );
      usage = addUsage(usage, response.usage);
      this.turnUsage = usage;
      if (!limitReached) this.toolSteps = step;
      text = response.text;
      if (response.text) this.opts.onEvent?.({ type: 'text', text: response.text });
      let cut: Alert | null = null;
      if (!response.exhausted && response.toolCalls.length > 0 && !limitReached) cut = await this.runToolCalls(response.toolCalls, signal);
      // AskUserQuestionTool posted questions for a later answer: they go into the log, and the
      // turn ends here — the model is not asked to go on from answers it does not have.
      const asked = this.postQuestions();
      if (asked !== null && !cut) {
        // Said where the run's output goes (the terminal, the JSON stream): the questions are the turn's answer.
        this.opts.onEvent?.({ type: 'text', text: asked });
        const result = this.endTurn('done', asked, step, usage, null);
        await this.fire('response-complete', { message: asked.slice(0, HOOK_TEXT_CHARS) });
        return result;
      }
      if (cut || response.exhausted || response.toolCalls.length === 0 || limitReached) {
        const status: TurnStatus = cut ? 'cut' : response.exhausted ? 'script_ended' : limitReached ? 'step_limit' : 'done';
        const result = this.endTurn(status, cut ? `watchdog cut the turn: ${cut.signal} — ${cut.reason}` : text, step, usage, cut);
        // The model gave its answer (not a cut, not a script that ran out).
        if (status === 'done' || status === 'step_limit') await this.fire('response-complete', { message: text.slice(0, HOOK_TEXT_CHARS) });
        return result;
      }
    }
  }

  /** One model call between model-start and model-end (with its tokens, or its error). */
  private async modelCall<T>(purpose: 'step' | 'compaction', call: () => PromiseLike<T>, tokens: (result: T) => HookUsage): Promise<T> {
    await this.fire('model-start', { purpose });
    let result: T;
    try {
      result = await call();
    } catch (err) {
      await this.fire('model-end', { purpose, ok: false, error: (err as Error).message.slice(0, 300) });
      throw err;
    }
    await this.fire('model-end', { purpose, ok: true, usage: tokens(result) });
    return result;
  }

  private fire(event: HookEvent, fields?: HookFields): Promise<void> {
    return this.opts.hooks?.fire(event, fields) ?? Promise.resolve();
  }

  /** Record the questions posted this step (`question` events); what the turn's end says, or null when none were. */
  private postQuestions(): string | null {
    const posted = this.session.postedQuestions.splice(0);
    if (posted.length === 0) return null;
    const lines: string[] = [];
    for (const p of posted) {
      this.record('question', { id: p.id, questions: p.questions, asked_of: p.askedOf, expires_at: p.expiresAt });
      for (const q of p.questions)
        lines.push(`- ${q.header ? `[${q.header}] ` : ''}${q.question}${q.options.length > 0 ? ` (${q.options.join(' / ')})` : ''}`);
      lines.push(`(answer by ${p.expiresAt}: question ${p.id})`);
    }
    return `Waiting for your answers:\n${lines.join('\n')}`;
  }

  private endTurn(status: TurnStatus, text: string, steps: number, own: Usage, cut: Alert | null): TurnResult {
    const delegated = this.delegatedUsage;
    const usage = addUsage(own, delegated);
    this.turnUsage = ZERO_USAGE;
    this.delegatedUsage = ZERO_USAGE;
    this.sessionUsage = addUsage(this.sessionUsage, usage);
    const children = delegated.inputTokens + delegated.outputTokens > 0 || (delegated.costUsd ?? 0) > 0;
    this.record('turn_end', { status, text, steps, usage, ...(children ? { delegated_usage: delegated } : {}) });
    // update_plan's checklist belongs to this turn only (the seed: it disappears when the turn ends).
    this.session.plan = { explanation: undefined, steps: [], revision: this.session.plan.revision + 1 };
    const watchdog = this.opts.watchdog;
    if (watchdog) {
      const halt = watchdog.turnEnded(cut);
      if (cut) this.record('watchdog', { halted: halt !== null, reason: halt, cut_turns: watchdog.cutTurns });
    }
    const detail = this.opts.checkpoints?.take();
    if (detail !== undefined) this.checkpointNow(detail);
    return { status, text, steps, usage };
  }

  /**
   * Take a checkpoint between turns (mark_task_done's request at a turn's end, or
   * the operator's /done): the completion record goes into the log and later
   * requests start from it instead of the whole conversation.
   */
  checkpointNow(detail: string): void {
    const record = completionRecord(this.messages, detail, this.callFacts);
    this.record('checkpoint', { detail, record });
    this.messages.splice(0, this.messages.length, { role: 'user', content: [{ type: 'text', text: record }] });
    this.measured = null;
    this.opts.onEvent?.({ type: 'checkpoint', detail });
  }

  /** Tokens the next request would hold (the provider's count of the last one, estimated since). */
  get contextTokens(): number {
    return promptTokens(this.opts.instructions, this.messages, this.measured);
  }

  /** The model's context window in tokens (registry or recipe); null: unknown. */
  get contextWindow(): number | null {
    return this.opts.context?.window ?? null;
  }

  /** Before a model call: compact when the conversation has reached the configured fraction of the window. */
  private async compactIfNear(signal?: AbortSignal): Promise<Usage | null> {
    const limit = this.opts.context;
    const compactAt = limit?.compactAt ?? DEFAULT_COMPACT_AT;
    // compact_at: 1 is "never on its own": at the full window the provider refuses the request anyway.
    if (!limit?.window || compactAt >= 1 || this.autoCompactionFailed || this.messages.length < 2) return null;
    const tokens = this.contextTokens;
    if (tokens < limit.window * compactAt) return null;
    const { outcome, usage } = await this.runCompaction('auto', undefined, tokens, signal);
    if (!outcome.ok) this.autoCompactionFailed = true;
    return usage;
  }

  /**
   * Compact the conversation now (/compact, between turns), with an optional note
   * on what the record should keep. The call's usage counts as the session's.
   */
  async compact(focus?: string, signal?: AbortSignal): Promise<CompactionOutcome> {
    const { outcome, usage } = await this.runCompaction('manual', focus, this.contextTokens, signal);
    if (usage) this.sessionUsage = addUsage(this.sessionUsage, usage);
    return outcome;
  }

  /**
   * The model writes the six-section record (no tools); the conversation is
   * replaced by it. Anything short of a complete record — a model error, an empty
   * answer, a section missing — leaves the conversation as it was and says so.
   * Both outcomes are `compaction` events of the log, so a resume rebuilds what
   * the model saw.
   */
  private async runCompaction(
    trigger: 'auto' | 'manual',
    focus: string | undefined,
    tokensBefore: number,
    signal?: AbortSignal,
  ): Promise<{ outcome: CompactionOutcome; usage: Usage | null }> {
    const last = this.messages.at(-1);
    const keptLast = last?.role === 'user' && this.messages.length > 1 ? last : undefined;
    const compacted = keptLast ? this.messages.slice(0, -1) : [...this.messages];
    const fail = (error: string, extra: Record<string, unknown> = {}) => {
      this.record('compaction', { trigger, ok: false, error, tokens_before: tokensBefore, ...extra });
      this.opts.onEvent?.({ type: 'compaction', trigger, ok: false, tokensBefore, error });
      return { ok: false as const, tokensBefore, error };
    };
    if (compacted.length === 0) return { outcome: fail('there is no conversation to compact yet'), usage: null };
    let result;
    const request = {
      prompt: [
        { role: 'system' as const, content: this.opts.instructions },
        ...compacted,
        compactionRequest(compacted, focus, this.callFacts),
      ],
      tools: [],
      toolChoice: { type: 'none' as const },
      ...(signal ? { abortSignal: signal } : {}),
    };
    try {
      // The compaction is a model call like a step's: the same model-start / model-end around it.
      result = await this.modelCall(
        'compaction',
        () => this.opts.model.doGenerate(request),
        (r) => ({ input_tokens: r.usage.inputTokens.total ?? 0, output_tokens: r.usage.outputTokens.total ?? 0 }),
      );
    } catch (err) {
      // Cancelled (Ctrl-C, shutdown): the turn's own handling applies, as for any model call.
      if (signal?.aborted) throw err;
      return { outcome: fail(`the model call failed: ${(err as Error).message.slice(0, 300)}`), usage: null };
    }
    const usage = this.usageOf(result, request);
    const finish = { finish_reason: result.finishReason, usage };
    const record = result.content
      .filter((c) => c.type === 'text')
      .map((c) => c.text)
      .join('')
      .trim();
    const missing = missingSections(record);
    if (record === '') return { outcome: fail('the model wrote no record', finish), usage };
    if (missing.length > 0) return { outcome: fail(`the record lacks sections: ${missing.join(', ')}`, finish), usage };
    const replacement = compactedConversation(record, keptLast);
    this.messages.splice(0, this.messages.length, ...replacement);
    this.measured = null;
    const tokensAfter = this.contextTokens;
    this.record('compaction', {
      trigger,
      ok: true,
      record,
      kept_last: keptLast !== undefined,
      tokens_before: tokensBefore,
      tokens_after: tokensAfter,
      ...(focus ? { focus } : {}),
      ...finish,
    });
    this.opts.onEvent?.({ type: 'compaction', trigger, ok: true, tokensBefore, tokensAfter });
    return { outcome: { ok: true, tokensBefore, tokensAfter }, usage };
  }

  /** /clear: the conversation starts afresh in the same session (recorded, so a resume does not bring it back). */
  clear(): void {
    this.record('clear', { dropped_messages: this.messages.length });
    this.messages.splice(0, this.messages.length);
    this.measured = null;
  }

  /**
   * Results for calls of the last response that never got one (the process died
   * while running them). They are not re-run: a write may have happened, so the
   * model is told the effect is unknown.
   */
  settleInterrupted(calls: LanguageModelV4ToolCall[]): void {
    if (calls.length === 0) return;
    const parts = calls.map((c) => {
      const error = 'interrupted: the process stopped before this call finished; its effect is unknown — check before repeating it';
      // Recorded through the dispatcher's call log, like every other tool result.
      this.opts.dispatcher.recordUnrun({ callId: c.toolCallId, name: c.toolName, args: c.input, source: 'model', error, kind: 'canceled' });
      return toolResultPart(c, { ok: false, error });
    });
    const last = this.messages.at(-1);
    if (last?.role === 'tool') last.content.push(...parts);
    else this.messages.push({ role: 'tool', content: parts });
  }

  private tools(): LanguageModelV4FunctionTool[] {
    return this.opts.catalog
      .list()
      .map((t) => ({ type: 'function', name: t.modelName, description: t.description, inputSchema: t.inputSchema }));
  }

  private async callModel(step: number, withoutTools: boolean, signal?: AbortSignal) {
    const prompt: LanguageModelV4Message[] = [{ role: 'system', content: this.opts.instructions }, ...this.messages];
    if (withoutTools) prompt.push({ role: 'user', content: [{ type: 'text', text: STEP_LIMIT_NOTE }] });
    this.record('request', { step, messages: prompt.length, tool_choice: withoutTools ? 'none' : 'auto' });
    const options = {
      prompt,
      tools: this.tools(),
      toolChoice: withoutTools ? ({ type: 'none' } as const) : ({ type: 'auto' } as const),
      ...(signal ? { abortSignal: signal } : {}),
    };
    const result =
      this.opts.stream === false
        ? await this.opts.model.doGenerate(options)
        : await streamGenerate(this.opts.model, options, (delta) => this.opts.onEvent?.({ type: 'text_delta', delta }));
    const content = result.content.filter(
      (c): c is Extract<LanguageModelV4Content, { type: 'text' | 'tool-call' }> => c.type === 'text' || c.type === 'tool-call',
    );
    const usage = this.usageOf(result, options);
    this.record('response', { step, content, finish_reason: result.finishReason, usage, model: this.opts.model.modelId });
    const exhausted = result.finishReason.raw === 'replay-exhausted';
    // Provider metadata goes back with the part it came on (Gemini's thought
    // signatures on function calls must be returned, or the next call fails).
    if (content.length > 0) this.messages.push({ role: 'assistant', content: content.map(asPromptPart) });
    // What the provider counted: the request (less the step-limit note, which is not kept) and its answer.
    const reported = result.usage.inputTokens.total;
    this.measured =
      reported === undefined
        ? null
        : {
            tokens: reported + (result.usage.outputTokens.total ?? 0) - (withoutTools ? estimateTokens(prompt.at(-1)) : 0),
            messages: this.messages.length,
          };
    return {
      text: content
        .filter((c) => c.type === 'text')
        .map((c) => c.text)
        .join(''),
      toolCalls: content.filter((c): c is LanguageModelV4ToolCall => c.type === 'tool-call'),
      usage,
      exhausted,
    };
  }

  /** Runs one response's calls; returns the watchdog alert that cuts the turn, if any. */
  private async runToolCalls(calls: LanguageModelV4ToolCall[], signal?: AbortSignal): Promise<Alert | null> {
    const alerts: Alert[] = [];
    for (const c of calls) alerts.push(...(this.opts.watchdog?.observeCall(c.toolName, c.input) ?? []));
    const results: LanguageModelV4ToolResultPart[] = [];
    // Batches: a run of read-only calls together, anything else on its own.
    let i = 0;
    while (i < calls.length) {
      const batch = [calls[i]!];
      if (this.isReadOnly(calls[i]!))
        while (i + batch.length < calls.length && this.isReadOnly(calls[i + batch.length]!)) batch.push(calls[i + batch.length]!);
      const outcomes = await Promise.all(batch.map((c) => this.runOne(c, signal)));
      for (const [j, o] of outcomes.entries()) {
        results.push(o.part);
        alerts.push(...(this.opts.watchdog?.observeResult(batch[j]!.toolName, o.ok, o.result) ?? []));
      }
      i += batch.length;
    }
    this.messages.push({ role: 'tool', content: results });
    return this.handleAlerts(alerts);
  }

  private handleAlerts(alerts: Alert[]): Alert | null {
    const watchdog = this.opts.watchdog;
    if (!watchdog || alerts.length === 0) return null;
    watchdog.noteForModel(alerts);
    const cuts = watchdog.cuts(alerts);
    for (const alert of alerts) {
      const action = watchdog.mode === 'warn' ? 'logged' : cuts && alert.severity === 'critical' ? 'cut' : 'feedback';
      this.record('watchdog', { alert, action });
      this.opts.onEvent?.({ type: 'watchdog', alert, action });
    }
    return cuts ? (alerts.find((a) => a.severity === 'critical') ?? null) : null;
  }

  private isReadOnly(call: LanguageModelV4ToolCall): boolean {
    return this.opts.catalog.get(call.toolName)?.readOnly === true;
  }

  private async runOne(
    call: LanguageModelV4ToolCall,
    signal?: AbortSignal,
  ): Promise<{ part: LanguageModelV4ToolResultPart; ok: boolean; result: unknown }> {
    this.opts.onEvent?.({ type: 'tool_start', id: call.toolCallId, name: call.toolName, args: call.input });
    const started = monotonicMs();
    let gateMs = 0;
    const planRevision = this.session.plan.revision;
    // The dispatcher records the result (tool_result) under the model's call id.
    const outcome = await this.opts.dispatcher.call(call.toolName, call.input, signal, {
      callId: call.toolCallId,
      source: 'model',
      // Time at an approval prompt is the operator's, not the tool's.
      onGateWait: (ms) => (gateMs = ms),
    });
    // A result the log could not keep ends the turn, as any failed write does: going on would leave a hole in the session.
    const lost = this.opts.dispatcher.takeRecordFailure();
    if (lost) throw lost;
    const ms = Math.max(0, Math.round(monotonicMs() - started - gateMs));
    this.opts.onEvent?.({
      type: 'tool_end',
      id: call.toolCallId,
      name: call.toolName,
      ok: outcome.ok,
      ms,
      ...(outcome.ok
        ? {
            result: outcome.result,
            ...(outcome.result.truncated === true ? { truncated: true } : {}),
            ...(outcome.rawRef ? { rawRef: outcome.rawRef } : {}),
          }
        : { error: outcome.error, kind: outcome.kind }),
    });
    const plan = this.session.plan;
    if (plan.revision !== planRevision)
      this.opts.onEvent?.({
        type: 'plan',
        plan: plan.steps.map((s) => ({ ...s })),
        ...(plan.explanation ? { explanation: plan.explanation } : {}),
      });
    return { part: toolResultPart(call, outcome), ok: outcome.ok, result: outcome.ok ? outcome.result : null };
  }

  /** A call's usage and cost: the provider's counts, or estimated from the text where it reported none (said in the figure). */
  private usageOf(result: GenerateResult, options: CallOptions): Usage {
    const price = this.opts.price !== undefined ? this.opts.price : this.opts.model.provider === 'replay' ? { input: 0, output: 0 } : null;
    const counted = withEstimate(result.usage, options, result.content);
    const usage = usageOf(price, counted.inputTokens, counted.outputTokens, result.usage.inputTokens);
    return counted.estimated ? { ...usage, estimatedCalls: 1 } : usage;
  }

  /**
   * What arrived for the model since its last call (a child agent's report, runtime/child-agents.ts):
   * one user message, recorded like any, so a resumed session has it too.
   */
  private deliverInbox(): void {
    const notes = this.opts.inbox?.() ?? [];
    if (notes.length === 0) return;
    const text = notes.join('\n\n');
    this.record('user', { text, source: 'inbox' });
    this.messages.push({ role: 'user', content: [{ type: 'text', text }] });
  }

  private record(kind: Parameters<EventLog['append']>[2], data: Record<string, unknown>): void {
    this.opts.log.append(this.opts.sessionId, this.turnNumber, kind, data);
  }
}

/**
 * A response part as the next request's prompt must carry it: tool-call input as
 * a parsed value (the providers serialise it themselves; a string would be sent
 * double-encoded), provider metadata as provider options.
 */
export function asPromptPart(c: Extract<LanguageModelV4Content, { type: 'text' | 'tool-call' }>) {
  if (c.type === 'text')
    return { type: 'text' as const, text: c.text, ...(c.providerMetadata ? { providerOptions: c.providerMetadata } : {}) };
  let input: unknown = c.input;
  try {
    input = JSON.parse(c.input);
  } catch {
    // malformed arguments from the model stay as it sent them
  }
  return {
    type: 'tool-call' as const,
    toolCallId: c.toolCallId,
    toolName: c.toolName,
    input,
    ...(c.providerMetadata ? { providerOptions: c.providerMetadata } : {}),
  };
}

export function toolResultPart(
  call: LanguageModelV4ToolCall,
  outcome: ToolCallResult | { ok: false; error: string },
): LanguageModelV4ToolResultPart {
  return {
    type: 'tool-result',
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    output: outcome.ok ? { type: 'json', value: outcome.result } : { type: 'error-text', value: outcome.error },
  };
}
