import { chmodSync, closeSync, existsSync, openSync, readSync, renameSync, statSync, statfsSync, unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { ALL_SCHEMAS, APPLICATION_ID } from './schema.ts';
import { makeDirs } from '../util/make-dirs.ts';

/**
 * What is wrong with the session database, by what the user can do about it: a
 * `damaged` file may be moved aside and replaced (nothing can read it anyway); a
 * `foreign` file (another application's — or one whose tables core-agent does
 * not recognise), a directory, a locked or unwritable one, a full disk are the
 * user's to sort out: core-agent never moves those.
 */
export type SessionDbProblem = 'damaged' | 'foreign' | 'not-a-file' | 'access' | 'locked' | 'full' | 'io';

/** The session database cannot be used: where it is, what is wrong, in words. The CLI adds what to do (session-db-advice.ts). */
export class SessionDbError extends Error {
  override readonly name = 'SessionDbError';
  /** The session the user asked to continue (--resume): a fresh database cannot hold it. */
  resume: string | undefined;

  constructor(
    readonly location: string,
    readonly problem: SessionDbProblem,
    /** The cause in words, e.g. "the file is 4096 bytes but its header says 196608: it was cut off". */
    readonly reason: string,
  ) {
    super(headline(location, problem, reason));
  }

  /** Moving the file aside and starting a fresh one is a fix (the file is unreadable, so nothing else can be using it). */
  get movable(): boolean {
    return this.problem === 'damaged';
  }
}

function headline(file: string, problem: SessionDbProblem, cause: string): string {
  switch (problem) {
    case 'damaged':
      return `the session database ${file} is damaged: ${cause}`;
    case 'foreign':
      return `${file} is not a core-agent session database: ${cause}`;
    case 'not-a-file':
      return `cannot use ${file} as the session database: ${cause}`;
    case 'locked':
      return `the session database ${file} is locked: ${cause}`;
    case 'full':
      return `no space left on device while writing the session log at ${file}`;
    default:
      return `cannot use the session database ${file}: ${cause}`;
  }
}

const PRAGMAS = 'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;';
/** How long a write waits for another process's lock before the database counts as locked. */
export const BUSY_TIMEOUT_MS = 5_000;

const sqlite = () => createRequire(import.meta.url)('node:sqlite') as typeof import('node:sqlite');

/**
 * Open the session database and make sure it is one core-agent can use, or throw
 * a SessionDbError saying why not. Everything SQLite would trip over later — a
 * cut-off, garbage or zero-filled file, another application's database, a
 * directory, a lock, a read-only file system — is found here, at open, so a
 * command fails before it starts rather than halfway through a turn.
 */
export function openSessionDb(location: string, schema: string): DatabaseSync {
  const { DatabaseSync: Database } = sqlite();
  if (location === ':memory:') {
    const db = new Database(':memory:');
    db.exec(schema);
    return db;
  }
  const file = path.resolve(location);
  try {
    // Transcripts hold what the user and the tools said: directories made here are the user's alone.
    makeDirs(path.dirname(file), 0o700);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    // A directory that cannot be made although its parent exists (/proc/…, a dead mount).
    if (e.code === 'ENOENT')
      throw new SessionDbError(location, 'io', `its directory ${e.path ?? path.dirname(file)} cannot be created there (mkdir: ENOENT)`);
    throw sessionDbError(err, location) ?? err;
  }
  inspectFile(file, location);
  makePrivate(file, location);
  let db: DatabaseSync | undefined;
  try {
    db = new Database(file);
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS};`);
    // Before anything writes: WAL mode alone would rewrite another application's file header.
    const stamped = checkOwner(db, location);
    db.exec(PRAGMAS);
    db.exec(schema);
    if (!stamped) db.exec(`PRAGMA application_id = ${APPLICATION_ID};`);
    return db;
  } catch (err) {
    try {
      db?.close();
    } catch {
      // the handle is unusable anyway
    }
    throw sessionDbError(err, location) ?? err;
  }
}

/**
 * What a failed SQLite call or file operation on the session database means, as
 * a SessionDbError; null for an error that is not about the database (a bug).
 * node:sqlite reports damage as "file is not a database" or "database disk image
 * is malformed" — at open or at the first query that reads a bad page — and both
 * become the one `damaged` problem.
 */
export function sessionDbError(err: unknown, location: string): SessionDbError | null {
  if (err instanceof SessionDbError) return err;
  const e = err as { code?: unknown; errcode?: unknown; errstr?: unknown; message?: unknown } | null;
  const is = (problem: SessionDbProblem, cause: string) => new SessionDbError(location, problem, cause);
  if (e?.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
    const said = String(e.errstr ?? e.message);
    switch (e.errcode & 0xff) {
      case 26: // SQLITE_NOTADB
        return is('damaged', `SQLite does not recognise it as a database (${said})`);
      case 11: // SQLITE_CORRUPT
        return is('damaged', `SQLite finds its pages inconsistent (${said})`);
      case 13: // SQLITE_FULL
        return is('full', said);
      case 5: // SQLITE_BUSY
      case 6: // SQLITE_LOCKED
        return is('locked', `another process holds a lock on it and did not let go within ${BUSY_TIMEOUT_MS / 1000} s (${said})`);
      case 8: // SQLITE_READONLY
        return fileProblem(location) ?? is('access', `it cannot be written (${said})`);
      case 14: // SQLITE_CANTOPEN
        return fileProblem(location) ?? is('io', `SQLite cannot open it (${said})`);
      case 10: // SQLITE_IOERR: a full disk shows up here too (the WAL index, a short write)
        return diskFull(location) ? is('full', said) : (fileProblem(location) ?? is('io', `an I/O error (${said})`));
      default:
        return is('io', said);
    }
  }
  if (typeof e?.code === 'string') {
    const cause = errnoCause(e.code);
    if (cause) return is(cause[0], cause[1]);
  }
  return null;
}

/**
 * Rename a damaged database and its WAL and shared-memory files to
 * PATH.broken-<time> (…-wal, …-shm, the names SQLite looks for beside it, so the
 * set can still be opened to salvage what is readable). Returns the new names.
 */
export function moveAside(location: string, now = new Date()): string[] {
  const file = path.resolve(location);
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const target = `${file}.broken-${stamp}`;
  const moved: string[] = [];
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    if (!existsSync(file + suffix)) continue;
    renameSync(file + suffix, target + suffix);
    moved.push(target + suffix);
  }
  return moved;
}

/**
 * The database file 0600 before SQLite opens it: SQLite would create it 0644
 * (under the usual umask), and gives its -wal and -shm files the database's own
 * mode. A database of the user's from before this rule (0644) is tightened, with
 * its -wal and -shm, when it is the user's own file; one owned by someone else
 * is left as it is (chmod would fail anyway).
 */
function makePrivate(file: string, location: string): void {
  try {
    closeSync(openSync(file, 'wx', 0o600));
    return;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') throw sessionDbError(err, location) ?? err;
  }
  const uid = process.getuid?.();
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      const st = statSync(file + suffix);
      if (st.isFile() && st.uid === uid && (st.mode & 0o077) !== 0) chmodSync(file + suffix, st.mode & 0o700);
    } catch {
      // absent, or a file system without modes: SQLite's open says what matters
    }
  }
}

/** Checks on the bytes, before SQLite sees them, for the causes SQLite would only call "malformed". */
function inspectFile(file: string, location: string): void {
  let stat;
  try {
    stat = statSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // a new database
    throw sessionDbError(err, location) ?? err;
  }
  if (stat.isDirectory()) throw new SessionDbError(location, 'not-a-file', 'it is a directory');
  if (!stat.isFile()) throw new SessionDbError(location, 'not-a-file', 'it is not a regular file');
  if (stat.size === 0) return; // SQLite treats an empty file as a new, empty database
  const header = Buffer.alloc(100);
  let fd;
  try {
    fd = openSync(file, 'r');
    readSync(fd, header, 0, 100, 0);
  } catch (err) {
    throw sessionDbError(err, location) ?? err;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const damaged = (cause: string) => new SessionDbError(location, 'damaged', cause);
  if (stat.size < 100) throw damaged(`the file is ${stat.size} bytes, shorter than an SQLite header (100): it was cut off`);
  if (header.every((b) => b === 0)) throw damaged('its first bytes are all zeros (a zero-filled file)');
  if (header.toString('latin1', 0, 16) !== 'SQLite format 3\0')
    throw damaged('it does not start with the SQLite header (it holds something else)');
  // The page count in the header is trusted when its change counter matches (the SQLite file format, §1.3.7).
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
  const pages = header.readUInt32BE(28);
  const valid = pages > 0 && header.readUInt32BE(24) === header.readUInt32BE(92);
  // A WAL or rollback journal beside it may hold pages SQLite restores on open: a short file is then not damage.
  const pending = ['-wal', '-journal'].some((s) => existsSync(file + s) && statSync(file + s).size > 0);
  if (valid && !pending && stat.size < pages * pageSize) {
    throw damaged(`the file is ${stat.size} bytes but its header says ${pages * pageSize}: it was cut off`);
  }
}

/**
 * A database with tables core-agent never creates, or with a table of core-agent's
 * name but not its columns, is another application's (or an incompatible
 * version's): refused as it is, never written to. Returns whether the file
 * already carries core-agent's application_id.
 */
function checkOwner(db: DatabaseSync, location: string): boolean {
  const appId = (db.prepare('PRAGMA application_id').get() as { application_id: number }).application_id;
  if (appId !== 0 && appId !== APPLICATION_ID) {
    throw new SessionDbError(location, 'foreign', `its application_id is 0x${appId.toString(16)}, not core-agent's`);
  }
  const tables = (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{
      name: string;
    }>
  ).map((r) => r.name);
  const known = knownColumns();
  const strangers = tables.filter((t) => !known.has(t));
  if (strangers.length > 0) {
    const shown = strangers.slice(0, 5).join(', ') + (strangers.length > 5 ? ` and ${strangers.length - 5} more` : '');
    throw new SessionDbError(location, 'foreign', `it has tables core-agent never creates (${shown})`);
  }
  for (const table of tables) {
    const have = new Set((db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string }>).map((c) => c.name));
    const missing = [...known.get(table)!].filter((c) => !have.has(c));
    if (missing.length > 0) {
      const cause = `its table ${table} has no column ${missing.join(', ')} (another application's database, or an incompatible core-agent's)`;
      throw new SessionDbError(location, 'foreign', cause);
    }
    // Both ends of the table's tree — its first rows, and the last page, where the next
    // row goes — so a damaged page there fails now, not on the session's first write.
    // (A full check reads every page: seconds for a large log. Damage deeper in is
    // reported by the first query that reads it, as the same error.)
    db.prepare(`SELECT rowid FROM "${table}" ORDER BY rowid LIMIT 1`).get();
    db.prepare(`SELECT rowid FROM "${table}" ORDER BY rowid DESC LIMIT 1`).get();
  }
  return appId === APPLICATION_ID;
}

let columns: Map<string, Set<string>> | undefined;

/** Every table core-agent creates and its columns, read from the schemas themselves (one source of truth). */
function knownColumns(): Map<string, Set<string>> {
  if (columns) return columns;
  const db = new (sqlite().DatabaseSync)(':memory:');
  for (const schema of ALL_SCHEMAS) db.exec(schema);
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{
    name: string;
  }>;
  columns = new Map(
    tables.map(({ name }) => [
      name,
      new Set((db.prepare(`PRAGMA table_info("${name}")`).all() as Array<{ name: string }>).map((c) => c.name)),
    ]),
  );
  db.close();
  return columns;
}

/** The file system's own word on why the file cannot be opened or written, if it has one. */
function fileProblem(location: string): SessionDbError | null {
  const file = path.resolve(location);
  const problem = (err: unknown) => {
    const cause = errnoCause((err as NodeJS.ErrnoException).code ?? '');
    return cause ? new SessionDbError(location, cause[0], cause[1]) : null;
  };
  try {
    if (statSync(file).isDirectory()) return new SessionDbError(location, 'not-a-file', 'it is a directory');
    closeSync(openSync(file, 'r+'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return problem(err);
  }
  // The file itself is writable (or absent): the directory, where SQLite puts -wal and -shm, may not be.
  const probe = path.join(path.dirname(file), `.core-agent-probe-${process.pid}`);
  try {
    closeSync(openSync(probe, 'wx'));
    unlinkSync(probe);
  } catch (err) {
    return problem(err);
  }
  return null;
}

function diskFull(location: string): boolean {
  try {
    return statfsSync(path.dirname(path.resolve(location))).bavail === 0;
  } catch {
    return false;
  }
}

function errnoCause(code: string): [SessionDbProblem, string] | null {
  switch (code) {
    case 'ENOSPC':
      return ['full', 'no space left on device'];
    case 'EACCES':
    case 'EPERM':
      return ['access', 'permission denied'];
    case 'EROFS':
      return ['access', 'the file system is read-only'];
    case 'EISDIR':
      return ['not-a-file', 'it is a directory'];
    case 'ENOTDIR':
      return ['not-a-file', 'a part of its path is a file, not a directory'];
    case 'ELOOP':
      return ['not-a-file', 'its path loops through symbolic links'];
    case 'EDQUOT':
      return ['full', 'the disk quota is exhausted'];
    default:
      return null;
  }
}
