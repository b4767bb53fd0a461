import type { Kube } from '../k8s/cluster.ts';
import type { ElicitAnswer, ElicitForm } from './form.ts';
import type { AlertTarget } from '../net/alert-targets.ts';
import type { PermissionMode } from '../permissions/gate.ts';
import type { NetworkAccess } from '../net/network-access.ts';
import type { SearchProvider } from '../net/search-providers.ts';
import type { Skill } from '../skills/skills.ts';
import type { DigestWrap } from './digest-wrap.ts';
import type { PendingWrites } from './files/pending-writes.ts';
import type { PeerDirectory } from './peers/peer-directory.ts';
import type { PlanMode, PlanRecorder } from './planning/plan-recorder.ts';
import type { SearchGateMode } from './shell/search-gate.ts';
import type { GroupRecorder } from './shell/supervised-shell.ts';

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

/** Asks the operator a question (ask_user), or a few multiple-choice ones (request_user_input). */
export interface Asker {
  ask(question: string): Promise<{ answer: string } | { unavailable: string }>;
  /** Absent where no one can pick from a list (the client adds "None of the above" and a note). */
  choose?(questions: readonly ChoiceQuestion[]): Promise<{ answers: ChoiceAnswer[] } | { unavailable: string }>;
  /** An MCP server's form (elicitation, tools/form.ts); absent where no one can fill one in (it is declined). */
  elicit?(form: ElicitForm): Promise<ElicitAnswer | { unavailable: string }>;
}

/**
 * Everything the composition root hands the tools: what the recipe configured,
 * what the environment offers, and the run's services. Tools read it as
 * `ctx.services`; nothing below the root reads the environment itself. A tool
 * declares the services it cannot work without (`needs`), and is registered
 * only when they are here.
 */
export interface ToolServices {
  /** The environment commands run with (bash; credential-looking variables are withheld there). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The user's home directory. */
  readonly home: string;
  /** Whether /bin/sh exists (a distroless image has none). */
  readonly shell: boolean;
  /** url_scope and the resolver, when url_scope.allow has an entry (fetch_url, web_fetch). */
  readonly network?: NetworkAccess | undefined;
  /** The Kubernetes cluster the k8s_* tools read, when one is configured. */
  readonly kube?: Kube | undefined;
  /** Why there is no cluster, when there is none (said instead of the generic reason). */
  readonly kubeUnavailable?: string | undefined;
  /** The digest layer and its raw store (retrieve_raw); absent with --no-mcp-digest or no session store. */
  readonly digests?: DigestWrap | undefined;
  /** Plan-first's recorder (record_plan), absent when permissions.plan_mode is off. */
  readonly plans?: PlanRecorder | undefined;
  readonly planMode: PlanMode;
  /** The permission mode the run starts in (update_plan is not offered in "plan"). */
  readonly permissionMode: PermissionMode;
  /** What bash does with search-shaped commands. */
  readonly searchGate: SearchGateMode;
  /** web_search's provider, and its result count when a call gives none. */
  readonly searchProvider?: SearchProvider | undefined;
  readonly searchResults: number;
  /** alert's targets whose environment is set (the others can never deliver). */
  readonly alertTargets: readonly AlertTarget[];
  /** Installed skills (the skill tool). */
  readonly skills: readonly Skill[];
  readonly asker?: Asker | undefined;
  readonly checkpointer?: Checkpointer | undefined;
  readonly scheduler?: TurnScheduler | undefined;
  /** The journal of temporary files atomic writes have in flight (stale ones are removed at start-up). */
  readonly pendingWrites?: PendingWrites | undefined;
  /** Where the shells' process groups are recorded, so a later start can stop those of a killed run. */
  readonly groupRecords?: GroupRecorder | undefined;
  /** The git binary on the PATH commands run with (enter_worktree); absent when there is none. */
  readonly git?: string | undefined;
  /** The jj (Jujutsu) binary on that PATH, if any: enter_worktree makes a jj workspace in a jj repository. */
  readonly jj?: string | undefined;
  /** The sciontool binary on that PATH (sciontool_status): present only inside a Scion container. */
  readonly sciontool?: string | undefined;
  /** The peer hub's roster and the peers' token (call_peer): only on a hub with tools.call_peer.enabled. */
  readonly peers?: PeerDirectory | undefined;
  /** An rg binary to prefer over the bundled one (CORE_AGENT_RIPGREP). */
  readonly ripgrepPath?: string | undefined;
}

/** What a run without any configuration gets; the root overrides what it knows. */
export function toolServices(given: Partial<ToolServices> = {}): ToolServices {
  return {
    env: {},
    home: '/',
    shell: false,
    planMode: 'advisory',
    permissionMode: 'ask',
    searchGate: 'enforce',
    searchResults: 5,
    alertTargets: [],
    skills: [],
    ...given,
  };
}

/** The services a tool can need: the ones that may be missing from a run. */
export type NeedableService = keyof typeof MISSING;

/**
 * Why a tool is not registered when a service it needs is missing — the one
 * table of these reasons (the runtime logs them at start-up).
 */
const MISSING = {
  shell: () => 'there is no /bin/sh on this system (a distroless image?), so bash is not registered',
  network: () => 'permissions.url_scope.allow is empty',
  searchProvider: () => 'no web_search provider is configured',
  alertTargets: () => 'no alert target is configured with its environment set',
  kube: (s: ToolServices) => s.kubeUnavailable ?? 'no Kubernetes cluster is configured',
  skills: () => 'no skills installed (.agents/skills, skills.dirs)',
  digests: () => 'the digest layer is off (--no-mcp-digest, or no session store)',
  plans: () => 'permissions.plan_mode is off',
  asker: () => '--ask is off',
  checkpointer: () => 'no session checkpoints here (tools call, or --checkpoint=operator)',
  scheduler: () => 'not an autonomous run (run --autonomous)',
  git: () => 'git is not on the PATH commands run with, so enter_worktree is not registered',
  sciontool: () => 'sciontool is not on the PATH commands run with (not in a Scion container)',
  peers: () => 'call_peer runs only in the peer hub daemon (core-agent serve, peers.hub: true) with tools.call_peer.enabled',
} satisfies Partial<Record<keyof ToolServices, (s: ToolServices) => string>>;

/** A service counts as present when it is set, true, or a non-empty list. */
function present(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return value !== undefined && value !== false;
}

/** The reason the first missing need gives, or null when every need is met. */
export function missingNeed(needs: readonly NeedableService[], services: ToolServices): string | null {
  const missing = needs.find((n) => !present(services[n]));
  return missing === undefined ? null : MISSING[missing](services);
}
