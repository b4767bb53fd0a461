import type { CallLog } from './call-log.ts';
import { unknownName } from '../config/did-you-mean.ts';
import { silentLogger, type Logger } from '../log.ts';
import type { Gate, GateRequest } from '../permissions/gate.ts';
import { PathResolutionError, resolvePath, type ResolvedPath } from '../permissions/resolve-path.ts';
import type { Subject } from '../permissions/rules.ts';
import { formatArgIssues } from './arg-errors.ts';
import type { Catalog, RegisteredTool } from './catalog.ts';
import { capErrorText, describeValue, ERROR_MAX_CHARS, quoteArg } from './error-text.ts';
import { describeFailure } from './errors.ts';
import { applyCaps, capsFor, type CapsConfig } from './output.ts';
import { SessionState } from './session.ts';
import { ToolError, type AnyTool, type FileAccess, type JsonObject, type ToolContext, type ToolSummary } from './tool.ts';

export type ToolCallResult =
  | {
      readonly ok: true;
      readonly result: JsonObject;
      /** The tool's own result, present when the output caps changed what the model sees. */
      readonly raw?: JsonObject;
      /** The result was digested: the raw payload is in the store under this call_id (retrieve_raw). */
      readonly rawRef?: string;
    }
  | { readonly ok: false; readonly error: string };

export interface DispatcherOptions {
  catalog: Catalog;
  gate: Gate;
  /** The workspace root, symlinks resolved. */
  workspace: string;
  /** The home directory `~/` in a path argument means (none: such a path is refused). */
  home?: string | undefined;
  /** Where every call is recorded, when a store is wired (the composition root's). */
  callLog?: CallLog | undefined;
  toolOutput?: CapsConfig;
  /** Validated `tools.<name>` settings from the recipe. */
  toolSettings?: Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>;
  logger?: Logger;
  /** The longest one call may run before it is aborted. */
  deadlineMs?: number;
  /** The session the calls belong to (turn, todo list, plans, …). */
  session?: SessionState;
  /** Test seam: runs after the gate has passed a call and before the tool starts. */
  afterGate?: (tool: string) => void | Promise<void>;
}

export const DEFAULT_DEADLINE_MS = 300_000;

/**
 * The one path every tool call takes — from a model, from `tools call`, from a
 * tool that polls another. Find the tool, validate its arguments, resolve and
 * scope-check its paths, ask the gate, run it with a deadline, cap its output.
 * Every failure comes back as `{ok: false, error}` for the model to read; a
 * tool call never throws out of here.
 */
export class Dispatcher {
  private readonly log: Logger;
  readonly session: SessionState;

  constructor(private readonly opts: DispatcherOptions) {
    this.log = opts.logger ?? silentLogger;
    this.session = opts.session ?? new SessionState();
  }

  get catalog(): Catalog {
    return this.opts.catalog;
  }

  async call(name: string, rawArgs: unknown, signal?: AbortSignal, opts: { digest?: boolean } = {}): Promise<ToolCallResult> {
    const started = performance.now();
    const inner = await this.callInner(name, rawArgs, signal, opts.digest !== false).catch((err: unknown) => failure(name, err));
    const outcome = inner.ok ? inner : { ok: false as const, error: this.boundError(name, inner.error) };
    this.log.info(
      {
        tool: name.slice(0, 256),
        ok: outcome.ok,
        ms: Math.round(performance.now() - started),
        truncated: outcome.ok ? outcome.result.truncated === true : undefined,
      },
      'tool call',
    );
    return outcome;
  }

  /**
   * Every error leaves through here, whatever produced it: at most ERROR_MAX_CHARS
   * (or the tool's max_bytes, if an operator set it lower), cut in the middle.
   */
  private boundError(name: string, error: string): string {
    const tool = this.opts.catalog.get(name);
    const caps = capsFor(tool?.name ?? name, this.opts.toolOutput);
    return capErrorText(error, Math.min(ERROR_MAX_CHARS, caps.maxBytes));
  }

  private async callInner(name: string, rawArgs: unknown, signal: AbortSignal | undefined, digest: boolean): Promise<ToolCallResult> {
    const tool = this.opts.catalog.get(name);
    if (!tool) {
      const names = this.opts.catalog.list().map((t) => t.modelName);
      // A name no tool could have gets no "did you mean" (edit distance is quadratic in its length).
      if (name.length > 256) return { ok: false, error: `unknown tool ${quoteArg(name, 64)}. Valid: ${names.join(', ')}` };
      return { ok: false, error: unknownName('tool', name, names) };
    }
    const def = tool.def;
    // The model may call an MCP tool by its model-facing name; rules, caps and settings use the canonical one.
    const canonical = tool.name;

    const parsedArgs = this.parseArgs(tool, rawArgs, name);
    if (!parsedArgs.ok) return parsedArgs;
    const args = parsedArgs.args;
    const refused = def.precheck ? await def.precheck(args, { hasTool: (n) => this.opts.catalog.has(n) }) : null;
    if (refused !== null) return { ok: false, error: refused };

    // Resolve every path the call names, so the gate and the tool see the same
    // physical location (symlinks and `..` already applied).
    const resolved = new Map<string, ResolvedPath>();
    const subjects: Subject[] = [];
    for (const claim of def.paths?.(args) ?? []) {
      const r = await this.resolveInScope(claim.path, claim.followFinal ?? true);
      if ('refused' in r) return { ok: false, error: `${name}: ${r.refused}` };
      resolved.set(claim.arg, r);
      subjects.push(this.subjectOf(r.real));
    }

    const shape = def.gateSubjects ? await def.gateSubjects(args) : undefined;
    if (shape) subjects.push({ kind: 'text', forms: [shape.subject] });
    const decision = await this.opts.gate.check({
      ...(shape ? { commands: shape.verbs, wildcardRefusal: shape.wildcardRefusal } : {}),
      ...gateTraits(def),
      tool: canonical,
      subjects,
    });
    if (!decision.allowed) return { ok: false, error: `${name}: permission denied: ${decision.reason}` };
    if (this.opts.afterGate) await this.opts.afterGate(canonical);

    const caps = capsFor(canonical, this.opts.toolOutput);
    // A timer cleared when the call ends: AbortSignal.timeout would leave one pending
    // for the whole deadline after every call (thousands in a long session).
    const controller = new AbortController();
    const settings = this.opts.toolSettings?.[canonical] ?? {};
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
      signal: callSignal,
      display: (p) => this.display(p),
      readable: (p) =>
        this.opts.gate.scope.allows(p) &&
        (!this.opts.gate.hasDenyRules || this.opts.gate.denyingRule(canonical, [this.subjectOf(p)]) === null),
      hasTool: (n) => this.opts.catalog.has(n),
      authorizePath: (p, access) => this.authorizePath(canonical, p, access),
      session: this.session,
      callTool: (n, a, sig, o) => this.call(n, a, sig, o),
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
    // Digest before the caps: the digest summarises the whole result, where the caps would keep only its head.
    const digests = def.digest && digest ? this.session.digests : undefined;
    const size = digests?.size(raw);
    const digested = digests && size !== undefined && size > digests.threshold ? digests.wrap(canonical, raw, size) : null;
    if (digested) return { ok: true, result: applyCaps(digested.shown, caps, def.narrowHint), rawRef: digested.callId };
    // At or below the threshold the size is exact, and the caps need not measure again.
    const result = applyCaps(raw, caps, def.narrowHint, digests && size! <= digests.threshold ? size : undefined);
    return result === raw ? { ok: true, result } : { ok: true, result, raw };
  }

  /** `called` is the name the caller used (an MCP tool's model-facing one): errors speak of the tool as it was called. */
  private parseArgs(tool: RegisteredTool, rawArgs: unknown, called: string): { ok: true; args: unknown } | { ok: false; error: string } {
    let input: unknown = rawArgs ?? {};
    if (typeof input === 'string') {
      try {
        input = JSON.parse(input) as unknown;
      } catch (err) {
        return { ok: false, error: `${called}: arguments are not valid JSON: ${(err as Error).message.slice(0, 300)}` };
      }
    }
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return { ok: false, error: `${called}: arguments must be a JSON object, not ${describeValue(input)}` };
    }
    const aliases = tool.def.aliases ?? {};
    const mapped: Record<string, unknown> = { ...(input as Record<string, unknown>) };
    for (const [alias, canonical] of Object.entries(aliases)) {
      if (!(alias in mapped)) continue;
      if (canonical in mapped) {
        return { ok: false, error: `${called}: give either "${canonical}" or its alias "${alias}", not both` };
      }
      mapped[canonical] = mapped[alias];
      delete mapped[alias];
    }
    const parsed = tool.def.args.safeParse(mapped);
    if (!parsed.success) {
      const valid = Object.keys((tool.inputSchema.properties as Record<string, unknown> | undefined) ?? {});
      const issues = formatArgIssues(parsed.error.issues, valid, { input: mapped, schema: tool.inputSchema });
      return { ok: false, error: `${called}: invalid arguments: ${issues}` };
    }
    return { ok: true, args: parsed.data };
  }

  /** Resolve a path physically and check it against path_scope. */
  private async resolveInScope(p: string, followFinal: boolean): Promise<ResolvedPath | { refused: string }> {
    let r: ResolvedPath;
    try {
      r = await resolvePath(p, this.opts.workspace, { followFinal, home: this.opts.home });
    } catch (err) {
      if (err instanceof PathResolutionError) return { refused: err.message };
      throw err;
    }
    const refusal = this.opts.gate.scope.refusal(r.real, p);
    return refusal === null ? r : { refused: `permission denied: ${refusal}` };
  }

  private async authorizePath(tool: string, p: string, access: FileAccess): Promise<ResolvedPath | { refused: string }> {
    const r = await this.resolveInScope(p, true);
    if ('refused' in r) return r;
    const def = this.opts.catalog.get(tool)?.def;
    const decision = await this.opts.gate.check({
      ...(def ? gateTraits(def) : { fileEdit: false }),
      readOnly: access === 'read' && def?.readOnly === true,
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
  return { readOnly: def.readOnly, fileEdit: def.fileEdit === true, lifecycle: def.lifecycle === true, openWorld: def.openWorld === true };
}

function summary(t: RegisteredTool | undefined): ToolSummary | undefined {
  return t && { name: t.name, modelName: t.modelName, readOnly: t.readOnly };
}

/**
 * A thrown failure as the model sees it. A ToolError is already a sentence; a
 * system or library error with a known code becomes one (errors.ts) — never
 * `ENAMETOOLONG: name too long, lstat '…'`; anything else keeps its message.
 */
function failure(name: string, err: unknown): ToolCallResult {
  if (err instanceof ToolError) return { ok: false, error: `${name}: ${err.message}` };
  const e = err as NodeJS.ErrnoException;
  if (e?.name === 'AbortError' || e?.name === 'TimeoutError') return { ok: false, error: `${name}: ${e.message}` };
  const sentence = describeFailure(err);
  if (sentence !== undefined) return { ok: false, error: `${name}: ${sentence}` };
  return { ok: false, error: `${name} failed: ${e?.message ?? String(err)}` };
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

function abortError(signal: AbortSignal): Error {
  const reason = signal.reason as Error | undefined;
  const timedOut = reason?.name === 'TimeoutError';
  const e = new Error(timedOut ? 'call exceeded its deadline and was aborted' : 'call was cancelled');
  e.name = 'AbortError';
  return e;
}
