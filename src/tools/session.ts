import { TerminalManager } from './shell/terminals.ts';

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

/**
 * True session state — what changes while the session runs: the turn counter,
 * the todo list, background terminals, the session's identity and what to stop
 * when it closes. What the run is configured with lives in ToolServices.
 */
export class SessionState {
  /** The current turn; the agent advances it. */
  turn = 0;
  readonly todos: TodoItem[] = [];
  /** update_plan's checklist for the current turn; the agent clears it when the turn ends. */
  plan: TurnPlan = { explanation: undefined, steps: [], revision: 0 };
  /** request_user_input's questions nobody could answer (headless): `run` ends failed naming them. */
  readonly unansweredQuestions: { id: string; header: string; question: string }[] = [];
  /** Background commands started by bash with wait: false; they die with the session. */
  readonly terminals = new TerminalManager();

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

  /** Something to stop when the session closes (MCP servers). */
  onClose(close: () => Promise<void>): void {
    this.closers.push(close);
  }

  /** The session is over: stop what it left running. */
  async close(): Promise<void> {
    await Promise.all([this.terminals.close(), ...this.closers.splice(0).map((c) => c().catch(() => {}))]);
  }
}
