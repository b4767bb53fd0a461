import type { DatabaseSync } from 'node:sqlite';
import { WATCH_SCHEMA } from '../store/schema.ts';
import { openSessionDb } from '../store/session-db.ts';
import type { ObjectRef } from './incidents.ts';

export type IncidentStatus = 'queued' | 'running' | 'done';

export interface Incident {
  id: number;
  key: string;
  kind: string;
  namespace: string;
  name: string;
  reason: string;
  status: IncidentStatus;
  /** The first event's message and object (a Pod, say, when the incident is about its Deployment). */
  message: string;
  involved: ObjectRef;
  events: number;
  firstEventAt: number;
  lastEventAt: number;
  receivedAt: number;
  sessionId: string | null;
  outcome: string | null;
  startedAt: number | null;
  finishedAt: number | null;
  /** Sessions that failed (a model or runtime outage) and were put back in the queue. */
  attempts: number;
  /** The outcome still has to reach the alert target. */
  notifyPending: boolean;
}

/** What observing one event did. */
export type Observation = 'new' | 'merged' | 'cooldown' | 'stale';

interface Row {
  id: number;
  key: string;
  kind: string;
  namespace: string;
  name: string;
  reason: string;
  status: IncidentStatus;
  message: string;
  involved: string;
  events: number;
  first_event_at: number;
  last_event_at: number;
  received_at: number;
  session_id: string | null;
  outcome: string | null;
  started_at: number | null;
  finished_at: number | null;
  attempts: number;
  notify_pending: number;
}

/**
 * The watcher's memory, in the session database: every incident with its state,
 * and the resourceVersion to resume the event watch from. Written as each event is
 * handled, so a process killed mid-burst restarts with its queue intact, resumes
 * the sessions that were running, and never runs a finished incident again.
 */
export class IncidentStore {
  private observed = 0;

  /**
   * `seenTtlMs`: how long an Event counted stays remembered. Events last seen longer
   * ago than watch.max_event_age_seconds are ignored before this check, so that age
   * (plus a margin) is enough.
   */
  private constructor(
    private readonly db: DatabaseSync,
    private readonly seenTtlMs: number,
  ) {}

  static open(location: string, opts: { seenTtlMs?: number } = {}): IncidentStore {
    // The same file as the event log, opened and checked the same way (a SessionDbError says what is wrong).
    return new IncidentStore(openSessionDb(location, WATCH_SCHEMA), opts.seenTtlMs ?? 2 * 3600_000);
  }

  /**
   * Fold one event into the incident for its key, or open a new one, in one
   * transaction. An Event already folded in at this count (a relist after a restart
   * replays every Event the API still holds) is stale and changes nothing; a new
   * occurrence within the cooldown after the incident finished joins it.
   */
  observe(
    key: string,
    about: { root: ObjectRef; involved: ObjectRef; reason: string; message: string; lastAt: number; eventUid: string; eventCount: number },
    cooldownMs: number,
    now = Date.now(),
  ): { observation: Observation; id: number } {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = this.fold(key, about, cooldownMs, now);
      this.db.exec('COMMIT');
      return result;
    } catch (err) {
      // SQLite has rolled back already after some errors (SQLITE_FULL, SQLITE_IOERR): a second
      // ROLLBACK would throw "no transaction is active" in place of the error that matters.
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw err;
    }
  }

  private fold(
    key: string,
    about: { root: ObjectRef; involved: ObjectRef; reason: string; message: string; lastAt: number; eventUid: string; eventCount: number },
    cooldownMs: number,
    now: number,
  ): { observation: Observation; id: number } {
    const latest = this.db.prepare('SELECT * FROM watch_incidents WHERE key = ? ORDER BY id DESC LIMIT 1').get(key) as Row | undefined;
    const seen = this.db.prepare('SELECT count FROM watch_seen_events WHERE uid = ?').get(about.eventUid) as { count: number } | undefined;
    if (seen && seen.count >= about.eventCount && latest) return { observation: 'stale', id: latest.id };
    this.db
      .prepare(
        'INSERT INTO watch_seen_events (uid, count, seen_at) VALUES (?, ?, ?) ON CONFLICT (uid) DO UPDATE SET count = excluded.count, seen_at = excluded.seen_at',
      )
      .run(about.eventUid, about.eventCount, now);
    if (++this.observed % 1000 === 0) this.db.prepare('DELETE FROM watch_seen_events WHERE seen_at < ?').run(now - this.seenTtlMs);
    if (latest && (latest.status !== 'done' || now - (latest.finished_at ?? 0) < cooldownMs)) {
      this.db
        .prepare('UPDATE watch_incidents SET events = events + 1, last_event_at = MAX(last_event_at, ?) WHERE id = ?')
        .run(about.lastAt, latest.id);
      return { observation: latest.status === 'done' ? 'cooldown' : 'merged', id: latest.id };
    }
    const { root, involved } = about;
    const result = this.db
      .prepare(
        `INSERT INTO watch_incidents (key, kind, namespace, name, reason, status, message, involved, events,
           first_event_at, last_event_at, received_at) VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, 1, ?, ?, ?)`,
      )
      .run(
        key,
        root.kind,
        root.namespace,
        root.name,
        about.reason,
        about.message,
        JSON.stringify(involved),
        about.lastAt,
        about.lastAt,
        now,
      );
    return { observation: 'new', id: Number(result.lastInsertRowid) };
  }

  /** Running ones first (a restart resumes them), then the queue in arrival order; none held back until later. */
  next(exclude: ReadonlySet<number>, now = Date.now()): Incident | undefined {
    const rows = this.db
      .prepare("SELECT * FROM watch_incidents WHERE status != 'done' AND not_before <= ? ORDER BY status = 'running' DESC, id LIMIT ?")
      .all(now, exclude.size + 1) as unknown as Row[];
    const row = rows.find((r) => !exclude.has(r.id));
    return row ? toIncident(row) : undefined;
  }

  get(id: number): Incident | undefined {
    const row = this.db.prepare('SELECT * FROM watch_incidents WHERE id = ?').get(id) as Row | undefined;
    return row ? toIncident(row) : undefined;
  }

  markRunning(id: number, now = Date.now()): void {
    this.db.prepare("UPDATE watch_incidents SET status = 'running', started_at = COALESCE(started_at, ?) WHERE id = ?").run(now, id);
  }

  setSession(id: number, sessionId: string): void {
    this.db.prepare('UPDATE watch_incidents SET session_id = ? WHERE id = ?').run(sessionId, id);
  }

  finish(id: number, outcome: string, summary: string, notify: boolean, now = Date.now()): void {
    this.db
      .prepare("UPDATE watch_incidents SET status = 'done', outcome = ?, summary = ?, finished_at = ?, notify_pending = ? WHERE id = ?")
      .run(outcome, summary, now, notify ? 1 : 0, id);
  }

  /** Back in the queue after a failed session (its session, if any, is resumed next time), not before `notBefore`. */
  requeue(id: number, notBefore: number): void {
    this.db
      .prepare("UPDATE watch_incidents SET status = 'queued', attempts = attempts + 1, not_before = ? WHERE id = ?")
      .run(notBefore, id);
  }

  /** The earliest time a held-back incident may run, if any is waiting. */
  nextNotBefore(now = Date.now()): number | undefined {
    const row = this.db.prepare("SELECT MIN(not_before) AS t FROM watch_incidents WHERE status != 'done' AND not_before > ?").get(now) as {
      t: number | null;
    };
    return row.t ?? undefined;
  }

  /** Finished incidents whose outcome has not reached the alert target yet, oldest first. */
  pendingAlerts(): Incident[] {
    return (
      this.db.prepare("SELECT * FROM watch_incidents WHERE status = 'done' AND notify_pending = 1 ORDER BY id").all() as unknown as Row[]
    ).map(toIncident);
  }

  markNotified(id: number): void {
    this.db.prepare('UPDATE watch_incidents SET notify_pending = 0 WHERE id = ?').run(id);
  }

  /** The outcome recorded for a finished incident (the summary is what the session answered). */
  summary(id: number): string {
    return (
      (this.db.prepare('SELECT summary FROM watch_incidents WHERE id = ?').get(id) as { summary: string | null } | undefined)?.summary ?? ''
    );
  }

  counts(): Record<IncidentStatus, number> {
    const rows = this.db.prepare('SELECT status, COUNT(*) AS n FROM watch_incidents GROUP BY status').all() as Array<{
      status: IncidentStatus;
      n: number;
    }>;
    const out: Record<IncidentStatus, number> = { queued: 0, running: 0, done: 0 };
    for (const r of rows) out[r.status] = r.n;
    return out;
  }

  all(): Incident[] {
    return (this.db.prepare('SELECT * FROM watch_incidents ORDER BY id').all() as unknown as Row[]).map(toIncident);
  }

  getState(name: string): string | undefined {
    return (this.db.prepare('SELECT value FROM watch_state WHERE name = ?').get(name) as { value: string } | undefined)?.value;
  }

  setState(name: string, value: string): void {
    this.db
      .prepare('INSERT INTO watch_state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value')
      .run(name, value);
  }

  close(): void {
    this.db.close();
  }
}

function toIncident(r: Row): Incident {
  return {
    id: r.id,
    key: r.key,
    kind: r.kind,
    namespace: r.namespace,
    name: r.name,
    reason: r.reason,
    status: r.status,
    message: r.message,
    involved: JSON.parse(r.involved) as ObjectRef,
    events: r.events,
    firstEventAt: r.first_event_at,
    lastEventAt: r.last_event_at,
    receivedAt: r.received_at,
    sessionId: r.session_id,
    outcome: r.outcome,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    attempts: r.attempts,
    notifyPending: r.notify_pending === 1,
  };
}
