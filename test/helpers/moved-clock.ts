// A clock a test moves by hand (src/util/clock.ts): the code under test sets its timers on it as
// on the real one, and they fire only when the test moves the time past them — so a bound of
// minutes is checked to the millisecond, on the real code path, without waiting for it.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../../src/util/clock.ts';

interface Timer {
  readonly at: number;
  readonly seq: number;
  readonly fn: () => void;
}

export class MovedClock implements Clock {
  private time = 0;
  private seq = 0;
  private timers: Timer[] = [];

  /** Milliseconds moved since the clock was made. */
  get now(): number {
    return this.time;
  }

  after(ms: number, fn: () => void): () => void {
    const timer = { at: this.time + ms, seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** The timers set and not fired, as how long from now each fires. */
  pending(): number[] {
    return this.timers.map((t) => t.at - this.time).sort((a, b) => a - b);
  }

  /** Move the time on by `ms`: each timer due by then fires, in the order due (then set), with the clock at its time. */
  move(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.fn();
    }
    this.time = end;
  }

  /**
   * Until `count` timers firing `ms` from now are set (the code under test has got that far: one
   * more than were before it was called on); throws after 20 s of real time.
   */
  async armed(ms: number, count = 1): Promise<void> {
    for (let i = 0; i < 4000; i++) {
      if (this.timers.filter((t) => t.at - this.time === ms).length >= count) return;
      await sleep(5);
    }
    throw new Error(`no timer ${ms} ms from now was set; pending: ${this.pending().join(', ') || 'none'}`);
  }
}
