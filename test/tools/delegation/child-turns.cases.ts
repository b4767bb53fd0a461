/**
 * A child's `turns` (child-turns.test.ts): its model calls that were offered tools — what
 * max_turns bounds ("model calls with tools before it must answer") — however it ended, and the
 * same figure wherever it is shown: spawn_agent's, wait_agent's and stop_agent's callers' report,
 * the parent's live `agent_end` event, the child's `agent_end` in the event log (and so `sessions
 * show`) and the REPL's `/agents`. Not the agent's turn count, which is 1 for every child.
 *
 * `child` is its script (the steps a blocking `bash` step makes wait until the child is stopped);
 * `end` is how it ends: on its own (`natural`), past its `max_turns` (`max_steps`), stopped by
 * stop_agent once its last step's bash is running (`stopped`), or by its wall clock on a moved
 * clock (`budget`).
 */
export type ChildStep = 'read' | 'bash' | 'block' | 'answer';

export interface TurnsCase {
  name: string;
  child: ChildStep[];
  end: 'natural' | 'max_steps' | 'stopped' | 'budget';
  maxTurns?: number;
  turns: number;
}

// prettier-ignore
export const TURNS_CASES: TurnsCase[] = [
  { name: 'an answer at once: 1', child: ['answer'], end: 'natural', turns: 1 },
  { name: 'ended on its own after 2 steps (a read, then the answer): 2', child: ['read', 'answer'], end: 'natural', turns: 2 },
  { name: 'ended on its own after 4 steps, several calls in one: 4', child: ['read', 'bash', 'read', 'answer'], end: 'natural', turns: 4 },
  { name: 'answered on its last step with tools (max_turns 3): 3, natural', child: ['read', 'read', 'answer'], end: 'natural', maxTurns: 3, turns: 3 },
  { name: 'stopped at max_turns 2: 2, the answer asked for without tools is not one', child: ['read', 'read', 'answer'], end: 'max_steps', maxTurns: 2, turns: 2 },
  { name: 'stopped at max_turns 1: 1', child: ['read', 'answer'], end: 'max_steps', maxTurns: 1, turns: 1 },
  { name: 'stopped during its first step: 1', child: ['block'], end: 'stopped', turns: 1 },
  { name: 'stopped after 3 steps, during the third: 3', child: ['read', 'bash', 'block'], end: 'stopped', turns: 3 },
  { name: 'stopped by its wall clock after 2 steps: 2', child: ['read', 'block'], end: 'budget', turns: 2 },
];
