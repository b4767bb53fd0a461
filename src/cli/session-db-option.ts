import type { LogFailure } from '../store/event-log.ts';
import type { SessionDbError } from '../store/session-db.ts';

/** What the user can do about it, for the command they ran: the second half of the message main prints. */
export function sessionDbAdvice(err: SessionDbError, command: string): string {
  const p = shellQuote(err.location);
  const other = 'pass --session-db with another path (or :memory: to keep nothing)';
  switch (err.problem) {
    case 'damaged': {
      const salvage = `sqlite3 ${p} .recover | sqlite3 ${shellQuote(`${err.location}.recovered`)}`;
      if (command === 'sessions') {
        return `Move it aside (mv ${p} ${p}.broken); what SQLite can still read may be salvaged with ${salvage}, then listed with --session-db ${shellQuote(`${err.location}.recovered`)}.`;
      }
      if (err.resume !== undefined) {
        return (
          `A fresh database cannot hold session ${err.resume}, so --fresh-session-db does not apply to --resume. ` +
          `To continue it, salvage what SQLite can read (${salvage}) and resume from --session-db ${shellQuote(`${err.location}.recovered`)}; ` +
          'to start over, drop --resume and pass --fresh-session-db.'
        );
      }
      return `Move it aside (mv ${p} ${p}.broken) and run again, or pass --fresh-session-db to move it aside automatically, or --session-db :memory: to keep nothing.`;
    }
    case 'foreign':
      return `core-agent does not change or move another application's file: ${other}.`;
    case 'not-a-file':
      return `Move it out of the way, or ${other}.`;
    case 'access':
      return `Make it (and its directory) writable, or ${other}.`;
    case 'locked':
      return `Wait for the other process (another core-agent, or an sqlite3 shell) to finish, or ${other}.`;
    case 'full':
      return 'Free space on that file system, or pass --session-db with a path on another one (or :memory: to keep nothing).';
    default:
      return `Check the file and its file system, or ${other}.`;
  }
}

/** A path as it can be pasted into a shell. */
function shellQuote(p: string): string {
  return /^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}

/**
 * What a run says when its session log stopped at a write failure: at the moment
 * it happens (`when: 'now'`), and again when the run ends, after the answer.
 */
export function logStoppedMessage(f: LogFailure, when: 'now' | 'end'): string {
  const upTo = f.lastSeq === null ? 'what was recorded before this run' : `event #${f.lastSeq}`;
  if (when === 'now') {
    return `${f.error.message}. The session goes on unrecorded: its log ends at ${upTo}, and --resume ${f.sessionId} would continue from there.`;
  }
  return `the session log is incomplete: ${f.dropped} event(s) after ${upTo} were not recorded (${f.error.message})`;
}
