import type { PermissionMode } from '../../permissions/gate.ts';
import type { DigestWrap } from './digest-wrap.ts';
import type { ElicitAnswer, ElicitForm } from './form.ts';

/** Takes a checkpoint request from mark_task_done; the agent acts on it when the turn ends. */
export interface Checkpointer {
  request(detail: string): void;
}

/** Takes a wake-up request from schedule_next_turn (autonomous runs only). */
export interface TurnScheduler {
  /** null when accepted, else the reason it was refused (the model sees it). */
  request(wakeAt: Date, nextPrompt: string | undefined, detail: string | undefined): string | null;
}

/** One multiple-choice question of request_user_input. */
export interface ChoiceQuestion {
  readonly id: string;
  readonly header: string;
  readonly question: string;
  readonly options: readonly { readonly label: string; readonly description: string }[];
}

/** The operator's reply to one question: an offered label, or "None of the above" with their note. */
export type ChoiceAnswer =
  { readonly id: string; readonly choice: string } | { readonly id: string; readonly none: true; readonly note: string };

/**
 * One question of golem's AskUserQuestionTool: `options` to choose among (none: a free-text
 * answer), several of them with `multiSelect`, and a free-text answer beside them labelled
 * `other` when that is given.
 */
export interface OpenQuestion {
  readonly question: string;
  readonly header?: string | undefined;
  readonly options: readonly string[];
  readonly multiSelect?: boolean | undefined;
  readonly other?: string | undefined;
}

/** Asks the operator a question (ask_user), or a few multiple-choice ones (request_user_input). */
export interface Asker {
  ask(question: string): Promise<{ answer: string } | { unavailable: string }>;
  /** Absent where no one can pick from a list (the client adds "None of the above" and a note). */
  choose?(questions: readonly ChoiceQuestion[]): Promise<{ answers: ChoiceAnswer[] } | { unavailable: string }>;
  /** An MCP server's form (elicitation, tools/form.ts); absent where no one can fill one in (it is declined). */
  elicit?(form: ElicitForm): Promise<ElicitAnswer | { unavailable: string }>;
  /**
   * golem's questions, answered now by a person at this client (the REPL, a terminal): the
   * answers keyed by question text. Absent where nobody answers inline: the questions then
   * wait with the session for a later answer (AskUserQuestionTool).
   */
  askQuestions?(questions: readonly OpenQuestion[]): Promise<{ answers: Record<string, string> } | { unavailable: string }>;
}

/** Why a child agent stopped (core-agent's spawn_agent contract): each but `natural` comes with one line of guidance. */
export type ChildStopReason = 'natural' | 'no_return' | 'max_steps' | 'budget' | 'deferred' | 'stopped' | 'error';

/** What a delegation asks for: a profile, a brief that stands alone, and limits that may only tighten the profile's. */
export interface ChildBrief {
  readonly profile: string;
  /** The instance's name (default `<profile>-<n>`). */
  readonly name?: string | undefined;
  /** The task, complete: the child sees nothing of the parent's conversation. */
  readonly goal: string;
  /** Narrow the profile's tools to these (never widen). */
  readonly tools?: readonly string[] | undefined;
  /** The child may not ask the operator: tools of the `ask` kind are left out (golem's subagents). */
  readonly noQuestions?: boolean | undefined;
  /** `small`: the run's small model instead of the profile's; a `provider:model`: that model (delegate_agent's override). */
  readonly model?: string | undefined;
  /**
   * A provider:model the run's configuration chose, over `model` and the profile's (the agentic
   * wrappers' --agentic-small-model). Never from a model's arguments (those come as `model`).
   */
  readonly modelSpec?: string | undefined;
  readonly maxTurns?: number | undefined;
  readonly maxCostUsd?: number | undefined;
  readonly maxWallclockSeconds?: number | undefined;
}

/** A child's state as its parent sees it. */
export interface ChildReport {
  readonly name: string;
  readonly profile: string;
  /** The child's session in the event log: `<parent session>:sub:<name>`. */
  readonly sessionId: string;
  readonly status: 'running' | 'done' | 'stopped' | 'error';
  readonly stopReason?: ChildStopReason | undefined;
  /** With stopReason `budget`: the budget it spent, its wall clock (`time`) or its or its session's cost. */
  readonly budget?: 'time' | 'cost' | undefined;
  /** One line on what to do about a stop that was not natural. */
  readonly guidance?: string | undefined;
  /** The child's answer; with a budget or wall-clock stop, its partial work under a header saying so. */
  readonly finalText?: string | undefined;
  readonly error?: string | undefined;
  /** Its model calls that were offered tools (what max_turns bounds), live while it runs. */
  readonly turns: number;
  /** Its model's spend so far; null when the model's price is unknown. */
  readonly costUsd: number | null;
}

/**
 * The delegation engine (runtime/child-agents.ts), a session port the agent system fills: a
 * child is an agent run on the same dispatcher path, gate, path scope and event log, with a
 * narrowed catalog and its own context. The delegation tools are thin faces over it.
 */
export interface Delegator {
  /** Why delegation is off in this run (agents.max_concurrent: 0), or null: the delegation tools are registered only when null. */
  off(): string | null;
  /** The profiles a spawn may name, with the tools each grants (resolved in this build). */
  profiles(): ReadonlyArray<{ readonly name: string; readonly description: string; readonly tools: readonly string[] }>;
  /** Start a child for the session `parentSession`; a refusal is a sentence, never a throw. */
  start(brief: ChildBrief, parentSession: string | undefined): { ok: true; name: string } | { ok: false; error: string };
  /**
   * The child's report once it ends, or its running report after `timeoutMs` (or when `signal`
   * aborts); undefined for a name `parentSession` did not start (another conversation's child is unknown).
   */
  wait(name: string, timeoutMs: number, parentSession: string | undefined, signal?: AbortSignal): Promise<ChildReport | undefined>;
  /** How long a spawn that waits blocks before the child runs on (agents.sync_wait_seconds). */
  readonly syncWaitMs: number;
  /** The spawn returned while the child runs on: its report goes into the parent's next model call. */
  defer(name: string): void;
  /** Stop a child (and its own children); its report, or undefined for a name the session does not own. */
  stop(name: string, parentSession: string | undefined): Promise<ChildReport | undefined>;
}

/**
 * The journal of temporary files atomic writes have in flight, so the next start can remove
 * what a killed process left behind (the root's state directory keeps it).
 */
export interface WriteJournal {
  /** Journal a temporary file about to be created; the entry to end, or undefined when it could not be journaled. */
  begin(tmpPath: string): Promise<string | undefined>;
  end(entry: string | undefined): Promise<void>;
}

/**
 * What the tools are handed: the run's services. The framework declares only what every
 * run or the framework itself has — the environment, the home directory, the permission
 * mode, the digest layer, the session's ports the agent fills (asker, checkpointer,
 * scheduler) and the write journal. **A family declares the services it provides beside
 * its tools**, by declaration merging in its own `services.ts`:
 *
 * ```ts
 * declare module '../framework/services.ts' {
 *   interface ToolServices { readonly kube?: Kube | undefined }
 * }
 * ```
 *
 * so the framework names no family's service and adding a family edits nothing here. A
 * tool sees only the services it declares (`needs`, `uses`): the dispatcher hands it a view
 * of those keys and nothing else (services-view.ts).
 */
export interface ToolServices {
  /** The environment commands run with (bash; credential-looking variables are withheld there). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The user's home directory. */
  readonly home: string;
  /** The permission mode the run starts in (update_plan is not offered in "plan"). */
  readonly permissionMode: PermissionMode;
  /** The digest layer and its raw store (retrieve_raw); absent with --no-mcp-digest or no session store. */
  readonly digests?: DigestWrap | undefined;
  readonly asker?: Asker | undefined;
  readonly checkpointer?: Checkpointer | undefined;
  readonly scheduler?: TurnScheduler | undefined;
  /** The delegation engine: present in an agent session whose recipe allows delegation. */
  readonly delegator?: Delegator | undefined;
  /** Where atomic writes journal their temporary files; absent: nothing is journaled (tests, recipe validate). */
  readonly pendingWrites?: WriteJournal | undefined;
}

/** A service's name. */
export type ServiceName = keyof ToolServices;

/** What a run without any configuration gets; the root overrides what it knows. */
export function toolServices(given: Partial<ToolServices> = {}): ToolServices {
  return { env: {}, home: '/', permissionMode: 'ask', ...given };
}

/**
 * Why a tool is not registered when a service it needs is missing, by service. The
 * framework's own services have their reasons here; a family gives its services' reasons
 * in its definition (`defineFamily(…, {missing})`), and the catalog is handed the union.
 */
export type MissingReasons = { readonly [K in ServiceName]?: (services: ToolServices) => string };

export const FRAMEWORK_MISSING: MissingReasons = {
  digests: () => 'the digest layer is off (--no-mcp-digest, or no session store)',
  asker: () => '--ask is off',
  checkpointer: () => 'no session checkpoints here (tools call, or --checkpoint=operator)',
  scheduler: () => 'not an autonomous run (run --autonomous)',
  delegator: () => 'no agent session to delegate from here (tools call, mcp serve), or agents.max_concurrent is 0',
};

/** A service counts as present when it is set, true, or a non-empty list. */
function present(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return value !== undefined && value !== false;
}

/** The reason the first missing need gives, or null when every need is met. */
export function missingNeed(
  needs: readonly ServiceName[],
  services: ToolServices,
  reasons: MissingReasons = FRAMEWORK_MISSING,
): string | null {
  const missing = needs.find((n) => !present(services[n]));
  if (missing === undefined) return null;
  return reasons[missing]?.(services) ?? `the ${missing} service is not configured in this run`;
}

/**
 * The services a tool declared, and nothing else: what the dispatcher hands it as
 * `ctx.services`. The home directory and the permission mode are always in it; anything
 * else — the command environment included — only when the tool names it in `needs` or `uses`.
 */
export function servicesView(services: ToolServices, keys: readonly ServiceName[]): ToolServices {
  const view: Record<string, unknown> = { home: services.home, permissionMode: services.permissionMode };
  for (const k of keys) view[k] = services[k];
  return Object.freeze(view) as unknown as ToolServices;
}
