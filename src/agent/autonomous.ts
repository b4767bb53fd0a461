import type { TurnScheduler } from '../tools/framework/services.ts';
import { sleep } from '../util/sleep.ts';
import type { Agent, TurnResult } from './agent.ts';

interface WakeRequest {
  wakeAt: Date;
  nextPrompt: string | undefined;
  detail: string | undefined;
}

export const DEFAULT_WAKE_PROMPT = 'Scheduled wake-up: continue where you left off.';

/** schedule_next_turn's requests, bounded by the operator's longest allowed wait. */
export class ScheduleRequests implements TurnScheduler {
  private pending: WakeRequest | undefined;

  constructor(readonly maxDeferMs: number) {}

  request(wakeAt: Date, nextPrompt: string | undefined, detail: string | undefined): string | null {
    if (this.pending) return 'a wake-up is already scheduled for this turn; only one is used';
    const wait = wakeAt.getTime() - Date.now();
    if (wait > this.maxDeferMs)
      return `the wait exceeds the operator's limit of ${Math.round(this.maxDeferMs / 1000)} s; use a shorter interval`;
    this.pending = { wakeAt, nextPrompt, detail };
    return null;
  }

  take(): WakeRequest | undefined {
    const p = this.pending;
    this.pending = undefined;
    return p;
  }
}

export interface AutonomousOptions {
  maxTurns: number;
  onWait?: (until: Date, detail: string | undefined) => void;
  signal?: AbortSignal;
}

/**
 * `run --autonomous`: after each turn, if the model scheduled a wake-up, sleep
 * until then and run the next turn with its prompt; otherwise the run ends. A
 * halted agent, or the turn limit, ends it too.
 */
export async function runAutonomous(
  agent: Agent,
  firstPrompt: string,
  schedule: ScheduleRequests,
  opts: AutonomousOptions,
): Promise<TurnResult> {
  let result = await agent.runTurn(firstPrompt, opts.signal);
  for (let turns = 1; turns < opts.maxTurns && result.status !== 'halted'; turns++) {
    const wake = schedule.take();
    if (!wake) break;
    opts.onWait?.(wake.wakeAt, wake.detail);
    await sleep(wake.wakeAt.getTime() - Date.now(), opts.signal);
    result = await agent.runTurn(wake.nextPrompt ?? DEFAULT_WAKE_PROMPT, opts.signal);
  }
  return result;
}
