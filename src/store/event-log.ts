import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { stateDir } from '../runtime/state-dir.ts';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { createRequire } from 'node:module';

/** What happened in a session, in order. `data` is JSON. */
export type EventKind =
  | 'session_start' // {model, workspace, instructions, tools}
  | 'user' // {text}
  | 'request' // {step, messages, tool_choice}
  | 'response' // {content, finish_reason, usage, model}
  | 'tool_result' // {call_id, name, args, ok, shown, raw, ms}
  | 'turn_end' // {status, text, usage}
  | 'checkpoint' // {detail, record}
  | 'watchdog' // {alert?, action?, halted?, reason?, cut_turns?, reset?}
  | 'error' // {message}
  | 'incident'; // {incident, key, outcome, summary, events} — core-agent watch's record of how a session ended

export interface SessionEvent {
  readonly sessionId: string;
  readonly seq: number;
  readonly turn: number;
  readonly at: string;
  readonly kind: EventKind;
  readonly data: Record<string, unknown>;
}

export interface SessionSummary {
  id: string;
  createdAt: string;
  model: string;
  workspace: string;
  title: string;
  turns: number;
  events: number;
  lastAt: string;
}

/** Where sessions live by default: the user's state directory. */
export function defaultSessionDb(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(stateDir(env), 'sessions.db');
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  model TEXT NOT NULL,
  workspace TEXT NOT NULL,
  title TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
  session_id TEXT NOT NULL REFERENCES sessions(id),
  seq INTEGER NOT NULL,
  turn INTEGER NOT NULL,
  at TEXT NOT NULL,
  kind TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
);
CREATE TABLE IF NOT EXISTS raw_payloads (
  session_id TEXT NOT NULL,
  call_id TEXT NOT NULL,
  tool TEXT NOT NULL,
  at TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (session_id, call_id)
);
`;

/**
 * The session event log: one SQLite file (WAL), every event committed as it
 * happens, so a process killed mid-turn loses nothing that was already done and
 * `--resume` continues from the last committed event. node:sqlite is part of
 * Node itself — nothing native to ship in the bundle.
 */
export class EventLog {
  private readonly insert: StatementSync;
  private readonly nextSeq: StatementSync;

  private constructor(
    private readonly db: DatabaseSync,
    readonly location: string,
  ) {
    this.insert = db.prepare('INSERT INTO events (session_id, seq, turn, at, kind, data) VALUES (?, ?, ?, ?, ?, ?)');
    this.nextSeq = db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM events WHERE session_id = ?');
  }

  static open(location: string): EventLog {
    // Loaded here, not at start-up: only runs that keep sessions need SQLite.
    const { DatabaseSync: Database } = createRequire(import.meta.url)('node:sqlite') as typeof import('node:sqlite');
    if (location !== ':memory:') mkdirSync(path.dirname(path.resolve(location)), { recursive: true });
    const db = new Database(location);
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;');
    db.exec(SCHEMA);
    return new EventLog(db, location);
  }

  createSession(info: { model: string; workspace: string; title: string }): string {
    const id = `s-${globalThis.crypto.randomUUID().slice(0, 13)}`;
    this.db
      .prepare('INSERT INTO sessions (id, created_at, model, workspace, title) VALUES (?, ?, ?, ?, ?)')
      .run(id, now(), info.model, info.workspace, info.title);
    return id;
  }

  /**
   * The raw result behind a digest, for retrieve_raw. Stored apart from the
   * events (which record the digest and this call_id), so a 10 MB payload is
   * written once and read back only on request.
   */
  putRaw(sessionId: string, tool: string, rawJson: string): string {
    const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM raw_payloads WHERE session_id = ?').get(sessionId) as { n: number };
    const callId = `raw_${n + 1}`;
    this.db
      .prepare('INSERT INTO raw_payloads (session_id, call_id, tool, at, data) VALUES (?, ?, ?, ?, ?)')
      .run(sessionId, callId, tool, now(), rawJson);
    return callId;
  }

  getRaw(sessionId: string, callId: string): { tool: string; rawJson: string } | undefined {
    const row = this.db.prepare('SELECT tool, data FROM raw_payloads WHERE session_id = ? AND call_id = ?').get(sessionId, callId) as
      { tool: string; data: string } | undefined;
    return row ? { tool: row.tool, rawJson: row.data } : undefined;
  }

  append(sessionId: string, turn: number, kind: EventKind, data: Record<string, unknown>): number {
    const { seq } = this.nextSeq.get(sessionId) as { seq: number };
    this.insert.run(sessionId, seq, turn, now(), kind, JSON.stringify(data));
    return seq;
  }

  events(sessionId: string): SessionEvent[] {
    const rows = this.db.prepare('SELECT seq, turn, at, kind, data FROM events WHERE session_id = ? ORDER BY seq').all(sessionId) as Array<{
      seq: number;
      turn: number;
      at: string;
      kind: EventKind;
      data: string;
    }>;
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

  sessions(): SessionSummary[] {
    return this.summaries('', []);
  }

  close(): void {
    this.db.close();
  }

  private summaries(where: string, params: string[]): SessionSummary[] {
    const rows = this.db
      .prepare(
        `SELECT s.id, s.created_at, s.model, s.workspace, s.title,
                COALESCE(MAX(e.turn), 0) AS turns, COUNT(e.seq) AS events, COALESCE(MAX(e.at), s.created_at) AS last_at
         FROM sessions s LEFT JOIN events e ON e.session_id = s.id ${where}
         GROUP BY s.id ORDER BY s.created_at DESC`,
      )
      .all(...params) as Array<Record<string, string | number>>;
    return rows.map((r) => ({
      id: String(r.id),
      createdAt: String(r.created_at),
      model: String(r.model),
      workspace: String(r.workspace),
      title: String(r.title),
      turns: Number(r.turns),
      events: Number(r.events),
      lastAt: String(r.last_at),
    }));
  }
}

function now(): string {
  return new Date().toISOString();
}
