import type { NetworkAccess } from '../net/network-access.ts';
import type { Kube } from '../k8s/cluster.ts';
import type { DigestWrap } from './digest-wrap.ts';
import type { PendingWrites } from './files/pending-writes.ts';
import type { PlanRecorder } from './planning/plan-recorder.ts';
import type { GroupRecorder } from './shell/supervised-shell.ts';
import { TerminalManager } from './shell/terminals.ts';

/** Takes a checkpoint request from mark_task_done; the agent acts on it when the turn ends. */
export interface Checkpointer {
  request(detail: string): void;
}

/** Takes a wake-up request from schedule_next_turn (autonomous runs only). */
export interface TurnScheduler {
  /** null when accepted, else the reason it was refused (the model sees it). */
  request(wakeAt: Date, nextPrompt: string | undefined, detail: string | undefined): string | null;
}

/** Asks the operator a question (ask_user). */
export interface Asker {
  ask(question: string): Promise<{ answer: string } | { unavailable: string }>;
}

export interface TodoItem {
  id: number;
  status: 'pending' | 'in_progress' | 'completed';
  text: string;
}

/**
 * What the session-bound tools share with the runtime: the turn counter, the
 * session's identity, and the services that exist only in some runs. A service
 * that is absent means its tool is not registered (conditional registration).
 */
export class SessionState {
  /** The current turn; the agent advances it. */
  turn = 0;
  readonly todos: TodoItem[] = [];
  plans: PlanRecorder | undefined;
  checkpointer: Checkpointer | undefined;
  scheduler: TurnScheduler | undefined;
  asker: Asker | undefined;
  /** Background commands started by bash with wait: false; they die with the session. */
  readonly terminals = new TerminalManager();
  /** Where the shells' process groups are recorded, so a later start can stop those of a killed run (absent: none kept). */
  groupRecords: GroupRecorder | undefined;
  /** url_scope and the resolver, when url_scope.allow has an entry (fetch_url, web_fetch). */
  network: NetworkAccess | undefined;

  /** The Kubernetes cluster the k8s_* tools read, when one is configured. */
  kube: Kube | undefined;
  /** The digest layer and its raw store (retrieve_raw); absent with --no-mcp-digest or no session store. */
  digests: DigestWrap | undefined;

  /** The journal of temporary files atomic writes have in flight (stale ones are removed at start-up). */
  pendingWrites: PendingWrites | undefined;

  /** Set once the session exists in the event log; undefined for one-off calls. */
  sessionId: string | undefined;

  constructor(readonly agentName: string | undefined = undefined) {}

  private readonly closers: Array<() => Promise<void>> = [];

  /** Something to stop when the session closes (MCP servers). */
  onClose(close: () => Promise<void>): void {
    this.closers.push(close);
  }

  /** The session is over: stop what it left running. */
  async close(): Promise<void> {
    await Promise.all([this.terminals.close(), ...this.closers.splice(0).map((c) => c().catch(() => {}))]);
  }
}
