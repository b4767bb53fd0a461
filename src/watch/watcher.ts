import type { Logger } from '../log.ts';
import { WATCH_DEFAULTS, type WatchConfig } from '../config/watch-schema.ts';
import type { Kube } from '../k8s/cluster.ts';
import type { AlertTarget } from '../net/alert-targets.ts';
import type { EventLog } from '../store/event-log.ts';
import { sessionDbError } from '../store/session-db.ts';
import type { JsonObject } from '../core/json.ts';
import { sleep } from '../util/sleep.ts';
import { Enricher } from './enrich.ts';
import type { Incident, IncidentStore } from './incident-store.ts';
import { runIncidentSession, type SessionOutcome, type StartIncidentSession } from './incident-session.ts';
import { eventFacts, ignoreReason, incidentKey, labelsMatch, parseLabelSelector, type LabelSelector } from './incidents.ts';
import { runInformer, type Change } from './informer.ts';
import { OutcomeAlerts } from './outcome-alerts.ts';
import type { WatchMetrics } from './metrics.ts';

/** Why the watcher stopped an incident's session: the abort's reason, told apart by type, never by its text. */
class SessionStop extends Error {
  constructor(readonly why: 'shutdown' | 'timeout') {
    super(why === 'shutdown' ? 'the watcher is shutting down' : 'the session ran past its timeout');
    this.name = 'SessionStop';
  }
}

export interface WatcherOptions {
  cfg: WatchConfig;
  kube: Kube;
  store: IncidentStore;
  log: EventLog;
  metrics: WatchMetrics;
  logger: Logger;
  /** Progress lines for the operator (one incident opened, resumed, finished). */
  say: (line: string) => void;
  /** Builds each incident's agent session (the composition root's). */
  startSession: StartIncidentSession;
  alertTarget?: AlertTarget | undefined;
  /** Once, when every informer has synced for the first time (the watcher is up). */
  onSynced?: (() => void) | undefined;
}

/** Why the watcher stopped by itself: the session database cannot take another write. */
export interface Halt {
  /** One sentence: what failed and where ("no space left on device while writing the session log at PATH"). */
  reason: string;
}

type Running = { controller: AbortController; done: Promise<void> };

/** A session that fails (not one that answers UNRESOLVED) is tried this many times in all. */
const MAX_ATTEMPTS = 3;

/**
 * Events in, incidents out: the informer hands each Event change here in order;
 * an event that passes the recipe's filters is keyed to its workload and reason and
 * either opens an incident or folds into one (store.observe). Incidents run as
 * agent sessions, at most max_concurrent_sessions at once, in arrival order.
 */
export class Watcher {
  private readonly running = new Map<number, Running>();
  private readonly informerStop = new AbortController();
  private informers: Promise<void>[] = [];
  private readonly enricher: Enricher;
  private readonly selector: LabelSelector | undefined;
  private readonly paths: string[];
  private readonly syncedPaths = new Set<string>();
  /** Watches failing now, and since when: readiness drops when one stays down. */
  private readonly failingSince = new Map<string, number>();
  private readonly alerts: OutcomeAlerts | undefined;
  private readonly graceStop = new AbortController();
  private retryTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  private halt: ((h: Halt) => void) | undefined;
  /**
   * Settles when a write to the session database fails because its disk is full: the watcher
   * then takes no more events and starts no more sessions (each would fail the same way, and a
   * failed one would be retried into the same wall), and the command stops it. Everything not
   * finished stays in the database — queued incidents, running ones with their sessions, the
   * events' resume version — and runs on the next start, once there is space.
   */
  readonly halted = new Promise<Halt>((resolve) => (this.halt = resolve));

  constructor(private readonly o: WatcherOptions) {
    this.enricher = new Enricher(o.kube);
    this.alerts = o.alertTarget ? new OutcomeAlerts(o.alertTarget, o.store, o.metrics, o.logger) : undefined;
    this.selector = o.cfg.label_selector ? parseLabelSelector(o.cfg.label_selector) : undefined;
    // Listed namespaces are watched one by one, so a Role in each of them is enough;
    // otherwise one cluster-wide watch.
    const namespaces = o.cfg.namespaces ?? [];
    this.paths = namespaces.length > 0 ? namespaces.map((ns) => `/api/v1/namespaces/${encodeURIComponent(ns)}/events`) : ['/api/v1/events'];
  }

  start(): void {
    const types = this.o.cfg.event_types ?? WATCH_DEFAULTS.event_types;
    this.informers = this.paths.map((path) => {
      const stateKey = `events_rv ${path}`;
      return runInformer({
        kube: this.o.kube,
        path,
        fieldSelector: types.length === 1 ? `type=${types[0]}` : undefined,
        resumeFrom: this.o.store.getState(stateKey),
        handle: async (change) => {
          if (this.stopping) return; // halted: not acknowledged, so seen again on the next start
          try {
            await this.handle(change);
            if (change.resumeFrom) this.o.store.setState(stateKey, change.resumeFrom);
          } catch (err) {
            // Not acknowledged: its version is not saved, so the next start sees this change again.
            this.haltOnFullDisk(err);
            throw err;
          }
        },
        onSynced: () => {
          const before = this.synced;
          this.syncedPaths.add(path);
          this.o.logger.info({ path }, 'event informer synced');
          if (!before && this.synced) this.o.onSynced?.();
        },
        onHealth: (failing) => {
          if (!failing) return void this.failingSince.delete(path);
          this.o.metrics.watchReconnects.inc({ why: failing.why });
          if (!this.failingSince.has(path)) this.failingSince.set(path, Date.now());
        },
        logger: this.o.logger,
        signal: this.informerStop.signal,
      });
    });
    this.pump(); // incidents left queued or running by an earlier process
    void this.alerts?.flush(); // and outcomes it did not deliver
  }

  private get synced(): boolean {
    return this.syncedPaths.size === this.paths.length;
  }

  ready(): { ok: boolean; detail: Record<string, unknown> } {
    const counts = this.o.store.counts();
    // A watch that has kept failing for a minute (RBAC, an unreachable API) makes the pod unready.
    const down = [...this.failingSince].filter(([, since]) => Date.now() - since > 60_000).map(([path]) => path);
    return {
      ok: this.synced && !this.stopping && down.length === 0,
      detail: {
        synced: this.synced,
        ...(down.length > 0 ? { watch_failing: down } : {}),
        watches: this.paths.length,
        stopping: this.stopping,
        running: this.running.size,
        queued: counts.queued,
      },
    };
  }

  /**
   * SIGTERM: stop taking events, let running sessions finish within `graceMs`, then
   * stop the rest. Their incidents stay `running` with their session id; everything
   * they did is in the event log, and the next start resumes them.
   */
  async stop(graceMs: number): Promise<{ finished: number; checkpointed: number }> {
    this.stopping = true;
    clearTimeout(this.retryTimer);
    this.alerts?.stop();
    this.informerStop.abort();
    await Promise.all(this.informers);
    const before = this.running.size;
    const all = Promise.all([...this.running.values()].map((r) => r.done));
    const grace = sleep(graceMs, this.graceStop.signal).then(
      () => false,
      () => false,
    );
    const inTime = await Promise.race([all.then(() => true), grace]);
    this.graceStop.abort(); // no timer left to hold the process
    const left = this.running.size;
    if (!inTime) {
      for (const r of this.running.values()) r.controller.abort(new SessionStop('shutdown'));
      // Sessions stop before their next model call; the databases close only after them.
      await Promise.race([all, sleep(5_000)]);
    }
    return { finished: before - left, checkpointed: left };
  }

  /** One Event change. A throw (the API unreachable mid-lookup) makes the informer retry it. */
  private async handle(change: Change): Promise<void> {
    const f = eventFacts(change.object);
    if (!f) return; // a version marker, not an event
    const { metrics, cfg } = this.o;
    const why = change.type === 'DELETED' ? 'deleted' : ignoreReason(f, cfg);
    if (why) {
      metrics.eventsReceived.inc();
      return void metrics.eventsIgnored.inc({ why });
    }
    const chain = await this.enricher.ownerChain(f.involved, this.informerStop.signal);
    metrics.eventsReceived.inc();
    const root = chain.at(-1)!;
    // The workload's labels over the object's: a Deployment labelled env=dev is dev, whatever its pods say.
    if (this.selector && !labelsMatch(this.selector, { ...chain[0]!.labels, ...root.labels })) {
      return void metrics.eventsIgnored.inc({ why: 'labels' });
    }
    const cooldownMs = (cfg.cooldown_seconds ?? WATCH_DEFAULTS.cooldown_seconds) * 1000;
    const { observation, id } = this.o.store.observe(
      incidentKey(root, f.reason),
      { root, involved: f.involved, reason: f.reason, message: f.message, lastAt: f.lastAt, eventUid: f.uid, eventCount: f.count },
      cooldownMs,
    );
    if (observation !== 'new') return void metrics.incidentsDeduplicated.inc({ why: observation });
    metrics.incidentsSeen.inc();
    this.say(`incident #${id} opened: ${f.reason} on ${root.kind} ${root.namespace}/${root.name} (${f.involved.kind} ${f.involved.name})`);
    this.pump();
  }

  /** Start sessions while there are free slots and incidents waiting. */
  private pump(): void {
    try {
      this.fillSlots();
    } catch (err) {
      if (!this.haltOnFullDisk(err)) throw err;
    }
  }

  private fillSlots(): void {
    const max = this.o.cfg.max_concurrent_sessions ?? WATCH_DEFAULTS.max_concurrent_sessions;
    while (!this.stopping && this.running.size < max) {
      const next = this.o.store.next(new Set(this.running.keys()));
      if (!next) break;
      this.launch(next);
    }
    this.o.metrics.queueDepth.set(this.o.store.counts().queued);
    // Incidents held back after a failed session: wake up when the first may run again.
    clearTimeout(this.retryTimer);
    const later = this.stopping ? undefined : this.o.store.nextNotBefore();
    if (later !== undefined) this.retryTimer = setTimeout(() => this.pump(), Math.max(0, later - Date.now()) + 10);
  }

  private launch(incident: Incident): void {
    const { store, metrics, cfg } = this.o;
    const resumed = incident.status === 'running';
    store.markRunning(incident.id);
    metrics.sessionsStarted.inc();
    metrics.sessionsRunning.inc();
    if (!resumed) metrics.startLatency.observe(Math.max(0, Date.now() - incident.receivedAt) / 1000);
    const controller = new AbortController();
    const timeoutMs = (cfg.session_timeout_seconds ?? WATCH_DEFAULTS.session_timeout_seconds) * 1000;
    const timer = setTimeout(() => controller.abort(new SessionStop('timeout')), timeoutMs);
    const limits = {
      recentEvents: cfg.recent_events ?? WATCH_DEFAULTS.recent_events,
      logLines: cfg.log_tail_lines ?? WATCH_DEFAULTS.log_tail_lines,
      logBytes: cfg.log_tail_bytes ?? WATCH_DEFAULTS.log_tail_bytes,
    };
    const done = runIncidentSession({
      incident,
      facts: () => this.enricher.facts(incident.involved, limits, controller.signal),
      startSession: this.o.startSession,
      log: this.o.log,
      preamble: cfg.prompt,
      onSession: (sessionId) => {
        store.setSession(incident.id, sessionId);
        this.say(`incident #${incident.id} ${resumed ? 'resumed in' : 'session'} ${sessionId}`);
      },
      signal: controller.signal,
    })
      .then(
        (r) => this.finish(incident, r),
        async (err: unknown) => {
          const reason: unknown = controller.signal.reason;
          const stop = reason instanceof SessionStop ? reason.why : undefined;
          if (this.stopping && stop === 'shutdown') return; // checkpointed: resumed on the next start
          // Not the session's failure: it stays running with its session, and resumes on the next start.
          if (this.haltOnFullDisk(err)) return;
          const timedOut = stop === 'timeout';
          const message = timedOut ? `the session ran past ${timeoutMs / 1000}s` : (err as Error).message;
          const attempts = store.get(incident.id)?.attempts ?? 0;
          // A model or runtime outage is not an answer: put the incident back (its session resumes) a few times.
          if (!timedOut && attempts + 1 < MAX_ATTEMPTS) {
            const delay = (cfg.session_retry_seconds ?? WATCH_DEFAULTS.session_retry_seconds) * 1000 * 2 ** attempts;
            store.requeue(incident.id, Date.now() + delay);
            this.o.logger.warn({ incident: incident.id, err: message, retry_in_ms: delay }, 'incident session failed; queued again');
            this.say(`incident #${incident.id} failed (${message}); again in ${Math.round(delay / 1000)}s`);
            return;
          }
          this.o.logger.error({ incident: incident.id, err: message }, 'incident session failed');
          await this.finish(incident, {
            sessionId: store.get(incident.id)?.sessionId ?? '',
            outcome: 'UNRESOLVED',
            summary: `UNRESOLVED: core-agent could not finish this incident: ${message}`,
            usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
            turn: 0,
          });
        },
      )
      .catch((err: unknown) => {
        // Still running in the store: the next start resumes it and records its outcome once (finish).
        if (this.haltOnFullDisk(err)) return;
        this.o.logger.error({ incident: incident.id, err: (err as Error).message }, 'recording an outcome failed');
      })
      .finally(() => {
        clearTimeout(timer);
        this.running.delete(incident.id);
        metrics.sessionsRunning.dec();
        this.pump();
      });
    this.running.set(incident.id, { controller, done });
  }

  private async finish(incident: Incident, r: SessionOutcome): Promise<void> {
    const { store, metrics, log } = this.o;
    const seen = store.get(incident.id) ?? incident;
    // The log's record first, once: a restart between the two writes finds the incident
    // still running, resumes it, and must not record it twice.
    if (r.sessionId && log.session(r.sessionId) && !log.events(r.sessionId).some((e) => e.kind === 'incident')) {
      log.append(r.sessionId, r.turn, 'incident', {
        incident: incident.id,
        key: incident.key,
        outcome: r.outcome,
        summary: r.summary,
        events: seen.events,
      });
    }
    store.finish(incident.id, r.outcome, r.summary, this.alerts !== undefined);
    metrics.outcomes.inc({ outcome: r.outcome });
    metrics.tokens.inc({ direction: 'input' }, r.usage.inputTokens);
    metrics.tokens.inc({ direction: 'output' }, r.usage.outputTokens);
    metrics.costUsd.inc(r.usage.costUsd ?? 0);
    this.say(`incident #${incident.id} ${r.outcome} (session ${r.sessionId || 'none'})`);
    await this.alerts?.flush();
  }

  /**
   * When `err` is the session database's disk being full: stop taking work (once) and report it
   * through `halted`. Returns whether it was.
   */
  private haltOnFullDisk(err: unknown): boolean {
    const problem = sessionDbError(err, this.o.log.location);
    if (problem?.problem !== 'full') return false;
    const halt = this.halt;
    if (halt) {
      this.halt = undefined;
      this.stopping = true;
      clearTimeout(this.retryTimer);
      this.o.logger.error({ err: problem.message }, 'the session database cannot be written; watch stops and keeps its queue');
      halt({ reason: problem.message });
    }
    return true;
  }

  private say(line: string): void {
    this.o.say(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
  }
}
