import { Agent } from '../agent/agent.ts';
import { mcpEntryMatches, type AgentProfileConfig, type AgentsConfig } from '../config/agents-schema.ts';
import type { Dialect } from '../core/dialects.ts';
import type { Logger } from '../log.ts';
import type { ChatModel } from '../model/model.ts';
import { usageSince, ZERO_USAGE, type Price, type Usage } from '../model/pricing.ts';
import { realClock, type Clock } from '../util/clock.ts';
import { modelSpecProblem } from '../model/providers.ts';
import type { AgentEvent } from '../agent/agent.ts';
import type { EventLog } from '../store/event-log.ts';
import type { Catalog } from '../tools/framework/catalog.ts';
import { reportResult } from '../tools/framework/child-report.ts';
import { offeredIn } from '../tools/framework/scenario.ts';
import type { Dispatcher } from '../tools/framework/dispatch.ts';
import type { ChildBrief, ChildReport, ChildStopReason, Delegator } from '../tools/framework/services.ts';
import { SessionState } from '../tools/framework/session.ts';
import { childServices } from './child-asker.ts';
import { recordCalls } from './record-calls.ts';

/**
 * The delegation engine: a child is an agent run on the parent's dispatcher path — the same
 * gate, path scope, caps, hooks and secrets (Dispatcher.forChild) — over a narrowed catalog
 * (Catalog.narrowed), with its own session in the same event log, its own context (the brief
 * must stand alone), budgets, and a cancellation tied to its parent's. The delegation tools
 * of each dialect (spawn_agent, delegate_agent, StartSubagent) are thin faces over it.
 */

/** A profile as the engine uses it: the recipe's, or a built-in one, with the limits filled in. */
export interface AgentProfile {
  readonly name: string;
  readonly description: string;
  readonly instructions: string;
  /** 'small', a provider:model, or undefined: the parent's. */
  readonly model?: string | undefined;
  /** Built-in tools: undefined, the parent's less what the subagent scenario excludes (scenario.ts); a list, exactly those. */
  readonly tools?: readonly string[] | undefined;
  /**
   * MCP servers or `server:tool` patterns: a list, exactly those; [] none; undefined, as `tools`
   * is: the parent's MCP tools when it is omitted too, none when it is a list (exactly those tools).
   */
  readonly mcp?: readonly string[] | undefined;
  /** Skill names the child's skill tool serves: undefined, the parent's skills; a list, exactly those; [] none. */
  readonly skills?: readonly string[] | undefined;
  /** Never granted, whatever `tools` says (Cagent's deny list: deny wins). */
  readonly deny?: readonly string[] | undefined;
  readonly readOnly: boolean;
  readonly maxTurns: number;
  readonly maxCostUsd: number;
  readonly maxWallclockSeconds: number;
  /** The deepest level an agent of this profile may run at (1: spawned by the main agent only); agents.max_depth still holds. */
  readonly maxDepth?: number | undefined;
}

export const DEFAULT_LIMITS = { maxTurns: 50, maxCostUsd: 1, maxWallclockSeconds: 600 } as const;
export const DEFAULT_MAX_DEPTH = 2;
export const DEFAULT_MAX_CONCURRENT = 8;
/** Cagent's own default (its subagents.max_concurrent), for a run in its dialect. */
export const DEFAULT_MAX_CONCURRENT_CAGENT = 10;
export const DEFAULT_SYNC_WAIT_MS = 300_000;

/** The built-in profiles, replaced by a recipe profile of the same name. */
export const BUILTIN_PROFILES: readonly AgentProfile[] = [
  {
    name: 'general',
    description: 'A general-purpose agent with your tools (less delegation): give it a self-contained task.',
    instructions: '',
    readOnly: false,
    ...DEFAULT_LIMITS,
  },
  {
    name: 'explore',
    description: 'Reads and searches (files, logs, the cluster) and reports what it found; changes nothing. On the small model.',
    instructions:
      'You explore and report. You change nothing. Read, search and list what the task needs, then answer with the findings, the evidence (paths, lines, names) and what you could not find.',
    model: 'small',
    readOnly: true,
    ...DEFAULT_LIMITS,
  },
];

const PREAMBLE =
  'You are a sub-agent: another agent gave you the task below and will read only your final answer. ' +
  'It cannot see your tool calls. Work within your tools, and end with a complete, self-contained answer.';

/** A model for a child: the instance, its spec and its price (null: unknown, so no cost figure). */
export interface ChildModel {
  readonly model: ChatModel;
  readonly spec: string;
  readonly price: Price | null | undefined;
}

/** What the engine needs of the run it serves, handed over once the run is built. */
export interface DelegationRoot {
  readonly catalog: Catalog;
  readonly dispatcher: Dispatcher;
  readonly log: EventLog;
  readonly workspace: string;
  /** The parent's model. */
  readonly model: ChildModel;
  /** Resolves a provider:model for a profile or `small`. */
  modelFor(spec: string): Promise<ChildModel>;
  readonly logger: Logger;
}

export interface ChildAgentsOptions {
  profiles: readonly AgentProfile[];
  maxDepth: number;
  maxConcurrent: number;
  syncWaitMs: number;
  /** The model `small` means; undefined: the parent's. */
  smallModel?: string | undefined;
}

/** The engine's settings from the recipe's `agents:` section and the built-in profiles; the dialect picks the concurrency default. */
export function childAgentsOptions(config: AgentsConfig | undefined, dialect?: Dialect): ChildAgentsOptions {
  const own = Object.entries(config?.profiles ?? {}).map(([name, p]) => profileOf(name, p));
  const profiles = [...BUILTIN_PROFILES.filter((b) => !own.some((p) => p.name === b.name)), ...own];
  return {
    profiles,
    maxDepth: config?.max_depth ?? DEFAULT_MAX_DEPTH,
    maxConcurrent: config?.max_concurrent ?? (dialect === 'cagent' ? DEFAULT_MAX_CONCURRENT_CAGENT : DEFAULT_MAX_CONCURRENT),
    syncWaitMs: (config?.sync_wait_seconds ?? DEFAULT_SYNC_WAIT_MS / 1000) * 1000,
    smallModel: config?.small_model,
  };
}

function profileOf(name: string, p: AgentProfileConfig): AgentProfile {
  return {
    name,
    description: p.description,
    instructions: p.instructions ?? '',
    model: p.model,
    tools: p.tools,
    mcp: p.mcp,
    skills: p.skills,
    deny: p.deny,
    readOnly: p.read_only === true,
    maxTurns: p.max_turns ?? DEFAULT_LIMITS.maxTurns,
    maxCostUsd: p.max_cost_usd ?? DEFAULT_LIMITS.maxCostUsd,
    maxWallclockSeconds: p.max_wallclock_seconds ?? DEFAULT_LIMITS.maxWallclockSeconds,
    maxDepth: p.max_depth,
  };
}

/** Where a child's spend and its start and end go: the agent of the session that spawned it. */
export interface ParentSink {
  addDelegatedUsage(usage: Usage): void;
  report(e: AgentEvent): void;
  /** A top-level session past its --max-session-cost-usd: its children are stopped. */
  overBudget?(): boolean;
}

interface Child {
  readonly name: string;
  readonly profile: AgentProfile;
  readonly sessionId: string;
  readonly parentSession: string | undefined;
  readonly depth: number;
  readonly controller: AbortController;
  readonly done: Promise<void>;
  agent: Agent | undefined;
  report: ChildReport;
  /** Why it was aborted, when it was: the stop reason the abort stands for. */
  abortedFor?: ChildStopReason;
  /** Which budget a `budget` stop spent: its wall clock, or its (or the session's) cost. */
  budgetSpent?: 'time' | 'cost';
  /** Its report still has to reach the parent's model (its spawn returned before it ended). */
  deferred: boolean;
  /** Its usage as last rolled up into its parent's. */
  rolled: Usage;
}

const GUIDANCE: Readonly<Record<Exclude<ChildStopReason, 'natural'>, string>> = {
  no_return: 'It ended without an answer: give it a narrower task, or do the work yourself.',
  max_steps: 'It ran out of turns: what it returned is its answer so far; spawn again with a narrower task or a higher max_turns.',
  budget: 'It hit its cost or time budget: what it returned is unfinished; narrow the task or raise max_cost_usd / max_wallclock_seconds.',
  deferred: 'It is still running: its report comes in a later turn.',
  stopped: 'It was stopped before it finished: what it returned is unfinished.',
  error: 'It failed: read the error, then retry or do the work yourself.',
};

export class ChildAgents implements Delegator {
  private root: DelegationRoot | undefined;
  private opts: ChildAgentsOptions = childAgentsOptions(undefined);
  private readonly children = new Map<string, Child>();
  private readonly counters = new Map<string, number>();
  /** The agents of the sessions that are not children (a run's, each of watch's incidents'), by session id. */
  private readonly roots = new Map<string, ParentSink>();

  /** `clock` times the waits and the children's wall clocks: a test moves it (test/helpers/moved-clock.ts). */
  constructor(private readonly clock: Clock = realClock) {}

  /** The recipe's agents: section, as soon as the recipe is read (before the catalog: the tools' descriptions name the profiles). */
  configure(agents: AgentsConfig | undefined, dialect?: Dialect): void {
    this.opts = childAgentsOptions(agents, dialect);
  }

  /** The agent of a top-level session: its children's spend rolls up into it, and their starts and ends show in its output. */
  adopt(sessionId: string, agent: ParentSink): void {
    this.roots.set(sessionId, agent);
  }

  /** Called once the run is built: before, a spawn is refused. */
  attach(root: DelegationRoot): void {
    this.root = root;
  }

  off(): string | null {
    return this.opts.maxConcurrent === 0 ? 'delegation is off in this recipe (agents.max_concurrent: 0)' : null;
  }

  /** The sync wait of a spawn with wait: true. */
  get syncWaitMs(): number {
    return this.opts.syncWaitMs;
  }

  profiles(): ReadonlyArray<{ name: string; description: string; tools: readonly string[] }> {
    const root = this.root;
    return this.opts.profiles.map((p) => ({ name: p.name, description: p.description, tools: root ? [...this.grantOf(p, root)] : [] }));
  }

  start(brief: ChildBrief, parentSession: string | undefined): { ok: true; name: string } | { ok: false; error: string } {
    const root = this.root;
    if (!root) return { ok: false, error: 'delegation is not ready in this run yet' };
    const off = this.off();
    if (off !== null) return { ok: false, error: off };
    const profile = this.opts.profiles.find((p) => p.name === brief.profile);
    if (!profile)
      return {
        ok: false,
        error: `no agent profile "${brief.profile}"; the profiles are ${this.opts.profiles.map((p) => p.name).join(', ')}`,
      };
    // A provider:model override (delegate_agent) is checked now: an unknown provider is a refusal naming the known ones.
    const modelProblem = brief.model === undefined || brief.model === 'small' ? undefined : modelSpecProblem(brief.model);
    if (modelProblem !== undefined) return { ok: false, error: modelProblem };
    const parent = parentSession === undefined ? undefined : this.bySession(parentSession);
    const depth = (parent?.depth ?? 0) + 1;
    if (depth > this.opts.maxDepth)
      return { ok: false, error: `a child at depth ${depth} would pass the depth limit (agents.max_depth: ${this.opts.maxDepth})` };
    if (profile.maxDepth !== undefined && depth > profile.maxDepth)
      return {
        ok: false,
        error: `${profile.name} may run at depth ${profile.maxDepth} at most (agents.profiles.${profile.name}.max_depth), and this child would be at depth ${depth}`,
      };
    for (let a: Child | undefined = parent; a; a = a.parentSession === undefined ? undefined : this.bySession(a.parentSession)) {
      if (a.profile.name === profile.name)
        return { ok: false, error: `${profile.name} is one of this agent's own ancestors (${a.name}): a profile cannot spawn itself` };
    }
    const running = [...this.children.values()].filter((c) => c.report.status === 'running').length;
    if (running >= this.opts.maxConcurrent)
      return {
        ok: false,
        error: `${running} children are running, the most at once (agents.max_concurrent: ${this.opts.maxConcurrent}); wait for one or stop one`,
      };
    const unmatched = this.unmatchedMcp(profile, root);
    if (unmatched !== undefined)
      return {
        ok: false,
        error: `the ${profile.name} profile's MCP entry "${unmatched}" (agents.profiles.${profile.name}.mcp) matches no MCP tool in this run: is its server running, and is the tool's name right?`,
      };
    const grant = this.grantOf(profile, root);
    const widening = (brief.tools ?? []).filter((t) => !grant.has(root.catalog.get(t)?.name ?? t));
    if (widening.length > 0)
      return {
        ok: false,
        error: `tools may only narrow the ${profile.name} profile's grant; not in it: ${widening.slice(0, 10).join(', ')}`,
      };
    const named = brief.tools ? new Set(brief.tools.map((t) => root.catalog.get(t)?.name ?? t)) : grant;
    const tools = brief.noQuestions ? new Set([...named].filter((t) => root.catalog.get(t)?.kind !== 'ask')) : named;
    const name = brief.name ?? this.nextName(profile.name);
    if (!/^[a-z][a-z0-9_-]{0,47}$/.test(name))
      return { ok: false, error: `name "${name.slice(0, 60)}": lower-case letters, digits, "_" and "-", starting with a letter` };
    if (this.children.has(name)) return { ok: false, error: `an agent named ${name} exists in this run; pick another name` };
    const limits = {
      maxTurns: Math.min(profile.maxTurns, brief.maxTurns ?? Infinity),
      maxCostUsd: Math.min(profile.maxCostUsd, brief.maxCostUsd ?? Infinity),
      maxWallclockSeconds: Math.min(profile.maxWallclockSeconds, brief.maxWallclockSeconds ?? Infinity),
    };
    const sessionId = `${parentSession ?? 'run'}:sub:${name}`;
    const controller = new AbortController();
    const report: ChildReport = { name, profile: profile.name, sessionId, status: 'running', turns: 0, costUsd: 0 };
    const child: Child = {
      name,
      profile,
      sessionId,
      parentSession,
      depth,
      controller,
      agent: undefined,
      report,
      done: Promise.resolve(),
      deferred: false,
      rolled: ZERO_USAGE,
    };
    (child as { done: Promise<void> }).done = this.run(child, root, brief, tools, limits, brief.modelSpec ?? brief.model ?? profile.model);
    this.children.set(name, child);
    return { ok: true, name };
  }

  async wait(name: string, timeoutMs: number, parentSession: string | undefined, signal?: AbortSignal): Promise<ChildReport | undefined> {
    const child = this.children.get(name);
    if (!child || !this.isWithin(child, parentSession)) return undefined;
    // Waited for: its report is the waiter's now, not the inbox's.
    child.deferred = false;
    let cancelTimer: (() => void) | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      child.done,
      new Promise<void>((resolve) => {
        cancelTimer = this.clock.after(timeoutMs, resolve);
        onAbort = () => resolve();
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    cancelTimer?.();
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    // Its stop was asked for as the wait ran out (its wall clock at the same instant): its report, not "running".
    if (child.controller.signal.aborted && !signal?.aborted) await child.done;
    return child.report;
  }

  async stop(name: string, parentSession: string | undefined): Promise<ChildReport | undefined> {
    const child = this.children.get(name);
    // A child belongs to the session that spawned it (or to one of its ancestors): another run's is unknown here.
    if (!child || !this.isWithin(child, parentSession)) return undefined;
    this.abort(child, 'stopped');
    await child.done;
    return child.report;
  }

  /**
   * golem's run is held open by its subagents: the session's running descendants, waited for
   * until each ends (its own wall clock bounds it) or `signal` aborts (Ctrl-C), then stopped.
   * The number that were still running when the wait began.
   */
  async settle(parentSession: string, signal?: AbortSignal): Promise<number> {
    const running = [...this.children.values()].filter((c) => c.report.status === 'running' && this.isWithin(c, parentSession));
    if (running.length === 0) return 0;
    const aborted = new Promise<void>((resolve) => {
      if (signal?.aborted) resolve();
      signal?.addEventListener('abort', () => resolve(), { once: true });
    });
    await Promise.race([Promise.all(running.map((c) => c.done)), aborted]);
    return running.length;
  }

  /** Every child still running: stopped, for the run's end (its Ctrl-C, a watch shutdown). */
  async stopAll(): Promise<void> {
    const running = [...this.children.values()].filter((c) => c.report.status === 'running');
    for (const c of running) this.abort(c, 'stopped');
    await Promise.all(running.map((c) => c.done));
  }

  /** The spawn returned while the child ran on: its report goes into the parent's next model call (takeReports). */
  defer(name: string): void {
    const child = this.children.get(name);
    if (child) child.deferred = true;
  }

  /** The reports of a session's deferred children that have ended, each once, for its model (Agent's inbox). */
  takeReports(parentSession: string | undefined): string[] {
    const out: string[] = [];
    for (const c of this.children.values()) {
      if (!c.deferred || c.parentSession !== parentSession || c.report.status === 'running') continue;
      c.deferred = false;
      out.push(
        `[agent ${c.name} (${c.profile.name}) ended: ${c.report.stopReason ?? c.report.status}]\n${JSON.stringify(reportResult(c.report))}`,
      );
    }
    return out;
  }

  /** The children of one session, for /agents and the parent's listing. */
  list(parentSession?: string): ChildReport[] {
    return [...this.children.values()].filter((c) => parentSession === undefined || c.parentSession === parentSession).map((c) => c.report);
  }

  private abort(child: Child, reason: ChildStopReason): void {
    if (child.report.status !== 'running') return;
    child.abortedFor ??= reason;
    child.controller.abort(new Error(reason));
    // Its own children go with it.
    for (const c of this.children.values()) if (c.parentSession === child.sessionId) this.abort(c, 'stopped');
  }

  /** The agent a child reports to: its spawning child's, or an adopted top-level session's. */
  private sinkOf(child: Child): ParentSink | undefined {
    if (child.parentSession === undefined) return undefined;
    return this.bySession(child.parentSession)?.agent ?? this.roots.get(child.parentSession);
  }

  /**
   * What the child spent since the last roll-up, added to its parent's usage (and so to the
   * parent's turn), and on up: a grandchild's spend reaches the top-level session at once, not
   * when its parent next answers. A top-level session past --max-session-cost-usd stops the
   * branch that spent it.
   */
  private rollUp(child: Child): void {
    const now = child.agent?.usage;
    if (!now) return;
    const delta = usageSince(child.rolled, now);
    child.rolled = now;
    if (delta.inputTokens + delta.outputTokens > 0 || delta.costUsd !== 0) this.sinkOf(child)?.addDelegatedUsage(delta);
    const parent = child.parentSession === undefined ? undefined : this.bySession(child.parentSession);
    if (parent) this.rollUp(parent);
    else if (child.parentSession !== undefined && this.roots.get(child.parentSession)?.overBudget?.() === true)
      this.overBudget(child, 'cost');
  }

  private overBudget(child: Child, spent: 'time' | 'cost'): void {
    if (child.report.status === 'running') child.budgetSpent ??= spent;
    this.abort(child, 'budget');
  }

  private isWithin(child: Child, session: string | undefined): boolean {
    for (let c: Child | undefined = child; c; c = c.parentSession === undefined ? undefined : this.bySession(c.parentSession)) {
      if (c.parentSession === session) return true;
    }
    return false;
  }

  private bySession(sessionId: string): Child | undefined {
    for (const c of this.children.values()) if (c.sessionId === sessionId) return c;
    return undefined;
  }

  private nextName(profile: string): string {
    let n = this.counters.get(profile) ?? 0;
    let name: string;
    do name = `${profile}-${++n}`;
    while (this.children.has(name));
    this.counters.set(profile, n);
    return name;
  }

  /**
   * The tools a profile grants, by canonical name. Built-in tools: its `tools` list, or the
   * parent's; MCP tools: its `mcp` entries, or as `tools` goes (a tools list alone grants no
   * MCP tool: a list was always exactly those tools); either way only what the subagent
   * scenario offers (scenario.ts: a listed tool may be brought back, by dialect). Then `deny`
   * removes, and read-only keeps readers.
   */
  private grantOf(profile: AgentProfile, root: DelegationRoot): Set<string> {
    const catalog = root.catalog;
    const listed = new Set((profile.tools ?? []).map((t) => catalog.get(t)?.name ?? t));
    const names = catalog.names().filter((t) => {
      const source = catalog.sourceOf(t);
      if (source === undefined) return profile.tools === undefined || listed.has(t);
      if (source.startsWith('mcp:'))
        return profile.mcp === undefined ? profile.tools === undefined : this.mcpListed(profile.mcp, source, t);
      return true;
    });
    const denied = new Set((profile.deny ?? []).map((t) => catalog.get(t)?.name ?? t));
    return new Set(
      names.filter((t) => {
        const tool = catalog.get(t)!;
        return offeredIn(tool.def, 'subagent', catalog.dialect, listed.has(t)) && !denied.has(t) && (!profile.readOnly || tool.readOnly);
      }),
    );
  }

  private mcpListed(entries: readonly string[], source: string, name: string): boolean {
    const server = source.slice('mcp:'.length);
    const tool = name.slice(`mcp.${server}.`.length);
    return entries.some((e) => mcpEntryMatches(e, server, tool));
  }

  /** The first of a profile's `mcp` entries that matches no MCP tool this run has, if any. */
  private unmatchedMcp(profile: AgentProfile, root: DelegationRoot): string | undefined {
    const mcp = root.catalog.names().flatMap((t) => {
      const source = root.catalog.sourceOf(t);
      return source?.startsWith('mcp:') ? [{ source, t }] : [];
    });
    return (profile.mcp ?? []).find((e) => !mcp.some(({ source, t }) => this.mcpListed([e], source, t)));
  }

  private async run(
    child: Child,
    root: DelegationRoot,
    brief: ChildBrief,
    tools: ReadonlySet<string>,
    limits: { maxTurns: number; maxCostUsd: number; maxWallclockSeconds: number },
    modelChoice: string | undefined,
  ): Promise<void> {
    const set = (r: Partial<ChildReport>) => (child.report = { ...child.report, ...r });
    const texts: string[] = [];
    // Named: its permission prompts show whose call it is, and its plans are filed under it.
    const session = new SessionState(child.name);
    session.sessionId = child.sessionId;
    const cancelWallclock = this.clock.after(limits.maxWallclockSeconds * 1000, () => this.overBudget(child, 'time'), false);
    try {
      // A child starts after its spawn has returned its name: its first model call is never part of the spawn's call.
      await Promise.resolve();
      const spec = modelChoice === 'small' ? this.opts.smallModel : modelChoice;
      const chosen = spec === undefined ? root.model : await root.modelFor(spec);
      // A replay script may address steps to agents (by name or profile): each child then replays its own.
      const view = (chosen.model as { forAgent?: (name: string, profile: string) => ChatModel }).forAgent?.(child.name, child.profile.name);
      const model = view ? { ...chosen, model: view } : chosen;
      const catalog = root.catalog.narrowed(
        (n) => tools.has(n),
        childServices(root.catalog.services, child.name, child.profile),
        `agent ${child.name} was not granted it (profile ${child.profile.name}${child.profile.readOnly ? ', read-only' : ''}${brief.tools ? ', narrowed by its spawn' : ''}); do without it, or say in your answer what it should do`,
        { scenario: 'subagent', listed: child.profile.tools?.map((t) => root.catalog.get(t)?.name ?? t) },
      );
      const dispatcher = root.dispatcher.forChild({ catalog, session });
      const instructions = [PREAMBLE, child.profile.instructions].filter(Boolean).join('\n\n');
      root.log.createSession({ id: child.sessionId, model: model.spec, workspace: root.workspace, title: brief.goal.slice(0, 80) });
      root.log.append(child.sessionId, 0, 'session_start', {
        model: model.spec,
        workspace: root.workspace,
        instructions,
        tools: catalog.names(),
        parent: child.parentSession ?? null,
        agent: child.name,
        profile: child.profile.name,
      });
      dispatcher.recordTo(recordCalls(root.log, child.sessionId, session));
      this.sinkOf(child)?.report({
        type: 'agent_start',
        name: child.name,
        profile: child.profile.name,
        session: child.sessionId,
        parent: child.parentSession ?? null,
        model: model.spec,
      });
      const agent = new Agent({
        model: model.model,
        dispatcher,
        catalog,
        instructions,
        log: root.log,
        sessionId: child.sessionId,
        maxSteps: limits.maxTurns,
        session,
        // Its own children's deferred reports.
        inbox: () => this.takeReports(child.sessionId),
        price: model.price,
        stream: false,
        onEvent: (e) => {
          if (e.type === 'text') texts.push(e.text);
          // Its own children's starts and ends show where its parent's output does.
          if (e.type === 'agent_start' || e.type === 'agent_end') this.sinkOf(child)?.report(e);
          // Live: the usage includes the step just answered (and its own children's spend).
          const cost = agent.usage.costUsd;
          // Its model calls with tools so far (what max_turns bounds), not agent.turn: a child runs one turn.
          set({ turns: agent.stepsWithTools, costUsd: cost });
          this.rollUp(child);
          if (cost !== null && cost > limits.maxCostUsd) this.overBudget(child, 'cost');
        },
      });
      child.agent = agent;
      const result = await agent.runTurn(brief.goal, child.controller.signal);
      const reason: ChildStopReason = result.status === 'step_limit' ? 'max_steps' : result.text.trim() === '' ? 'no_return' : 'natural';
      set({
        status: 'done',
        stopReason: reason,
        finalText: reason === 'max_steps' ? unfinished(result.text, 'it ran out of turns') : result.text,
        turns: agent.stepsWithTools,
        costUsd: agent.usage.costUsd,
        ...(reason === 'natural' ? {} : { guidance: GUIDANCE[reason] }),
      });
    } catch (err) {
      const reason = child.abortedFor;
      if (reason !== undefined) {
        const spent = reason === 'budget' ? (child.budgetSpent ?? 'cost') : undefined;
        set({
          status: reason === 'stopped' ? 'stopped' : 'done',
          stopReason: reason,
          ...(spent ? { budget: spent } : {}),
          guidance: GUIDANCE[reason as Exclude<ChildStopReason, 'natural'>],
          finalText: unfinished(
            texts.join('\n\n'),
            spent === 'time' ? `it ran out of time (${limits.maxWallclockSeconds} s)` : spent ? 'it hit its cost budget' : 'it was stopped',
          ),
          turns: child.agent?.stepsWithTools ?? child.report.turns,
          costUsd: child.agent?.usage.costUsd ?? child.report.costUsd,
        });
      } else {
        const message = String((err as Error).message ?? err).slice(0, 500);
        root.logger.warn({ agent: child.name, error: message }, 'a child agent failed');
        set({ status: 'error', stopReason: 'error', error: message, guidance: GUIDANCE.error, turns: child.agent?.stepsWithTools ?? 0 });
      }
    } finally {
      cancelWallclock();
      this.rollUp(child);
      // What the child left running (a background terminal) ends with it.
      await session.close();
      const r = child.report;
      try {
        root.log.append(child.sessionId, child.agent?.turn ?? 0, 'agent_end', {
          agent: r.name,
          profile: r.profile,
          status: r.status,
          stop_reason: r.stopReason ?? null,
          turns: r.turns,
          cost_usd: r.costUsd,
        });
      } catch {
        // The session was never created (the model could not be resolved): nothing to close.
      }
      this.sinkOf(child)?.report({
        type: 'agent_end',
        name: r.name,
        profile: r.profile,
        session: r.sessionId,
        status: r.status,
        stopReason: r.stopReason ?? null,
        turns: r.turns,
        costUsd: r.costUsd,
      });
    }
  }
}

/** Partial work, under a header that says it is unfinished and why. */
function unfinished(text: string, why: string): string {
  const body = text.trim() === '' ? '(no text yet)' : text.trim();
  return `[unfinished: ${why}]\n\n${body}`;
}
