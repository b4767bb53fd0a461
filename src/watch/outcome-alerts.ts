import type { Logger } from '../log.ts';
import type { AlertTarget } from '../net/alert-targets.ts';
import { operatorFetch } from '../net/operator-fetch.ts';
import type { IncidentStore } from './incident-store.ts';
import type { WatchMetrics } from './metrics.ts';

const RETRY_MS = 30_000;

/**
 * Outcomes to the recipe's alert target, as an outbox: an incident is marked
 * `notify_pending` when it finishes, and stays so until the webhook accepts it. The
 * target's rate limit defers an outcome (never drops it), a failed delivery is
 * retried, and a restart sends what the last process did not.
 */
export class OutcomeAlerts {
  private flushing = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly target: AlertTarget,
    private readonly store: IncidentStore,
    private readonly metrics: WatchMetrics,
    private readonly logger: Logger,
  ) {}

  /** Send what is pending, in order, until the rate limit or a failure says wait. */
  async flush(): Promise<void> {
    if (this.flushing || this.stopped) return;
    this.flushing = true;
    try {
      // One at a time from the store, so an outcome that finishes during a send is picked up too.
      for (let incident = this.store.pendingAlerts()[0]; incident; incident = this.store.pendingAlerts()[0]) {
        if (this.stopped) return;
        const wait = this.target.takeSlot();
        if (wait !== null) return this.later(wait * 1000, 'the alert target is at its rate limit');
        const summary = this.store.summary(incident.id);
        const req = this.target.request({
          target: this.target.name,
          level: incident.outcome === 'RESOLVED' ? 'resolved' : 'warning',
          summary: `${incident.outcome ?? 'UNRESOLVED'}: ${incident.reason} on ${incident.kind} ${incident.namespace}/${incident.name}`,
          details: summary,
          sessionId: incident.sessionId ?? undefined,
        });
        try {
          const res = await operatorFetch(req.url, { method: 'POST', headers: req.headers, body: req.body }, AbortSignal.timeout(15_000), {
            what: 'answers from alert webhooks',
          });
          if (res.status < 200 || res.status >= 300) throw new Error(`the webhook answered HTTP ${res.status}`);
          this.store.markNotified(incident.id);
        } catch (err) {
          this.metrics.alertFailures.inc();
          return this.later(RETRY_MS, this.target.redact((err as Error).message), incident.id);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private later(ms: number, why: string, incident?: number): void {
    this.logger.warn({ target: this.target.name, incident, retry_in_ms: ms, why }, 'outcome not sent yet');
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), ms);
  }
}
