// Ways a session database can be unusable, one line each, for session-db.test.ts:
// every case runs against every command there. `make` writes the case at `db` (in
// an empty directory) from `real`, the bytes of a healthy database that holds one
// finished session; it may return a cleanup (a process holding a lock).
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';

export type Expectation = 'damaged' | 'foreign' | 'not-a-file' | 'locked' | 'ok';

export interface DamageCase {
  name: string;
  make: (db: string, real: Buffer) => Promise<void | (() => void)>;
  expect: Expectation;
  /** The cause the message gives, in words (ok cases: unused). */
  cause: RegExp;
  /** ok cases: the healthy session is still there to list, show and resume. */
  keepsSession?: boolean;
  /** Commands that never read the damaged part, and work (damage deep in the file is found by the first query that reads it). */
  unaffected?: string[];
}

const cut = (at: (size: number) => number) => async (db: string, real: Buffer) => writeFile(db, real.subarray(0, at(real.length)));
const page = 4096;

/** Overwrite the root page of `table` with garbage: the header and size stay right, the first read of it fails. */
async function smashTable(db: string, real: Buffer, table: string): Promise<void> {
  await writeFile(db, real);
  const d = new DatabaseSync(db, { readOnly: true });
  const { rootpage } = d.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(table) as { rootpage: number };
  d.close();
  const bytes = Buffer.from(real);
  for (let i = 0; i < page; i++) bytes[(rootpage - 1) * page + i] = (i * 37 + 11) & 0xff;
  await writeFile(db, bytes);
}

/** Overwrite a leaf page in the middle of the events table: open succeeds; reading those events fails. */
async function smashEventsMiddle(db: string, real: Buffer): Promise<void> {
  await writeFile(db, real);
  const d = new DatabaseSync(db, { readOnly: true });
  const leaves = d.prepare("SELECT pageno FROM dbstat WHERE name = 'events' AND pagetype = 'leaf' ORDER BY pageno").all() as Array<{
    pageno: number;
  }>;
  d.close();
  if (leaves.length < 5) throw new Error(`the healthy database has too few event pages (${leaves.length}) for this case`);
  const { pageno } = leaves[Math.floor(leaves.length / 2)]!;
  const bytes = Buffer.from(real);
  for (let i = 0; i < page; i++) bytes[(pageno - 1) * page + i] = (i * 53 + 3) & 0xff;
  await writeFile(db, bytes);
}

function sqliteFile(db: string, sql: string): void {
  const d = new DatabaseSync(db);
  d.exec(sql);
  d.close();
}

/** Another process keeps an exclusive lock on the database (no reader, no writer gets in). */
async function holdLock(db: string, real: Buffer): Promise<() => void> {
  await writeFile(db, real);
  const script = `const { DatabaseSync } = require('node:sqlite');
    const db = new DatabaseSync(process.argv[1]);
    db.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; CREATE TABLE lock_probe (x); DROP TABLE lock_probe;');
    console.log('locked');
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '-e', script, db], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
    child.on('exit', (code) => reject(new Error(`lock holder exited (${code})`)));
  });
  return () => child.kill('SIGKILL');
}

// prettier-ignore
export const CASES: DamageCase[] = [
  { name: 'cut inside the header (50 bytes)', make: cut(() => 50), expect: 'damaged', cause: /50 bytes, shorter than an SQLite header.*cut off/ },
  { name: 'cut after the header (100 bytes)', make: cut(() => 100), expect: 'damaged', cause: /100 bytes but its header says \d+: it was cut off/ },
  { name: 'cut after the first page', make: cut(() => page), expect: 'damaged', cause: /4096 bytes but its header says \d+: it was cut off/ },
  { name: 'cut in half', make: cut((n) => Math.floor(n / 2)), expect: 'damaged', cause: /but its header says \d+: it was cut off/ },
  { name: 'the last page missing', make: cut((n) => n - page), expect: 'damaged', cause: /but its header says \d+: it was cut off/ },
  { name: 'the last byte missing', make: cut((n) => n - 1), expect: 'damaged', cause: /but its header says \d+: it was cut off/ },
  { name: 'garbage bytes', make: (db) => writeFile(db, Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 131 + 7) & 0xff))), expect: 'damaged', cause: /does not start with the SQLite header/ },
  { name: 'a text file', make: (db) => writeFile(db, 'these are my notes, not a database\n'.repeat(10)), expect: 'damaged', cause: /does not start with the SQLite header/ },
  { name: 'a zero-filled file', make: (db) => writeFile(db, Buffer.alloc(16_384)), expect: 'damaged', cause: /first bytes are all zeros/ },
  { name: 'the sessions table page smashed', make: (db, real) => smashTable(db, real, 'sessions'), expect: 'damaged', cause: /malformed/ },
  { name: 'an events page in the middle smashed', make: smashEventsMiddle, expect: 'damaged', cause: /malformed/, unaffected: ['run', 'tools call'] },
  { name: 'a directory at the path', make: (db) => mkdir(db), expect: 'not-a-file', cause: /it is a directory/ },
  { name: "another application's database", make: async (db) => sqliteFile(db, "CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT); INSERT INTO moz_places (url) VALUES ('x');"), expect: 'foreign', cause: /tables core-agent never creates \(moz_places\)/ },
  { name: 'a sessions table of another shape', make: async (db) => sqliteFile(db, 'CREATE TABLE sessions (token TEXT, user TEXT);'), expect: 'foreign', cause: /table sessions has no column id, created_at, model, workspace, title/ },
  { name: "another application's id, no tables", make: async (db) => sqliteFile(db, 'PRAGMA application_id = 1234567;'), expect: 'foreign', cause: /application_id is 0x12d687, not core-agent's/ },
  { name: 'locked by another process', make: holdLock, expect: 'locked', cause: /another process holds a lock on it and did not let go within 5 s/ },
  // Not errors: SQLite's own rules make these usable, and the commands must work.
  { name: 'an empty file (SQLite: a new database)', make: (db) => writeFile(db, ''), expect: 'ok', cause: /^/ },
  { name: 'a garbage WAL beside a healthy file', make: async (db, real) => { await writeFile(db, real); await writeFile(`${db}-wal`, Buffer.alloc(9000, 0x5a)); }, expect: 'ok', cause: /^/, keepsSession: true },
  { name: 'a garbage shared-memory file', make: async (db, real) => { await writeFile(db, real); await writeFile(`${db}-shm`, Buffer.alloc(32_768, 0xa5)); }, expect: 'ok', cause: /^/, keepsSession: true },
];
