import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { EVENT_LOG_SCHEMA } from './schema.ts';
import { openSessionDb, sessionDbError, SessionDbError } from './session-db.ts';
import { randomUUID } from '../util/random-id.ts';
import type { SecretValues } from '../util/secret-values.ts';

/** What happened in a session, in order. `data` is JSON. */
export type EventKind =
  | 'session_start' // {model, workspace, instructions, tools}
  | 'user' // {text}
  | 'request' // {step, messages, tool_choice}
  | 'response' // {content, finish_reason, usage, model}
  | 'tool_result' // {call_id, name, args, ok, shown, raw, ms}
  | 'turn_end' // {status, text, usage (its child agents' included), delegated_usage? (theirs alone)}
  | 'checkpoint' // {detail, record}
  | 'compaction' // {trigger, ok, tokens_before, tokens_after?, record?, kept_last?, focus?, error?, finish_reason?, usage?}
  | 'clear' // {dropped_messages} — /clear: the conversation before it is not sent again
  | 'watchdog' // {alert?, action?, halted?, reason?, cut_turns?, reset?}
  | 'error' // {message}
  | 'model_switch' // {from, to} — the REPL's /model; the session's model is `to` from here on
  | 'incident' // {incident, key, outcome, summary, events} — core-agent watch's record of how a session ended
  | 'agent_end' // {agent, profile, status, stop_reason, cost_usd} — a child agent's end, in its own session (runtime/child-agents.ts)
  | 'question' // {id, questions, asked_of, expires_at} — AskUserQuestionTool's questions waiting for a later answer (the turn ended)
  | 'operator'; // {action, principal, …} — what a person did to the session from outside it (the attach daemon: create, permission, interrupt, wake, answer)

export interface SessionEvent {
  readonly sessionId: string;
  readonly seq: number;
  readonly turn: number;
  readonly at: string;
  readonly kind: EventKind;
  readonly data: Record<string, unknown>;
}

/**
 * Where a session stands: `interrupted` (a prompt with no turn_end after it: --resume
 * finishes that turn), `new` (no turn yet), or how its last turn ended (agent.ts TurnStatus).
 */
export type SessionStatus = 'interrupted' | 'new' | 'done' | 'step_limit' | 'script_ended' | 'cut' | 'halted' | (string & {});

export interface SessionSummary {
  id: string;
  createdAt: string;
  model: string;
  workspace: string;
  title: string;
  turns: number;
  events: number;
  lastAt: string;
  status: SessionStatus;
}

/** A session whose log stopped at a write failure (see EventLog.onWriteFailure). */
export interface LogFailure {
  readonly error: SessionDbError;
  readonly sessionId: string;
  /** The last event that is in the log (null: none written by this process). */
  readonly lastSeq: number | null;
  /** Events that happened after it and are not in the log. */
  dropped: number;
}

/**
 * The session event log: one SQLite file (WAL), every event committed as it
 * happens, so a process killed mid-turn loses nothing that was already done and
 * `--resume` continues from the last committed event. node:sqlite is part of
 * Node itself — nothing native to ship in the bundle.
 *
 * Every SQLite error comes out as a SessionDbError naming the file and the
 * cause. A failed write (a full disk, most likely) throws — unless
 * `onWriteFailure` is set: then that session's log stops at its last good event
 * for the rest of the process (even if space frees later), the listener hears
 * of it once, and the session goes on unrecorded. The log keeps a gap-free
 * prefix, which `--resume` can continue; a log with a hole in it could not be
 * replayed truthfully.
 */
export class EventLog {
  /** Set by a command that would rather finish the turn unrecorded than lose it (run, repl). */
  onWriteFailure: ((failure: LogFailure) => void) | undefined;
  /**
   * The secret values the root knows: masked in everything written — every event,
   * session title and raw payload — whichever writer let one through.
   */
  secrets: SecretValues | undefined;
  private readonly insert: StatementSync;
  private readonly nextSeq: StatementSync;
  private readonly stopped = new Map<string, LogFailure>();
  private readonly lastSeq = new Map<string, number>();
  private readonly listeners = new Set<(e: SessionEvent) => void>();

  private constructor(
    private readonly db: DatabaseSync,
    readonly location: string,
  ) {
    this.insert = db.prepare('INSERT INTO events (session_id, seq, turn, at, kind, data) VALUES (?, ?, ?, ?, ?, ?)');
    this.nextSeq = db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM events WHERE session_id = ?');
  }

  /** Throws SessionDbError when the file cannot be used (session-db.ts says which causes it tells apart). */
  static open(location: string): EventLog {
    const db = openSessionDb(location, EVENT_LOG_SCHEMA);
    try {
      return new EventLog(db, location);
    } catch (err) {
      db.close();
      throw sessionDbError(err, location) ?? err;
    }
  }

  /** The write failure that stopped this session's log, if one did. */
  failure(sessionId: string): LogFailure | undefined {
    return this.stopped.get(sessionId);
  }

  /** A new session; `id` for a child agent's (`<parent>:sub:<name>`), else a fresh one. */
  createSession(info: { model: string; workspace: string; title: string; id?: string }): string {
    const id = info.id ?? `s-${randomUUID().slice(0, 13)}`;
    this.guard(() =>
      this.db
        .prepare('INSERT INTO sessions (id, created_at, model, workspace, title) VALUES (?, ?, ?, ?, ?)')
        .run(id, now(), info.model, info.workspace, this.secrets ? this.secrets.mask(info.title) : info.title),
    );
    return id;
  }

  /** The model the session continues on (a /model switch): what `--resume` picks up. */
  setModel(sessionId: string, model: string): void {
    this.guard(() => this.db.prepare('UPDATE sessions SET model = ? WHERE id = ?').run(model, sessionId));
  }

  /**
   * The raw result behind a digest, for retrieve_raw. Stored apart from the
   * events (which record the digest and this call_id), so a 10 MB payload is
   * written once and read back only on request.
   */
  putRaw(sessionId: string, tool: string, rawJson: string): string {
    // Not an event: a payload that does not fit leaves no gap in the log (the digest
    // layer shows the result capped instead), so it does not stop the session's log.
    const stopped = this.stopped.get(sessionId);
    if (stopped) throw stopped.error;
    return this.guard(() => {
      const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM raw_payloads WHERE session_id = ?').get(sessionId) as { n: number };
      const callId = `raw_${n + 1}`;
      this.db
        .prepare('INSERT INTO raw_payloads (session_id, call_id, tool, at, data) VALUES (?, ?, ?, ?, ?)')
        .run(sessionId, callId, tool, now(), this.secrets ? this.secrets.mask(rawJson) : rawJson);
      return callId;
    });
  }

  getRaw(sessionId: string, callId: string): { tool: string; rawJson: string } | undefined {
    const row = this.guard(
      () =>
        this.db.prepare('SELECT tool, data FROM raw_payloads WHERE session_id = ? AND call_id = ?').get(sessionId, callId) as
          { tool: string; data: string } | undefined,
    );
    return row ? { tool: row.tool, rawJson: row.data } : undefined;
  }

  /** The event's seq; -1 when this session's log has stopped (onWriteFailure) and the event is not recorded. */
  append(sessionId: string, turn: number, kind: EventKind, data: Record<string, unknown>): number {
    const stopped = this.stopped.get(sessionId);
    if (stopped) {
      stopped.dropped += 1;
      return -1;
    }
    try {
      const written = this.write(sessionId, () => {
        const { seq } = this.nextSeq.get(sessionId) as { seq: number };
        const at = now();
        // Masked as JSON text: a value JSON escapes is registered in its escaped form too.
        const json = JSON.stringify(data);
        this.insert.run(sessionId, seq, turn, at, kind, this.secrets ? this.secrets.mask(json) : json);
        this.lastSeq.set(sessionId, seq);
        return { seq, at };
      });
      // After the commit: a listener sees only what is in the log, so a reader that
      // subscribes first and then reads the log misses nothing and can drop repeats by seq.
      for (const listener of this.listeners) listener({ sessionId, seq: written.seq, turn, at: written.at, kind, data });
      return written.seq;
    } catch (err) {
      if (err instanceof SessionDbError && this.stopped.has(sessionId)) return -1;
      throw err;
    }
  }

  /**
   * Every event this process appends, as it is committed (the attach daemon's live
   * streams). Returns the unsubscribe function. A listener must not throw.
   */
  subscribe(listener: (e: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The session's events in order; with `afterSeq`, only those after it (a reader's cursor). */
  events(sessionId: string, afterSeq = 0): SessionEvent[] {
    const rows = this.guard(
      () =>
        this.db
          .prepare('SELECT seq, turn, at, kind, data FROM events WHERE session_id = ? AND seq > ? ORDER BY seq')
          .all(sessionId, afterSeq) as Array<{
          seq: number;
          turn: number;
          at: string;
          kind: EventKind;
          data: string;
        }>,
    );
    return rows.map((r) => ({
      sessionId,
      seq: r.seq,
      turn: r.turn,
      at: r.at,
      kind: r.kind,
      data: JSON.parse(r.data) as Record<string, unknown>,
    }));
  }

  session(id: string): SessionSummary | undefined {
    return this.summaries('WHERE s.id = ?', [id])[0];
  }

  /** Newest activity first; with `workspace`, only the sessions started in that directory. */
  sessions(filter: { workspace?: string | undefined } = {}): SessionSummary[] {
    return filter.workspace === undefined ? this.summaries('', []) : this.summaries('WHERE s.workspace = ?', [filter.workspace]);
  }

  /**
   * Remove sessions whole — their events, raw payloads and the session row — in one
   * transaction, so a failure leaves every one of them as it was. Ids not in the log
   * are the caller's to check first (`session`); they delete nothing.
   */
  deleteSessions(ids: readonly string[]): void {
    this.guard(() => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        for (const table of ['events', 'raw_payloads'] as const)
          for (const id of ids) this.db.prepare(`DELETE FROM ${table} WHERE session_id = ?`).run(id);
        for (const id of ids) this.db.prepare('DELETE FROM sessions WHERE id = ?').run(id);
        this.db.exec('COMMIT');
      } catch (err) {
        // SQLite has rolled back already after some errors (SQLITE_FULL, SQLITE_IOERR): a second
        // ROLLBACK would throw "no transaction is active" in place of the error that matters.
        if (this.db.isTransaction) this.db.exec('ROLLBACK');
        throw err;
      }
      for (const id of ids) this.lastSeq.delete(id);
    });
  }

  close(): void {
    this.db.close();
  }

  /** Any SQLite error as a SessionDbError (a damaged page may first be read long after open). */
  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw sessionDbError(err, this.location) ?? err;
    }
  }

  /** A write for one session: on failure, with onWriteFailure set, that session's log stops here. */
  private write<T>(sessionId: string, fn: () => T): T {
    try {
      return this.guard(fn);
    } catch (err) {
      if (err instanceof SessionDbError && this.onWriteFailure) {
        const failure: LogFailure = { error: err, sessionId, lastSeq: this.lastSeq.get(sessionId) ?? null, dropped: 1 };
        this.stopped.set(sessionId, failure);
        this.onWriteFailure(failure);
      }
      throw err;
    }
  }

  private summaries(where: string, params: string[]): SessionSummary[] {
    const rows = this.guard(
      () =>
        this.db
          .prepare(
            `SELECT s.id, s.created_at, s.model, s.workspace, s.title,
                COALESCE(MAX(e.turn), 0) AS turns, COUNT(e.seq) AS events, COALESCE(MAX(e.at), s.created_at) AS last_at,
                MAX(CASE WHEN e.kind = 'user' THEN e.seq END) AS last_user,
                MAX(CASE WHEN e.kind = 'turn_end' THEN e.seq END) AS last_end,
                (SELECT json_extract(t.data, '$.status') FROM events t
                  WHERE t.session_id = s.id AND t.kind = 'turn_end' ORDER BY t.seq DESC LIMIT 1) AS last_status
         FROM sessions s LEFT JOIN events e ON e.session_id = s.id ${where}
         GROUP BY s.id ORDER BY last_at DESC, s.created_at DESC, s.rowid DESC`,
          )
          .all(...params) as Array<Record<string, string | number | null>>,
    );
    return rows.map((r) => ({
      id: String(r.id),
      createdAt: String(r.created_at),
      model: String(r.model),
      workspace: String(r.workspace),
      title: String(r.title),
      turns: Number(r.turns),
      events: Number(r.events),
      lastAt: String(r.last_at),
      status: statusOf(r.last_user, r.last_end, r.last_status),
    }));
  }
}

function statusOf(lastUser: unknown, lastEnd: unknown, lastStatus: unknown): SessionStatus {
  if (lastUser !== null && (lastEnd === null || Number(lastUser) > Number(lastEnd))) return 'interrupted';
  return lastEnd === null ? 'new' : String(lastStatus);
}

function now(): string {
  return new Date().toISOString();
}
