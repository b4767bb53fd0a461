import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeDirs } from '../util/make-dirs.ts';

/** Lines kept per workspace, newest last on disk (readline wants newest first). */
export const HISTORY_LINES = 500;

/**
 * The REPL's input history, one file per workspace under the state directory
 * (`history/<hash of the workspace path>`), mode 0600: prompts can hold what a
 * user would not leave world-readable. Read at start, written atomically at
 * exit; a missing or unreadable file is an empty history, never an error.
 */
export class ReplHistory {
  private readonly file: string;

  constructor(stateDir: string, workspace: string) {
    const key = createHash('sha256').update(workspace).digest('hex').slice(0, 16);
    this.file = path.join(stateDir, 'history', key);
  }

  /** Newest first, as readline's `history` option takes it. */
  load(): string[] {
    try {
      return readFileSync(this.file, 'utf8').split('\n').filter(Boolean).map(decodeEntry).slice(-HISTORY_LINES).reverse();
    } catch {
      return [];
    }
  }

  /** readline's history (newest first) back to the file; a failure costs the history, not the session. */
  save(newestFirst: readonly string[]): void {
    try {
      makeDirs(path.dirname(this.file), 0o700);
      const tmp = `${this.file}.${process.pid}.tmp`;
      const lines = newestFirst.slice(0, HISTORY_LINES).reverse().map(encodeEntry);
      writeFileSync(tmp, lines.length === 0 ? '' : `${lines.join('\n')}\n`, { mode: 0o600 });
      chmodSync(tmp, 0o600);
      renameSync(tmp, this.file);
    } catch {
      // A read-only home (a container) keeps no history.
    }
  }
}

/**
 * One entry a line: a message of several lines (a paste, `\` continuations)
 * is stored as a JSON string, and so is an entry that starts with a quote, so
 * that reading it back is never ambiguous.
 */
function encodeEntry(entry: string): string {
  return entry.includes('\n') || entry.includes('\r') || entry.startsWith('"') ? JSON.stringify(entry) : entry;
}

function decodeEntry(line: string): string {
  if (!line.startsWith('"')) return line;
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === 'string' ? v : line;
  } catch {
    return line;
  }
}
