/**
 * When a timer fires: the real clock in a run, a moved one in a test
 * (test/helpers/moved-clock.ts), so a bound of minutes — golem's one-minute wait, a child's
 * ten-minute wall clock — is checked to the millisecond through the real code path, without
 * waiting for it and without faking the timers of everything else (a bash command's own).
 */
export interface Clock {
  /**
   * Call `fn` once, `ms` from now; the function returned cancels it. `hold: false`: the timer
   * alone does not keep the process alive (a budget that outlives its run must not hold it open).
   */
  after(ms: number, fn: () => void, hold?: boolean): () => void;
}

export const realClock: Clock = {
  after(ms, fn, hold = true) {
    const timer = setTimeout(fn, ms);
    if (!hold) timer.unref();
    return () => clearTimeout(timer);
  },
};
