import { randomUUID } from '../../util/random-id.ts';
import { unknownName } from '../../config/did-you-mean.ts';
import type { FailureKind } from '../../core/failure.ts';
import { silentLogger, type Logger } from '../../log.ts';
import type { Gate, GateRequest } from '../../permissions/gate.ts';
import { PathResolutionError, resolvePath, type ResolvedPath } from '../../permissions/resolve-path.ts';
import type { Subject } from '../../permissions/rules.ts';
import { formatArgIssues } from './arg-errors.ts';
import type { CallLog, CallRecord, CallSource } from './call-log.ts';
import type { Catalog, RegisteredTool } from './catalog.ts';
import { capErrorText, describeValue, ERROR_MAX_CHARS, quoteArg } from './error-text.ts';
import { causeChain, describeFailure } from '../../util/failure-sentences.ts';
import { hookInput, type HookSink } from './hooks.ts';
import { kindTraits } from './kinds.ts';
import { applyCaps, capsFor, type CapsConfig } from './output.ts';
import { servicesView, type ToolServices } from './services.ts';
import { SessionState } from './session.ts';
import type { ToolFace } from './face.ts';
import { ToolError, type AnyTool, type FileAccess, type JsonObject, type ToolContext, type ToolSummary } from './tool.ts';
import { monotonicMs } from '../../util/monotonic.ts';
import type { SecretValues } from '../../util/secret-values.ts';

export type ToolCallResult =
  | {
      readonly ok: true;
      readonly result: JsonObject;
      /** The tool's own result, present when the output caps changed what the model sees. */
      readonly raw?: JsonObject;
      /** The result was digested: the raw payload is in the store under this call_id (retrieve_raw). */
      readonly rawRef?: string;
    }
  | Failure;

/** A refused or failed call: the message for the model, and why as data (callers branch on `kind`, never on the text). */
export interface Failure {
  readonly ok: false;
  readonly error: string;
  readonly kind: FailureKind;
}

/** Who is calling and as which call: what the call log records beside the call itself. */
export interface CallOptions {
  /** Return the capped result itself rather than a digest of it (a poll's condition inspects it). */
  digest?: boolean;
  /** The caller's id for this call (the model's tool call id); made up when absent. */
  callId?: string;
  /** Who made the call (default tools_call: a direct caller that is not the model). */
  source?: CallSource;
  /** The call that made this one (set by the dispatcher for a tool's own calls). */
  parentCallId?: string;
  /**
   * Told how long the permission gate took (an operator deciding at a prompt):
   * that wait is not the tool's running time, and `ms` everywhere leaves it out.
   */
  onGateWait?: (ms: number) => void;
  /**
   * The operator typed this call themselves (the REPL's `!command`): the permission gate is not
   * asked — the call is the operator's own, as a command typed in their shell is — and a tool's
   * checks that steer the model (bash's search gate) are skipped. What guards against an
   * accident still applies: bash's denylist, path scope, the deadline, the caps, the record.
   * Only with source 'operator'.
   */
  typedByOperator?: boolean;
}

export interface DispatcherOptions {
  catalog: Catalog;
  gate: Gate;
  /** The workspace root, symlinks resolved. */
  workspace: string;
  /** The home directory `~/` in a path argument means (none: such a path is refused). */
  home?: string | undefined;
  toolOutput?: CapsConfig;
  logger?: Logger;
  /** The longest one call may run before it is aborted. */
  deadlineMs?: number;
  /** The session the calls belong to (turn, todo list, terminals, …). */
  session?: SessionState;
  /** Where every call is recorded (the session's event log), when a store is wired. */
  callLog?: CallLog;
  /** Test seam: runs after the gate has passed a call and before the tool starts. */
  afterGate?: (tool: string) => void | Promise<void>;
  /** The recipe's hooks: tool-start and tool-end around every call but a tool's own polls. */
  hooks?: HookSink | undefined;
  /**
   * The secret values the root knows: masked in every result and error before
   * the caller, the call log or a hook sees it, whatever the tool (built-in,
   * MCP, a peer's answer) — and in the arguments the call log records.
   */
  secrets?: SecretValues | undefined;
}

export const DEFAULT_DEADLINE_MS = 300_000;

/**
 * The one path every tool call takes — from a model, from `tools call`, from a
 * tool that polls another. Find the tool, validate its arguments, resolve and
 * scope-check its paths, ask the gate, run it with a deadline, cap its output.
 * Every failure comes back as `{ok: false, error, kind}` for the model to read; a
 * tool call never throws out of here. Every call, whoever made it, is recorded
 * to the call log when one is wired — the one writer of tool results.
 */
export class Dispatcher {
  /** Each tool's view of the services: what it declared, nothing else (services.ts, servicesView). */
  private readonly views = new WeakMap<AnyTool, ToolServices>();

  private servicesOf(def: AnyTool): ToolServices {
    let view = this.views.get(def);
    if (view === undefined) {
      view = servicesView(this.opts.catalog.services, [...(def.needs ?? []), ...(def.uses ?? [])]);
      this.views.set(def, view);
    }
    return view;
  }

  private readonly log: Logger;
  readonly session: SessionState;
  private callLog: CallLog | undefined;

  constructor(private readonly opts: DispatcherOptions) {
    this.log = opts.logger ?? silentLogger;
    this.session = opts.session ?? new SessionState();
    this.callLog = opts.callLog;
  }

  /**
   * A dispatcher for a child agent: the same gate, workspace, caps, hooks, secrets and
   * deadline — the one path — over the child's narrowed catalog and its own session, recording
   * to the child's session once `recordTo` is called.
   */
  forChild(o: { catalog: Catalog; session: SessionState }): Dispatcher {
    return new Dispatcher({ ...this.opts, catalog: o.catalog, session: o.session, callLog: undefined });
  }

  /**
   * Record every later call here. For a store whose session is created after the
   * dispatcher (a run's session_start lists the catalog the dispatcher serves).
   */
  recordTo(callLog: CallLog): void {
    this.callLog = callLog;
  }

  /** Whether calls are being recorded (the agent refuses to run unrecorded: --resume rebuilds from the record). */
  get recording(): boolean {
    return this.callLog !== undefined;
  }

  /**
   * Record a call that never reached the dispatcher (one interrupted by the
   * process stopping, settled on --resume), so every tool result has one writer.
   */
  recordUnrun(call: { callId: string; name: string; args: unknown; source: CallSource; error: string; kind: FailureKind }): void {
    this.write({ ...call, error: this.opts.secrets?.mask(call.error) ?? call.error, ok: false, ms: 0 });
  }

  get catalog(): Catalog {
    return this.opts.catalog;
  }

  async call(name: string, rawArgs: unknown, signal?: AbortSignal, opts: CallOptions = {}): Promise<ToolCallResult> {
    const source = opts.source ?? 'tools_call';
    const callId = opts.callId ?? `${source}-${randomUUID()}`;
    // A poll is part of the call that makes it, which its hooks already bracket (and one a second would flood them).
    const hooks = source === 'poll' ? undefined : this.opts.hooks;
    await hooks?.fire('tool-start', { tool_name: name, tool_input: hookInput(rawArgs) });
    // The call's time is the tool's: neither its hooks nor the wait at an approval prompt.
    const started = monotonicMs();
    const gate = { ms: 0 };
    const typed = opts.typedByOperator === true && source === 'operator';
    const inner = await this.callInner(name, rawArgs, signal, opts.digest !== false, callId, gate, typed).catch((err: unknown) =>
      failure(name, err, signal),
    );
    const outcome: ToolCallResult = inner.ok
      ? inner
      : { ok: false, error: this.boundError(name, this.opts.secrets?.mask(inner.error) ?? inner.error), kind: inner.kind };
    const ms = Math.max(0, Math.round(monotonicMs() - started - gate.ms));
    opts.onGateWait?.(gate.ms);
    this.log.info(
      {
        tool: name.slice(0, 256),
        ok: outcome.ok,
        ms,
        truncated: outcome.ok ? outcome.result.truncated === true : undefined,
        ...(outcome.ok ? {} : { failure: outcome.kind }),
      },
      'tool call',
    );
    this.write({
      callId,
      // As called: what the model's response (and a poll's arguments) name, and what --resume matches.
      name,
      args: this.opts.secrets?.maskJson(rawArgs) ?? rawArgs,
      source,
      parentCallId: opts.parentCallId,
      ms,
      ...(outcome.ok
        ? { ok: true, shown: outcome.result, raw: outcome.raw, rawRef: outcome.rawRef }
        : { ok: false, error: outcome.error, kind: outcome.kind }),
    });
    await hooks?.fire('tool-end', {
      tool_name: name,
      tool_output: outcome.ok ? outcome.result : { ok: false, error: outcome.error, kind: outcome.kind },
    });
    return outcome;
  }

  /**
   * A store that fails (a full disk) loses the record, never the call: the tool
   * has already acted. Recording then stops for good, so the log keeps a gap-free
   * prefix (a later record after a lost one would be a hole --resume cannot
   * replay truthfully), and the failure waits in takeRecordFailure for a caller
   * that must not go on unrecorded (the agent ends its turn with it).
   */
  private write(call: CallRecord): void {
    if (!this.callLog) return;
    try {
      this.callLog.record(call);
    } catch (err) {
      this.callLog = undefined;
      this.recordFailure ??= err instanceof Error ? err : new Error(String(err));
      this.log.error({ tool: call.name.slice(0, 256), error: this.recordFailure.message }, 'tool call not recorded; recording stopped');
    }
  }

  private recordFailure: Error | undefined;

  /** The error that stopped recording, once (undefined while recording works). */
  takeRecordFailure(): Error | undefined {
    const err = this.recordFailure;
    this.recordFailure = undefined;
    return err;
  }

  /**
   * Every error leaves through here, whatever produced it: at most ERROR_MAX_CHARS
   * (or the tool's max_bytes, if an operator set it lower), cut in the middle.
   */
  private boundError(name: string, error: string): string {
    const tool = this.opts.catalog.get(name);
    const caps = capsFor(tool?.name ?? name, this.opts.toolOutput, tool?.def.caps);
    return capErrorText(error, Math.min(ERROR_MAX_CHARS, caps.maxBytes));
  }

  private async callInner(
    name: string,
    rawArgs: unknown,
    signal: AbortSignal | undefined,
    digest: boolean,
    callId: string,
    gate: { ms: number },
    typedByOperator: boolean,
  ): Promise<ToolCallResult> {
    const tool = this.opts.catalog.get(name);
    if (!tool) {
      const why = name.length <= 256 ? this.opts.catalog.notRegistered(name) : undefined;
      if (why !== undefined) return fail(`${name} is not registered: ${why}`, 'unknown_tool');
      const names = this.opts.catalog.list().map((t) => t.modelName);
      // A name no tool could have gets no "did you mean" (edit distance is quadratic in its length).
      if (name.length > 256) return fail(`unknown tool ${quoteArg(name, 64)}. Valid: ${names.join(', ')}`, 'unknown_tool');
      return fail(unknownName('tool', name, names), 'unknown_tool');
    }
    const def = tool.def;
    // The model may call an MCP tool by its model-facing name; rules, caps and settings use the canonical one.
    const canonical = tool.name;

    // Called by its face's name (golem's ReadFile): the face's arguments, mapped to the engine's.
    const face = tool.face && name === tool.modelName ? def.faces?.find((f) => f.name === tool.face!.name) : undefined;
    const parsedArgs = this.parseArgs(tool, rawArgs, name, face);
    if (!parsedArgs.ok) return parsedArgs;
    const args = parsedArgs.args;
    const refused = def.precheck
      ? await def.precheck(args, {
          hasTool: (n) => this.opts.catalog.has(n),
          toolName: (n) => this.opts.catalog.get(n)?.modelName,
          services: this.opts.catalog.services,
          typedByOperator,
        })
      : null;
    if (refused !== null) return fail(refused, 'denied');

    // Resolve every path the call names, so the gate and the tool see the same
    // physical location (symlinks and `..` already applied).
    const resolved = new Map<string, ResolvedPath>();
    const subjects: Subject[] = [];
    for (const claim of def.paths?.(args) ?? []) {
      const r = await this.resolveInScope(claim.path, claim.followFinal ?? true);
      if ('refused' in r) return fail(`${name}: ${r.refused}`, r.kind);
      resolved.set(claim.arg, r);
      subjects.push(this.subjectOf(r.real));
    }

    const shape = def.gateSubjects ? await def.gateSubjects(args) : undefined;
    if (shape) subjects.push({ kind: 'text', forms: [shape.subject] });
    const asked = monotonicMs();
    const changes = def.changes;
    const decision = typedByOperator
      ? { allowed: true as const, rule: 'typed by the operator' }
      : await this.opts.gate.check({
          ...(shape ? { commands: shape.verbs, wildcardRefusal: shape.wildcardRefusal } : {}),
          ...gateTraits(def),
          tool: canonical,
          ...(this.session.agentName !== undefined ? { agent: this.session.agentName } : {}),
          subjects,
          call: { args, ...(changes ? { changes: () => changes(args, { paths: resolved, display: (p) => this.display(p) }) } : {}) },
        });
    gate.ms = monotonicMs() - asked;
    if (!decision.allowed) return fail(`${name}: permission denied: ${decision.reason}`, 'denied');
    if (this.opts.afterGate) await this.opts.afterGate(canonical);

    const caps = capsFor(canonical, this.opts.toolOutput, def.caps);
    // A timer cleared when the call ends: AbortSignal.timeout would leave one pending
    // for the whole deadline after every call (thousands in a long session).
    const controller = new AbortController();
    const settings = tool.settings;
    const deadlineMs = def.deadlineMs?.(args, settings) ?? this.opts.deadlineMs ?? DEFAULT_DEADLINE_MS;
    const timer = setTimeout(() => controller.abort(new DOMException('deadline', 'TimeoutError')), deadlineMs);
    const onOuterAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) onOuterAbort();
    else signal?.addEventListener('abort', onOuterAbort, { once: true });
    const callSignal = controller.signal;
    const ctx: ToolContext = {
      workspace: this.opts.workspace,
      paths: resolved,
      caps,
      settings,
      services: this.servicesOf(def),
      signal: callSignal,
      display: (p) => this.display(p),
      readable: (p) =>
        this.opts.gate.scope.allows(p) &&
        (!this.opts.gate.hasDenyRules || this.opts.gate.denyingRule(canonical, [this.subjectOf(p)]) === null),
      hasTool: (n) => this.opts.catalog.has(n),
      toolName: (n) => this.opts.catalog.get(n)?.modelName,
      authorizePath: (p, access) => this.authorizePath(canonical, p, access),
      session: this.session,
      // A tool's own calls (wait_and_verify's polls) are recorded as polls under this call.
      callTool: (n, a, sig, o) => this.call(n, a, sig, { digest: o?.digest, source: 'poll', parentCallId: callId }),
      lookupTool: (n) => summary(this.opts.catalog.get(n)),
      listTools: () => this.opts.catalog.list().map((t) => summary(t)!),
    };

    let raw: JsonObject;
    try {
      raw = await (def.ownsCancellation ? def.run(args, ctx) : raceAbort(def.run(args, ctx), callSignal));
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onOuterAbort);
    }
    // In the face's shape (golem's {content, totalLines}), before the digest and the caps see it.
    if (face?.result) raw = face.result(raw, parsedArgs.faceArgs);
    // Before the digest keeps a raw copy and before anyone sees it: no known secret leaves a tool.
    if (this.opts.secrets) raw = this.opts.secrets.maskJson(raw);
    // Digest before the caps: the digest summarises the whole result, where the caps would keep only its head.
    const digests = def.digest && digest ? this.opts.catalog.services.digests : undefined;
    const size = digests?.size(raw);
    const digested = digests && size !== undefined && size > digests.threshold ? await digests.wrap(canonical, raw, size) : null;
    if (digested) return { ok: true, result: applyCaps(digested.shown, caps, def.narrowHint), rawRef: digested.callId };
    // At or below the threshold the size is exact, and the caps need not measure again.
    const result = applyCaps(raw, caps, def.narrowHint, digests && size! <= digests.threshold ? size : undefined);
    return result === raw ? { ok: true, result } : { ok: true, result, raw };
  }

  /** `called` is the name the caller used (an MCP tool's model-facing one): errors speak of the tool as it was called. */
  private parseArgs(
    tool: RegisteredTool,
    rawArgs: unknown,
    called: string,
    face?: ToolFace,
  ): { ok: true; args: unknown; faceArgs?: unknown } | Failure {
    let input: unknown = rawArgs ?? {};
    if (typeof input === 'string') {
      try {
        input = JSON.parse(input) as unknown;
      } catch (err) {
        return fail(`${called}: arguments are not valid JSON: ${(err as Error).message.slice(0, 300)}`, 'invalid_args');
      }
    }
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return fail(`${called}: arguments must be a JSON object, not ${describeValue(input)}`, 'invalid_args');
    }
    const aliases = tool.def.aliases ?? {};
    const mapped: Record<string, unknown> = { ...(input as Record<string, unknown>) };
    for (const [alias, canonical] of Object.entries(aliases)) {
      if (!(alias in mapped)) continue;
      if (canonical in mapped) {
        return fail(`${called}: give either "${canonical}" or its alias "${alias}", not both`, 'invalid_args');
      }
      mapped[canonical] = mapped[alias];
      delete mapped[alias];
    }
    const schema = face ? face.args : tool.def.args;
    const parsed = schema.safeParse(face ? input : mapped);
    if (!parsed.success) {
      const valid = Object.keys((tool.inputSchema.properties as Record<string, unknown> | undefined) ?? {});
      const issues = formatArgIssues(parsed.error.issues, valid, { input: face ? input : mapped, schema: tool.inputSchema });
      return fail(`${called}: invalid arguments: ${issues}`, 'invalid_args');
    }
    if (!face) return { ok: true, args: parsed.data };
    // The face's schema holds the engine's limits in its own words; what it passes must suit the engine.
    const engine = tool.def.args.safeParse(face.toEngine(parsed.data));
    if (!engine.success) {
      const issues = engine.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ');
      return fail(`${called}: invalid arguments: ${issues.slice(0, 2000)}`, 'invalid_args');
    }
    return { ok: true, args: engine.data, faceArgs: parsed.data };
  }

  /** Resolve a path physically and check it against path_scope. */
  private async resolveInScope(p: string, followFinal: boolean): Promise<ResolvedPath | { refused: string; kind: FailureKind }> {
    let r: ResolvedPath;
    try {
      // Relative paths start from the conversation's current directory (change_working_directory).
      r = await resolvePath(p, this.session.cwd ?? this.opts.workspace, { followFinal, home: this.opts.home });
    } catch (err) {
      if (err instanceof PathResolutionError) return { refused: err.message, kind: err.kind };
      throw err;
    }
    const refusal = this.opts.gate.scope.refusal(r.real, p);
    return refusal === null ? r : { refused: `permission denied: ${refusal}`, kind: 'denied' };
  }

  private async authorizePath(tool: string, p: string, access: FileAccess): Promise<ResolvedPath | { refused: string }> {
    const r = await this.resolveInScope(p, true);
    if ('refused' in r) return { refused: r.refused };
    const def = this.opts.catalog.get(tool)?.def;
    const decision = await this.opts.gate.check({
      ...(def ? gateTraits(def) : { fileEdit: false }),
      readOnly: access === 'read' && def !== undefined && kindTraits(def.kind).readOnly,
      // A session tool acting on a further path (change_working_directory leaving the workspace)
      // is gated as a change: only its own bookkeeping is exempt from asking.
      lifecycle: access === 'read' && def !== undefined && kindTraits(def.kind).lifecycle,
      tool,
      subjects: [this.subjectOf(r.real)],
    });
    return decision.allowed ? r : { refused: `permission denied: ${decision.reason}` };
  }

  private subjectOf(real: string): Subject {
    const shown = this.display(real);
    return { kind: 'path', forms: shown === real ? [real] : [shown, real] };
  }

  /** Paths here are physical and normalised, so plain slicing is exact (and cheap per walk result). */
  private display(real: string): string {
    const ws = this.opts.workspace;
    if (real === ws) return '.';
    if (ws === '/') return real.slice(1);
    return real.startsWith(`${ws}/`) ? real.slice(ws.length + 1) : real;
  }
}

/** What the gate and plan-first know of a tool, from its definition: one place for every gate request. */
function gateTraits(def: AnyTool): Pick<GateRequest, 'readOnly' | 'fileEdit' | 'lifecycle' | 'openWorld'> {
  const { readOnly, fileEdit, lifecycle, openWorld } = kindTraits(def.kind);
  return { readOnly, fileEdit, lifecycle, openWorld };
}

function summary(t: RegisteredTool | undefined): ToolSummary | undefined {
  return t && { name: t.name, modelName: t.modelName, kind: t.def.kind, readOnly: t.readOnly };
}

function fail(error: string, kind: FailureKind): Failure {
  return { ok: false, error, kind };
}

/** System error codes that mean the thing named is not there (any other known code is the tool's failure). */
const NOT_FOUND_CODES = new Set(['ENOENT', 'ENOTDIR']);

/**
 * A thrown failure as the model sees it, and its kind. A ToolError is already a
 * sentence and says its kind; a system or library error with a known code
 * becomes one (errors.ts) — never `ENAMETOOLONG: name too long, lstat '…'`;
 * anything else keeps its message and is internal (a bug, or a failure nobody
 * foresaw). An abort is a deadline or a cancellation by what aborted it.
 */
function failure(name: string, err: unknown, signal: AbortSignal | undefined): Failure {
  if (err instanceof ToolError) return fail(`${name}: ${err.message}`, err.kind);
  const e = err as NodeJS.ErrnoException;
  if (err instanceof CallAborted) return fail(`${name}: ${err.message}`, err.kind);
  if (e?.name === 'AbortError' || e?.name === 'TimeoutError') {
    // A tool's own abort: what aborted the caller's signal, if it did, else the error's own name.
    const cause = signal?.aborted ? (signal.reason as Error | undefined)?.name : e.name;
    return fail(`${name}: ${e.message}`, cause === 'TimeoutError' ? 'deadline' : 'canceled');
  }
  const sentence = describeFailure(err);
  if (sentence !== undefined) {
    const notFound = causeChain(err).some((c) => typeof c.code === 'string' && NOT_FOUND_CODES.has(c.code));
    return fail(`${name}: ${sentence}`, notFound ? 'not_found' : 'tool_error');
  }
  return fail(`${name} failed: ${e?.message ?? String(err)}`, 'internal');
}

/** Settle with the tool's result, or reject as soon as the call's signal aborts. */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** The call's signal aborted before the tool settled: at the deadline, or because the caller cancelled. */
class CallAborted extends Error {
  override readonly name = 'AbortError';

  constructor(readonly kind: 'deadline' | 'canceled') {
    super(kind === 'deadline' ? 'call exceeded its deadline and was aborted' : 'call was cancelled');
  }
}

function abortError(signal: AbortSignal): CallAborted {
  const reason = signal.reason as Error | undefined;
  return new CallAborted(reason?.name === 'TimeoutError' ? 'deadline' : 'canceled');
}
