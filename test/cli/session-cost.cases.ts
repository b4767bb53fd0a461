/**
 * --max-session-cost-usd through the built CLI (session-cost.test.ts), on a replay model priced
 * by the recipe ($1,000 per million tokens: a replayed call costs cents). Each case: the flags,
 * the script, and what the run must show: its exit, the result's status, how many of the
 * parent's model calls were made, and the children's stop reasons.
 */
export interface SessionCostCase {
  name: string;
  args: string[];
  /** The replay script (the parent's and the children's calls). */
  script?: object[];
  /** Priced by the recipe (default true). */
  priced?: boolean;
  exit: number;
  /** The result event's status (absent: no result line, a usage error). */
  status?: string;
  /** How many responses the parent's session recorded. */
  parentCalls?: number;
  /** The stop reason of each child, by name. */
  children?: Record<string, string>;
  /** Text stderr must hold. */
  stderr?: RegExp;
}

const read = { tool_calls: [{ name: 'read_file', args: { path: 'notes.txt' } }] };
const spawn = { tool_calls: [{ name: 'spawn_agent', args: { agent: 'explore', goal: 'read notes.txt twice' } }] };

// prettier-ignore
export const SESSION_COST_CASES: SessionCostCase[] = [
  { name: 'under the limit: the run ends as usual', args: ['--max-session-cost-usd', '100'], script: [read, { text: 'cold' }], exit: 0, status: 'done', parentCalls: 2 },
  { name: 'past the limit after a call: no further model call, exit 1, cost_limit', args: ['--max-session-cost-usd', '0.01'], script: [read, { text: 'never asked' }], exit: 1, status: 'cost_limit', parentCalls: 1 },
  { name: 'a child spends past it: the child is stopped for budget, the parent makes no further call', args: ['--max-session-cost-usd', '0.5'], script: [spawn, { agent: 'explore', ...read }, { agent: 'explore', ...read }, { agent: 'explore', ...read }, { agent: 'explore', text: 'read thrice' }, { text: 'never asked' }], exit: 1, status: 'cost_limit', parentCalls: 1, children: { 'explore-1': 'budget' } },
  { name: 'the limit is a number above 0: 0 refused', args: ['--max-session-cost-usd', '0'], exit: 2, stderr: /--max-session-cost-usd must be a number above 0/ },
  { name: 'the limit is a number above 0: words refused', args: ['--max-session-cost-usd', 'ten'], exit: 2, stderr: /--max-session-cost-usd must be a number above 0/ },
  { name: 'the limit is a number above 0: negative refused', args: ['--max-session-cost-usd=-1'], exit: 2, stderr: /--max-session-cost-usd must be a number above 0/ },
];
