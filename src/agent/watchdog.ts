import path from 'node:path';

export const WATCHDOG_MODES = ['off', 'warn', 'feedback', 'enforce'] as const;
export type WatchdogMode = (typeof WATCHDOG_MODES)[number];

export interface Alert {
  signal: 'repeated-tool-call' | 'alternating-tool-cycle' | 'dominant-tool-call' | 'tool-failure-streak' | 'no-op-streak';
  severity: 'warn' | 'critical';
  /** For the operator. */
  reason: string;
  /** For the model (feedback mode). */
  guidance: string;
}

export const THRESHOLDS = {
  repeat: 5, // identical calls in a row
  cycleLaps: 3, // laps of a cycle of period 2..4
  cycleMaxPeriod: 4,
  history: 12, // calls remembered for cycles and dominance
  dominant: 8, // of the last 12 calls, one call
  failures: 3, // errors in a row
  noOps: 3, // results in a row marked no_op
} as const;

/** After this many turns in a row cut by the watchdog, the agent halts for an operator. */
export const CUT_TURNS_TO_HALT = 3;

const PATHLIKE = /path|file|dir|folder|^(target|source|destination|src|dst|cwd)$/;

/** A call's identity: the tool and its arguments with sorted keys and path-like values normalised. */
export function callKey(name: string, argsJson: string): string {
  let args: unknown;
  try {
    args = JSON.parse(argsJson || '{}');
  } catch {
    return `${name}\0${argsJson}`;
  }
  return `${name}\0${canonical(args)}`;
}

function canonical(v: unknown, key = ''): string {
  if (Array.isArray(v)) return `[${v.map((x) => canonical(x)).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.keys(v as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k], k)}`);
    return `{${entries.join(',')}}`;
  }
  if (typeof v === 'string' && PATHLIKE.test(key)) return JSON.stringify(path.normalize(v));
  return JSON.stringify(v);
}

/**
 * The behavioural observer: it watches the calls a model makes and the results
 * it gets, and raises an alert for a pattern that is a loop rather than work —
 * the same call five times, a cycle of two to four calls going round three times,
 * one call taking 8 of the last 12, three failures in a row, three results in a
 * row that did nothing (`no_op`). What an alert does depends on the mode: warn
 * logs it; feedback also tells the model at the start of its next turn; enforce
 * also cuts the turn on a critical alert, and three cut turns in a row halt the
 * agent until an operator resets it. Each pattern alerts once, then re-arms.
 */
export class Watchdog {
  private recent: string[] = [];
  private failures = 0;
  private noOps = 0;
  private raised = new Set<string>();
  private pendingFeedback: Alert[] = [];
  private cutTurnsInARow = 0;
  private haltReason: string | null = null;

  constructor(readonly mode: WatchdogMode) {}

  get halted(): string | null {
    return this.haltReason;
  }

  /** Restore a halt from the event log (a halt survives a restart). */
  restoreHalt(reason: string | null, cutTurnsInARow: number): void {
    this.haltReason = reason;
    this.cutTurnsInARow = cutTurnsInARow;
  }

  /** An operator reset: clears the halt and every signal's state. */
  reset(): void {
    this.haltReason = null;
    this.cutTurnsInARow = 0;
    this.recent = [];
    this.failures = 0;
    this.noOps = 0;
    this.raised.clear();
  }

  observeCall(name: string, argsJson: string): Alert[] {
    if (this.mode === 'off') return [];
    const key = callKey(name, argsJson);
    this.recent.push(key);
    if (this.recent.length > THRESHOLDS.history) this.recent.shift();
    // null: a pattern still present that has already alerted.
    const alerts: Array<Alert | null> = [];
    const run = trailingRun(this.recent);
    if (run >= THRESHOLDS.repeat) {
      alerts.push(
        this.raise(`repeat:${key}`, {
          signal: 'repeated-tool-call',
          severity: 'critical',
          reason: `${name} called ${run} times in a row with the same arguments`,
          guidance: `You called ${name} ${run} times in a row with identical arguments (${argsJson}). The result will not change. Do not repeat this call unchanged: use what it returned, try a different approach, or say what is blocking you.`,
        }),
      );
    } else {
      const cycle = trailingCycle(this.recent);
      if (cycle) {
        const names = cycle.map((k) => k.split('\0')[0]).join(' → ');
        alerts.push(
          this.raise(`cycle:${[...cycle].sort().join('|')}`, {
            signal: 'alternating-tool-cycle',
            severity: 'critical',
            reason: `the calls ${names} repeated ${THRESHOLDS.cycleLaps} times in a cycle`,
            guidance: `Your last calls went round the same cycle (${names}) ${THRESHOLDS.cycleLaps} times with the same arguments; it is not making progress. Stop the cycle and change approach.`,
          }),
        );
      } else {
        const top = dominant(this.recent);
        if (top && top.count >= THRESHOLDS.dominant) {
          const tool = top.key.split('\0')[0];
          alerts.push(
            this.raise(`dominant:${top.key}`, {
              signal: 'dominant-tool-call',
              severity: 'critical',
              reason: `${tool} with the same arguments took ${top.count} of the last ${this.recent.length} calls`,
              guidance: `One call (${tool} with the same arguments) has been ${top.count} of your last ${this.recent.length}. Its answer will not change; use it and move on.`,
            }),
          );
        }
      }
    }
    if (alerts.length === 0) this.raised.clear(); // no pattern in the window: re-arm
    return alerts.filter((a): a is Alert => a !== null);
  }

  observeResult(name: string, ok: boolean, result: unknown): Alert[] {
    if (this.mode === 'off') return [];
    const alerts: Alert[] = [];
    this.failures = ok ? 0 : this.failures + 1;
    if (this.failures === THRESHOLDS.failures) {
      alerts.push({
        signal: 'tool-failure-streak',
        severity: 'warn',
        reason: `${THRESHOLDS.failures} tool calls failed in a row (last: ${name})`,
        guidance: `Your last ${THRESHOLDS.failures} tool calls failed. Read the errors before trying again; the approach may be wrong, not just the arguments.`,
      });
    }
    // Only a top-level true counts, so a garbled value can never manufacture a halt;
    // any other result — a failure included — ends the streak.
    const noOp = ok && result !== null && typeof result === 'object' && (result as Record<string, unknown>).no_op === true;
    this.noOps = noOp ? this.noOps + 1 : 0;
    if (this.noOps >= THRESHOLDS.noOps) {
      this.noOps = 0; // three more are needed for the next alert
      alerts.push({
        signal: 'no-op-streak',
        severity: 'critical',
        reason: `${THRESHOLDS.noOps} results in a row did nothing (last: ${name})`,
        guidance: `Your last ${THRESHOLDS.noOps} calls changed nothing (each said so). Repeating them cannot do anything further: answer the user or do the next real step.`,
      });
    }
    return alerts;
  }

  /** Queue feedback (feedback and enforce modes); at most four, the oldest dropped. */
  noteForModel(alerts: Alert[]): void {
    if (this.mode !== 'feedback' && this.mode !== 'enforce') return;
    this.pendingFeedback.push(...alerts);
    this.pendingFeedback = this.pendingFeedback.slice(-4);
  }

  /** The [watchdog] block for the start of the next turn, if any (read once). */
  takeFeedback(): string | null {
    if (this.pendingFeedback.length === 0) return null;
    const lines = this.pendingFeedback.map((a) => `- ${a.signal}: ${a.guidance}`);
    this.pendingFeedback = [];
    return [
      '[watchdog] Automated observation about your own previous turn — this is not a message from the user, and the user cannot see it.',
      ...lines,
      'Adjust your approach on this turn accordingly.',
    ].join('\n');
  }

  /** Whether this alert set ends the turn (enforce mode and a critical alert). */
  cuts(alerts: Alert[]): boolean {
    return this.mode === 'enforce' && alerts.some((a) => a.severity === 'critical');
  }

  /** At the end of every turn: count cut turns in a row; the third halts. Returns the halt reason when it halts. */
  turnEnded(cut: Alert | null): string | null {
    if (!cut) {
      this.cutTurnsInARow = 0;
      return null;
    }
    // The next turn is observed afresh: a loop that resumes must build up again to be cut again.
    this.recent = [];
    this.raised.clear();
    this.cutTurnsInARow += 1;
    if (this.cutTurnsInARow >= CUT_TURNS_TO_HALT) {
      this.haltReason = `watchdog halted the agent: ${CUT_TURNS_TO_HALT} turns in a row were cut (last: ${cut.signal} — ${cut.reason}). The agent refuses new turns until an operator resets it (--reset-watchdog).`;
    }
    return this.haltReason;
  }

  get cutTurns(): number {
    return this.cutTurnsInARow;
  }

  /** A pattern alerts once while it lasts; it re-arms when it breaks (see observeCall). */
  private raise(id: string, alert: Alert): Alert | null {
    if (this.raised.has(id)) return null;
    this.raised.add(id);
    return alert;
  }
}

function trailingRun(keys: string[]): number {
  let n = 0;
  for (let i = keys.length - 1; i >= 0 && keys[i] === keys.at(-1); i--) n++;
  return n;
}

/** The shortest period 2..4 whose last `laps` repetitions are identical, as that block. */
function trailingCycle(keys: string[]): string[] | null {
  for (let period = 2; period <= THRESHOLDS.cycleMaxPeriod; period++) {
    const need = period * THRESHOLDS.cycleLaps;
    if (keys.length < need) continue;
    const tail = keys.slice(-need);
    const block = tail.slice(0, period);
    if (new Set(block).size === 1) continue; // one call repeated is the repeat detector's
    if (tail.every((k, i) => k === block[i % period])) return block;
  }
  return null;
}

function dominant(keys: string[]): { key: string; count: number } | null {
  if (keys.length < THRESHOLDS.history) return null;
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  let best: { key: string; count: number } | null = null;
  for (const [key, count] of counts) if (!best || count > best.count) best = { key, count };
  return best;
}
