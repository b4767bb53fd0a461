import path from 'node:path';
import { EventLog } from '../store/event-log.ts';
import { moveAside, SessionDbError } from '../store/session-db.ts';
import type { CallLog } from '../tools/framework/call-log.ts';
import type { Runtime } from './runtime.ts';
import { recordCalls } from './record-calls.ts';
import { processSecrets } from './secrets.ts';
import { stateDir } from './state-dir.ts';

/** Where sessions live by default: the user's state directory. */
export function defaultSessionDb(env: NodeJS.ProcessEnv): string {
  return path.join(stateDir(env), 'sessions.db');
}

/** --session-db, then CORE_AGENT_SESSION_DB (both in `sessionDb`), then the user's state directory. */
export function sessionDbPath(settings: { sessionDb?: string | undefined }, env: NodeJS.ProcessEnv): string {
  return settings.sessionDb ?? defaultSessionDb(env);
}

/**
 * The store step: the event log for a command that runs sessions. A damaged
 * database is moved aside only when the user said so (--fresh-session-db), only
 * when it is core-agent's own (never another application's file or a
 * directory), and never for --resume, whose session lives in the damaged file.
 * `say` tells the user it was moved.
 */
export function openSessionLog(o: {
  location: string;
  fresh: boolean;
  resume?: string | undefined;
  say: (text: string) => void;
}): EventLog {
  try {
    return masked(EventLog.open(o.location));
  } catch (err) {
    if (!(err instanceof SessionDbError)) throw err;
    err.resume = o.resume;
    if (!o.fresh || !err.movable || o.resume !== undefined) throw err;
    const moved = moveAside(o.location);
    o.say(`core-agent: ${err.message}; moved it aside (${moved.join(', ')}) and started a fresh one at ${o.location}\n`);
    return masked(EventLog.open(o.location));
  }
}

/** Every event, title and raw payload the log writes has the process's known secrets masked. */
function masked(log: EventLog): EventLog {
  log.secrets = processSecrets;
  return log;
}

/**
 * `tools call` and `mcp serve` with a session database: a session of their own
 * (titled by what ran), with every call the dispatcher makes recorded in it.
 */
export function recordingSession(log: EventLog, rt: Runtime, title: string): CallLog {
  const sessionId = log.createSession({ model: 'none', workspace: rt.workspace, title: title.slice(0, 80) });
  log.append(sessionId, 0, 'session_start', { model: 'none', workspace: rt.workspace, tools: rt.catalog.names() });
  rt.session.sessionId = sessionId;
  return recordCalls(log, sessionId, rt.session);
}
