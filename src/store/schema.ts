// Every table core-agent keeps in the session database, in one place: the event
// log's and `watch`'s share the file, and the check at open (session-db.ts) must
// know all of them to tell core-agent's database from another application's.

/** The event log (store/event-log.ts). */
export const EVENT_LOG_SCHEMA = `
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

/** `core-agent watch`'s incidents (watch/incident-store.ts). */
export const WATCH_SCHEMA = `
CREATE TABLE IF NOT EXISTS watch_incidents (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  key TEXT NOT NULL,
  kind TEXT NOT NULL,
  namespace TEXT NOT NULL,
  name TEXT NOT NULL,
  reason TEXT NOT NULL,
  status TEXT NOT NULL,
  message TEXT NOT NULL,
  involved TEXT NOT NULL,
  events INTEGER NOT NULL,
  first_event_at INTEGER NOT NULL,
  last_event_at INTEGER NOT NULL,
  received_at INTEGER NOT NULL,
  session_id TEXT,
  outcome TEXT,
  summary TEXT,
  started_at INTEGER,
  finished_at INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0,
  not_before INTEGER NOT NULL DEFAULT 0,
  notify_pending INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS watch_incidents_key ON watch_incidents (key, id);
CREATE INDEX IF NOT EXISTS watch_incidents_status ON watch_incidents (status, id);
CREATE TABLE IF NOT EXISTS watch_state (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS watch_seen_events (uid TEXT PRIMARY KEY, count INTEGER NOT NULL, seen_at INTEGER NOT NULL);
`;

export const ALL_SCHEMAS = [EVENT_LOG_SCHEMA, WATCH_SCHEMA] as const;

/** PRAGMA application_id of a session database core-agent created: "CAGT". */
export const APPLICATION_ID = 0x43414754;
