// Every command that opens the session database, against every way the file can be
// unusable (session-db.cases.ts): a message that names the file, the cause and the
// fix, exit 2, no stack trace, the file left as it was — and --fresh-session-db
// moving a damaged one aside.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.ts';
import { bundle } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';
import { CASES, type DamageCase, type Expectation } from './session-db.cases.ts';

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], cwd: string, opts: { until?: RegExp } = {}): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bundle, ...args], {
      cwd,
      env: { PATH: process.env.PATH, HOME: cwd, KUBECONFIG: path.join(cwd, 'kubeconfig') },
    });
    let stdout = '';
    let stderr = '';
    let stopping = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      // A command that started (watch serving) is stopped as its operator would stop it: once.
      // A second SIGTERM sent on its "stopped" line would find the listeners gone (its last
      // close step) and kill the exiting process: exit by signal, not the 0 this checks.
      if (!stopping && opts.until?.test(stdout)) {
        stopping = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

type Command = 'sessions list' | 'sessions show' | 'run' | 'run --resume' | 'watch' | 'tools call';
const COMMANDS: Record<Command, (db: string, id: string) => string[]> = {
  // The template's session ran in a directory that is gone: every workspace's, and resumed here.
  'sessions list': (db) => ['sessions', 'list', '--all', '--session-db', db],
  'sessions show': (db, id) => ['sessions', 'show', id, '--session-db', db],
  run: (db) => ['run', '-m', 'replay:script.jsonl', '--session-db', db, 'hello'],
  'run --resume': (db, id) => ['run', '-m', 'replay:script.jsonl', '-w', '.', '--session-db', db, '--resume', id, 'and again'],
  watch: (db) => ['watch', '-c', 'watch.yaml', '-m', 'replay:script.jsonl', '--listen', '127.0.0.1:0', '--session-db', db],
  // Records its one call in a new session of the database it is given.
  'tools call': (db) => ['tools', 'call', '--session-db', db, 'stat', '{"path": "."}'],
};
/** Waiting out a lock costs 5 s a command: two commands (a reader, a writer) show it. */
const ONLY: Partial<Record<Expectation, Command[]>> = { locked: ['sessions list', 'run'] };

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The fix the message must give, by problem and command. */
function advice(c: DamageCase, command: Command, db: string, id: string): RegExp {
  const p = esc(db);
  switch (c.expect) {
    case 'damaged':
      if (command.startsWith('sessions')) return new RegExp(`Move it aside \\(mv ${p} ${p}\\.broken\\).*sqlite3 ${p} \\.recover`);
      if (command === 'run --resume') return new RegExp(`A fresh database cannot hold session ${esc(id)}.*sqlite3 ${p} \\.recover`);
      return new RegExp(`Move it aside \\(mv ${p} ${p}\\.broken\\) and run again, or pass --fresh-session-db .*--session-db :memory:`);
    case 'foreign':
      return /core-agent does not change or move another application's file: pass --session-db with another path/;
    case 'not-a-file':
      return /Move it out of the way, or pass --session-db with another path/;
    case 'locked':
      return /Wait for the other process .* or pass --session-db with another path/;
    default:
      return /^/;
  }
}

const HEADLINE: Record<Exclude<Expectation, 'ok'>, (db: string) => string> = {
  damaged: (db) => `the session database ${db} is damaged: `,
  foreign: (db) => `${db} is not a core-agent session database: `,
  'not-a-file': (db) => `cannot use ${db} as the session database: `,
  locked: (db) => `the session database ${db} is locked: `,
};

let real: { bytes: Buffer; id: string };

/** A directory with the files every command needs, and the case written at sessions.db. */
async function caseDir(c: DamageCase): Promise<{ dir: string; db: string; cleanup?: () => void }> {
  const dir = await tempDir();
  await writeFile(path.join(dir, 'script.jsonl'), '{"text":"hi"}\n'.repeat(6));
  await writeFile(path.join(dir, 'watch.yaml'), 'watch: { reasons: [BackOff] }\n');
  // A cluster nothing answers for: watch reaches its session database before it talks to one.
  await writeFile(
    path.join(dir, 'kubeconfig'),
    'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\n' +
      'users: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n',
  );
  const db = path.join(dir, 'sessions.db');
  const cleanup = (await c.make(db, real.bytes)) ?? undefined;
  return { dir, db, cleanup };
}

const snapshot = (db: string) => (existsSync(db) && statSync(db).isFile() ? readFileSync(db) : null);

beforeAll(async () => {
  // The healthy database every case starts from: a real run's.
  const dir = await tempDir();
  await writeFile(path.join(dir, 'script.jsonl'), '{"text":"hi"}\n');
  const db = path.join(dir, 'real.db');
  const r = await cli(['run', '-m', 'replay:script.jsonl', '--session-db', db, 'first'], dir);
  expect(r.code, r.stderr).toBe(0);
  const id = /session (s-[\w-]+)/.exec(r.stderr)![1]!;
  // A long session's worth of events (resume ignores `error` ones), so damage can sit in the middle.
  const log = EventLog.open(db);
  for (let i = 0; i < 300; i++) log.append(id, 1, 'error', { message: `filler ${i} `.repeat(50) });
  log.close();
  real = { bytes: readFileSync(db), id };
  expect(real.bytes.length).toBeGreaterThan(40 * 4096);
});

const rows = CASES.flatMap((c) =>
  (Object.keys(COMMANDS) as Command[])
    .filter((command) => (ONLY[c.expect] ?? Object.keys(COMMANDS)).includes(command))
    // A watch on a usable database would start watching: its start-up is tested where it fails.
    .filter((command) => !((c.expect === 'ok' || c.unaffected) && command === 'watch'))
    .map((command) => ({ c, command, label: `${c.name} × ${command}` })),
);

describe('an unusable session database: every command says what is wrong and what to do', () => {
  it.each(rows)('$label', async ({ c, command }) => {
    const { dir, db, cleanup } = await caseDir(c);
    const before = snapshot(db);
    try {
      const r = await cli(COMMANDS[command](db, real.id), dir);
      expect(r.stderr).not.toMatch(/^\s+at /m);
      expect(r.stderr).not.toMatch(/internal error/);
      if (c.unaffected?.includes(command)) {
        expect(r.code, r.stderr).toBe(0);
        return;
      }
      if (c.expect === 'ok') {
        const missing = !c.keepsSession && (command === 'sessions show' || command === 'run --resume');
        expect(r.code, r.stderr).toBe(missing ? 2 : 0);
        if (missing) expect(r.stderr).toContain(`no session "${real.id}" in ${db}`);
        if (c.keepsSession && command === 'sessions list') expect(r.stdout).toContain(real.id);
        return;
      }
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(HEADLINE[c.expect](db));
      expect(r.stderr).toMatch(c.cause);
      expect(r.stderr).toMatch(advice(c, command, db, real.id));
      expect(r.stderr.length).toBeLessThan(1200);
      // Refused before anything was written: the evidence is as it was.
      if (before) expect(snapshot(db)!.equals(before)).toBe(true);
    } finally {
      cleanup?.();
    }
  });
});

describe('--fresh-session-db', () => {
  const refusable = CASES.filter((c) => c.expect !== 'ok' && c.expect !== 'locked');

  it.each(refusable)('$name: run --fresh-session-db', async (c) => {
    const { dir, db } = await caseDir(c);
    const before = snapshot(db);
    const r = await cli([...COMMANDS.run(db, real.id), '--fresh-session-db'], dir);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    if (c.unaffected?.includes('run')) {
      // The damage is where a new session never reads: nothing to move, the run works.
      expect(r.code, r.stderr).toBe(0);
      expect(snapshot(db)!.length).toBeGreaterThanOrEqual(before!.length);
      expect(readdirSync(dir).filter((f) => f.includes('.broken-'))).toEqual([]);
      return;
    }
    if (c.expect !== 'damaged') {
      // Not core-agent's to move: another application's file, a directory.
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(c.cause);
      if (before) expect(snapshot(db)!.equals(before)).toBe(true);
      expect(readdirSync(dir).filter((f) => f.includes('.broken-'))).toEqual([]);
      return;
    }
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('hi');
    const moved = new RegExp(
      `${esc(HEADLINE.damaged(db))}.*; moved it aside \\((${esc(db)}\\.broken-\\d{8}T\\d{6}Z)\\) and started a fresh one at ${esc(db)}`,
    );
    expect(r.stderr).toMatch(moved);
    const aside = moved.exec(r.stderr)![1]!;
    expect(readFileSync(aside).equals(before!)).toBe(true);
    const newId = /session (s-[\w-]+)/.exec(r.stderr)![1]!;
    const list = await cli(COMMANDS['sessions list'](db, ''), dir);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(newId);
  });

  it.each(refusable.filter((c) => c.expect === 'damaged'))(
    '$name: run --resume --fresh-session-db refuses (the session is in the damaged file)',
    async (c) => {
      const { dir, db } = await caseDir(c);
      const before = snapshot(db);
      const r = await cli([...COMMANDS['run --resume'](db, real.id), '--fresh-session-db'], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(`A fresh database cannot hold session ${esc(real.id)}, so --fresh-session-db does not apply to --resume`),
      );
      expect(snapshot(db)!.equals(before!)).toBe(true);
    },
  );

  it('a healthy database is used as it is', async () => {
    const { dir, db } = await caseDir(CASES.find((c) => c.keepsSession)!);
    const r = await cli([...COMMANDS.run(db, real.id), '--fresh-session-db'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/moved it aside/);
    expect((await cli(COMMANDS['sessions list'](db, ''), dir)).stdout).toContain(real.id);
  });

  it('tools call --fresh-session-db moves a damaged database aside and records the call in a fresh one', async () => {
    const { dir, db } = await caseDir(CASES.find((c) => c.name === 'garbage bytes')!);
    const r = await cli([...COMMANDS['tools call'](db, ''), '--fresh-session-db'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/moved it aside \(.*\.broken-\d{8}T\d{6}Z\) and started a fresh one/);
    const list = await cli(COMMANDS['sessions list'](db, ''), dir);
    expect(list.stdout).toContain('tools call stat');
  });

  it('watch --fresh-session-db moves a damaged database aside and starts', async () => {
    const { dir, db } = await caseDir(CASES.find((c) => c.name === 'garbage bytes')!);
    const r = await cli([...COMMANDS.watch(db, ''), '--fresh-session-db'], dir, { until: /health and metrics on/ });
    expect(r.stdout, r.stderr).toMatch(/health and metrics on http:\/\/127\.0\.0\.1:\d+ \(sessions in /);
    expect(r.stderr).toMatch(/moved it aside \(.*\.broken-\d{8}T\d{6}Z\)/);
    expect(r.code).toBe(0);
    expect(readdirSync(dir).some((f) => /^sessions\.db\.broken-/.test(f))).toBe(true);
  });
});
