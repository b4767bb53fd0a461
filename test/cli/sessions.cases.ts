/**
 * How `sessions list` reads a session's record into its status: the events a
 * session holds, in order (kind, and a turn_end's status), and what it shows.
 * A new case is one line.
 */
export interface StatusCase {
  readonly what: string;
  readonly events: ReadonlyArray<'user' | `turn_end:${string}` | 'tool_result' | 'watchdog'>;
  readonly status: string;
}

export const STATUS_CASES: readonly StatusCase[] = [
  { what: 'no turn yet', events: [], status: 'new' },
  { what: 'one finished turn', events: ['user', 'tool_result', 'turn_end:done'], status: 'done' },
  { what: 'a prompt with no turn_end after it (killed mid-turn)', events: ['user', 'tool_result'], status: 'interrupted' },
  { what: 'a second prompt after a finished turn, cut off', events: ['user', 'turn_end:done', 'user'], status: 'interrupted' },
  { what: 'the last turn was cut by the watchdog', events: ['user', 'turn_end:cut'], status: 'cut' },
  { what: 'halted: the last turn is the halt', events: ['user', 'turn_end:cut', 'watchdog', 'user', 'turn_end:halted'], status: 'halted' },
  { what: 'the step limit', events: ['user', 'turn_end:step_limit'], status: 'step_limit' },
  { what: 'a replay script that ran out', events: ['user', 'turn_end:script_ended'], status: 'script_ended' },
  { what: 'the newest turn decides, not the first', events: ['user', 'turn_end:cut', 'user', 'turn_end:done'], status: 'done' },
];

/** `sessions prune --older-than` and `sessions rm` refusals: exit 2 with the message, nothing deleted. */
export const REFUSAL_CASES: ReadonlyArray<{ readonly argv: readonly string[]; readonly error: RegExp }> = [
  { argv: ['prune'], error: /needs --older-than AGE/ },
  { argv: ['prune', '--older-than', '30'], error: /"30" is not an age; give a number and m, h, d or w/ },
  { argv: ['prune', '--older-than', '3y'], error: /"3y" is not an age/ },
  { argv: ['prune', '--older-than=-1d'], error: /"-1d" is not an age/ },
  { argv: ['prune', '--older-than', `${'9'.repeat(5000)}d`], error: /is not an age/ },
  { argv: ['rm'], error: /needs one or more IDs/ },
  { argv: ['rm', 'nope'], error: /no session "nope" .*nothing was deleted/ },
  { argv: ['rm', '<first>', 'nope', 'nada'], error: /no session "nope", "nada" .*nothing was deleted/ },
  { argv: ['frobnicate'], error: /unknown command "sessions frobnicate"/ },
];
