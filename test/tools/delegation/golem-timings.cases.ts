/**
 * golem's WaitForSubagent and CancelSubagent on a moved clock (golem-timings.test.ts): the engine
 * times its waits and its children's wall clocks on a clock the test moves, so each bound — a
 * wait answers "still running" at one minute, a subagent is cancelled at ten — is checked to the
 * millisecond on the real runtime, while the child's `bash` runs for real. Each case is a script
 * of steps; `{id}` in an expected sentence stands for the subagent's id.
 *
 * The child is `blocking` (its one step runs bash until the test releases it, then it answers
 * "released") or `answering` (it answers "the answer" at once).
 */
export type TimingStep =
  /** StartSubagent. */
  | { start: 'blocking' | 'answering' }
  /** WaitForSubagent, left in flight. */
  | { wait: true }
  /** Move the clock on (ms). */
  | { move: number }
  /** The wait in flight has not answered (after a pause of real time). */
  | { silent: true }
  /** The wait in flight answers: the sentence. */
  | { answers: string | RegExp }
  /** WaitForSubagent that answers without the clock moving, as another conversation when `other`; `id` overrides the subagent's. */
  | { waitNow: string | RegExp; id?: string; other?: true }
  /** CancelSubagent (as another conversation when `other`): the sentence. */
  | { cancel: string | RegExp; id?: string; other?: true }
  /** The child's bash command may end. */
  | { release: true }
  /** The child has ended (its report is in), waited for in real time without a wait call. */
  | { ended: true }
  /** Whether the child's bash command is still a live process. */
  | { alive: boolean };

export interface TimingCase {
  name: string;
  /** The recipe (YAML). */
  recipe?: string;
  steps: TimingStep[];
}

const MINUTE = 60_000;
const STILL = 'Subagent {id} is still running; call WaitForSubagent again, or CancelSubagent if you no longer need its answer.';
const FOR_TIME = (seconds: number) =>
  `Subagent {id} was cancelled: it ran out of time. What it had done:\n\n[unfinished: it ran out of time (${seconds} s)]\n\n(no text yet)`;
const CANCELLED = 'Subagent {id} was cancelled. What it had done:\n\n[unfinished: it was stopped]\n\n(no text yet)';
const UNKNOWN = 'There is no subagent {id} in this conversation.';
/** A minute's wait that ends "still running". */
const minute: TimingStep[] = [{ wait: true }, { move: MINUTE }, { answers: STILL }];

// prettier-ignore
export const TIMING_CASES: TimingCase[] = [
  { name: 'a wait says "still running" at exactly one minute, not a millisecond before', steps: [{ start: 'blocking' }, { wait: true }, { move: MINUTE - 1 }, { silent: true }, { move: 1 }, { answers: STILL }, { alive: true }] },
  { name: 'a second wait goes on waiting, another whole minute', steps: [{ start: 'blocking' }, ...minute, { wait: true }, { move: MINUTE - 1 }, { silent: true }, { move: 1 }, { answers: STILL }, { alive: true }] },
  { name: 'the child ends during a second wait: its answer then, before the minute is out', steps: [{ start: 'blocking' }, ...minute, { wait: true }, { move: MINUTE / 2 }, { silent: true }, { release: true }, { answers: 'Subagent {id} finished:\n\nreleased' }] },
  { name: 'nine waits say "still running"; the tenth ends at ten minutes with the child cancelled for time', steps: [{ start: 'blocking' }, ...Array.from({ length: 9 }, () => minute).flat(), { alive: true }, { wait: true }, { move: MINUTE }, { answers: FOR_TIME(600) }, { alive: false }] },
  { name: 'no wait in flight: the child is cancelled at ten minutes, not before, and a later wait says so at once', steps: [{ start: 'blocking' }, { move: 10 * MINUTE - 1 }, { alive: true }, { move: 1 }, { ended: true }, { alive: false }, { waitNow: FOR_TIME(600) }] },
  { name: 'a wait in flight when the ten minutes run out answers then, mid-minute', steps: [{ start: 'blocking' }, { move: 9.5 * MINUTE }, { wait: true }, { move: MINUTE / 2 - 1 }, { silent: true }, { move: 1 }, { answers: FOR_TIME(600) }, { alive: false }] },
  { name: 'cancel during a wait: the cancel and the wait both say it was cancelled, without the clock moving', steps: [{ start: 'blocking' }, { wait: true }, { move: MINUTE / 2 }, { silent: true }, { cancel: 'Subagent {id} was cancelled.' }, { answers: CANCELLED }, { alive: false }] },
  { name: 'a cancelled child is not cancelled again at ten minutes: later waits still say it was cancelled, not for time', steps: [{ start: 'blocking' }, { cancel: 'Subagent {id} was cancelled.' }, { alive: false }, { move: 10 * MINUTE }, { waitNow: CANCELLED }, { cancel: 'Subagent {id} was cancelled.' }] },
  { name: 'a wait after the child finished: its answer at once', steps: [{ start: 'answering' }, { ended: true }, { waitNow: 'Subagent {id} finished:\n\nthe answer' }, { waitNow: 'Subagent {id} finished:\n\nthe answer' }] },
  { name: 'a cancel after the child finished leaves it alone', steps: [{ start: 'answering' }, { ended: true }, { cancel: 'Subagent {id} had already ended (natural).' }, { waitNow: 'Subagent {id} finished:\n\nthe answer' }] },
  { name: 'an id never started: a sentence at once, to wait and to cancel', steps: [{ waitNow: UNKNOWN, id: 'sub_deadbeef' }, { cancel: UNKNOWN, id: 'sub_deadbeef' }, { waitNow: UNKNOWN, id: 'not-an-id' }] },
  { name: "another conversation's id: a sentence at once, and its child runs on untouched", steps: [{ start: 'blocking' }, { waitNow: UNKNOWN, other: true }, { cancel: UNKNOWN, other: true }, { alive: true }, { wait: true }, { move: MINUTE }, { answers: STILL }] },
  { name: "a recipe giving general an hour: golem's subagent is still cancelled at ten minutes", recipe: 'agents:\n  profiles:\n    general:\n      description: everything\n      max_wallclock_seconds: 3600\n', steps: [{ start: 'blocking' }, { move: 10 * MINUTE - 1 }, { alive: true }, { move: 1 }, { ended: true }, { waitNow: FOR_TIME(600) }, { alive: false }] },
  { name: 'a recipe giving general two minutes: that shorter limit stands', recipe: 'agents:\n  profiles:\n    general:\n      description: everything\n      max_wallclock_seconds: 120\n', steps: [{ start: 'blocking' }, ...minute, { wait: true }, { move: MINUTE - 1 }, { silent: true }, { move: 1 }, { answers: FOR_TIME(120) }, { alive: false }] },
];
