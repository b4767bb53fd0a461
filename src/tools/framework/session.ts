/**
 * A family's own state in a session (the shell's background terminals): made on first use,
 * closed with the session. The family defines the slot; the framework keeps it without
 * knowing what it holds.
 */
export interface SessionSlot<T> {
  /** For messages only; slots are told apart by identity. */
  readonly name: string;
  create(): T;
  /** Called when the session closes (stop what it runs); errors are ignored. */
  close?(value: T): Promise<void>;
}

export function sessionSlot<T>(name: string, create: () => T, close?: (value: T) => Promise<void>): SessionSlot<T> {
  return close === undefined ? { name, create } : { name, create, close };
}

export interface TodoItem {
  id: number;
  status: 'pending' | 'in_progress' | 'completed';
  text: string;
}

/** One step of update_plan's checklist (Codex's shape). */
export interface PlanStep {
  step: string;
  status: 'pending' | 'in_progress' | 'completed';
}

/** update_plan's checklist: the latest snapshot, and a revision the agent watches to report changes. */
export interface TurnPlan {
  explanation: string | undefined;
  steps: readonly PlanStep[];
  revision: number;
}

/** Questions waiting with the session for a person's answer (AskUserQuestionTool, asynchronous). */
export interface PostedQuestions {
  /** The id the answer names (POST /sessions/{sid}/questions/{id}/answer). */
  readonly id: string;
  readonly questions: readonly {
    readonly question: string;
    readonly header?: string | undefined;
    readonly options: readonly string[];
    readonly multiSelect?: boolean | undefined;
    readonly other?: string | undefined;
  }[];
  /** The principal the questions were asked of: only they may answer. */
  readonly askedOf: string;
  /** RFC 3339: after it the answer is refused. */
  readonly expiresAt: string;
}

/**
 * True session state — what changes while the session runs: the turn counter,
 * the todo list and the turn's checklist (which the agent and the CLI show), the
 * session's identity, the families' own state (slots: the shell's terminals) and
 * what to stop when it closes. What the run is configured with lives in ToolServices.
 */
export class SessionState {
  /** The current turn; the agent advances it. */
  turn = 0;
  readonly todos: TodoItem[] = [];
  /** update_plan's checklist for the current turn; the agent clears it when the turn ends. */
  plan: TurnPlan = { explanation: undefined, steps: [], revision: 0 };
  /**
   * AskUserQuestionTool's questions posted for a later answer: the agent records each in the
   * event log (a `question` event) after the step's tool calls, and then ends the turn.
   */
  readonly postedQuestions: PostedQuestions[] = [];
  /** request_user_input's questions nobody could answer (headless): `run` ends failed naming them. */
  readonly unansweredQuestions: { id: string; header: string; question: string }[] = [];

  /**
   * The conversation's current directory (physical), which every relative path
   * argument and bash start from; undefined: the launch directory (the workspace).
   * change_working_directory and enter_worktree set it. The workspace stays the
   * workspace: path_scope, display paths and the project are still the launch directory.
   */
  cwd: string | undefined;

  /** Set once the session exists in the event log; undefined for one-off calls. */
  sessionId: string | undefined;

  constructor(readonly agentName: string | undefined = undefined) {}

  private readonly closers: Array<() => Promise<void>> = [];
  private readonly slots = new Map<SessionSlot<unknown>, unknown>();

  /** A family's state in this session, made on first use. */
  slot<T>(slot: SessionSlot<T>): T {
    if (!this.slots.has(slot as SessionSlot<unknown>)) this.slots.set(slot as SessionSlot<unknown>, slot.create());
    return this.slots.get(slot as SessionSlot<unknown>) as T;
  }

  /** Something to stop when the session closes (MCP servers). */
  onClose(close: () => Promise<void>): void {
    this.closers.push(close);
  }

  /** The session is over: stop what it left running. */
  async close(): Promise<void> {
    const slots = [...this.slots].map(([slot, value]) => slot.close?.(value).catch(() => {}));
    await Promise.all([...slots, ...this.closers.splice(0).map((c) => c().catch(() => {}))]);
  }
}
