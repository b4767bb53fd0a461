/**
 * Each wrapper's child: the tools it may call (canonical names, narrowed from the parent's
 * catalog), its turns (model calls with tools, agents' max_turns: then it must answer), the
 * words of the digest the parent gets (the wrapper cuts past them), and its wall clock.
 * No zod here: the descriptions read these at registration (tool heads).
 */
export interface WrapperBudget {
  readonly tool: string;
  readonly inner: readonly string[];
  readonly maxTurns: number;
  readonly maxWords: number;
  readonly maxWallclockSeconds: number;
}

export const BUDGETS = {
  read_file: { tool: 'agentic_read_file', inner: ['read_file'], maxTurns: 2, maxWords: 500, maxWallclockSeconds: 300 },
  fetch_url: { tool: 'agentic_fetch_url', inner: ['fetch_url'], maxTurns: 2, maxWords: 500, maxWallclockSeconds: 300 },
  grep: { tool: 'agentic_grep', inner: ['grep'], maxTurns: 2, maxWords: 500, maxWallclockSeconds: 300 },
  research: {
    tool: 'agentic_research',
    inner: ['read_file', 'grep', 'list_dir', 'glob'],
    maxTurns: 5,
    maxWords: 800,
    maxWallclockSeconds: 600,
  },
} as const satisfies Record<string, WrapperBudget>;
