// sessions list / rm / prune over a real SQLite file, and --resume latest / --continue
// through the built CLI: a resumed session runs in its own workspace, on its own model.
import { spawnSync } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionsCommand } from '../../src/cli/sessions-command.ts';
import type { Io } from '../../src/cli/usage.ts';
import { EventLog } from '../../src/store/event-log.ts';
import { bundle } from '../helpers/cli.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';
import { REFUSAL_CASES, STATUS_CASES } from './sessions.cases.ts';

async function sessions(argv: string[], env: Io['env'] = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { out: (t) => (out += t), err: (t) => (err += t), readStdin: () => Promise.resolve(''), isTty: false, env };
  const code = await sessionsCommand(argv, io);
  return { code, out, err };
}

/** A log with one session per workspace given, each with one finished turn. */
async function logWith(workspaces: string[]) {
  const db = path.join(await tempDir(), 'sessions.db');
  const log = EventLog.open(db);
  const ids = workspaces.map((ws, i) => {
    const id = log.createSession({ model: `replay:s${i}.jsonl`, workspace: ws, title: `task ${i}` });
    log.append(id, 1, 'user', { text: `task ${i}` });
    log.append(id, 1, 'turn_end', { status: 'done', text: 'ok', steps: 1, usage: {} });
    return id;
  });
  log.close();
  return { db, ids };
}

/** Moves a session's record into the past by `days` (its creation and every event). */
function age(db: string, id: string, days: number): void {
  const sql = new DatabaseSync(db);
  const shift = `strftime('%Y-%m-%dT%H:%M:%fZ', julianday(%s) - ${days})`;
  sql.prepare(`UPDATE sessions SET created_at = ${shift.replace('%s', 'created_at')} WHERE id = ?`).run(id);
  sql.prepare(`UPDATE events SET at = ${shift.replace('%s', 'at')} WHERE session_id = ?`).run(id);
  sql.close();
}

describe('sessions list: status, this workspace, local times', () => {
  it.each(STATUS_CASES)('$what → $status', async (c) => {
    const ws = await tempDir();
    const db = path.join(await tempDir(), 'sessions.db');
    const log = EventLog.open(db);
    const id = log.createSession({ model: 'm', workspace: ws, title: 't' });
    let turn = 0;
    for (const e of c.events) {
      if (e === 'user') log.append(id, ++turn, 'user', { text: 'go' });
      else if (e.startsWith('turn_end:')) log.append(id, turn, 'turn_end', { status: e.slice(9), text: '', steps: 1, usage: {} });
      else log.append(id, turn, e as 'tool_result' | 'watchdog', {});
    }
    expect(log.session(id)?.status).toBe(c.status);
    log.close();
    const list = await sessions(['list', '--session-db', db, '-w', ws]);
    expect(list.out.split('\n')[1]).toMatch(new RegExp(`^${id}\\s.*\\s${c.status}\\s`));
  });

  it("lists this workspace's sessions only, and --all every one with its directory", async () => {
    const [a, b] = [await tempDir(), await tempDir()];
    const { db, ids } = await logWith([a, b, a]);
    const mine = await sessions(['list', '--session-db', db, '-w', a]);
    expect(mine.code).toBe(0);
    const rows = mine.out.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^ID\s+STARTED\s+LAST ACTIVE\s+STATUS\s+TURNS\s+MODEL — TITLE$/);
    expect(rows.slice(1).map((r) => r.split(' ')[0])).toEqual([ids[2], ids[0]]);
    const all = await sessions(['list', '--session-db', db, '--all']);
    const allRows = all.out.trimEnd().split('\n');
    expect(allRows[0]).toMatch(/\sWORKSPACE\s/);
    expect(allRows).toHaveLength(4);
    expect(allRows.find((r) => r.startsWith(ids[1]!))).toContain(b);
    const json = JSON.parse((await sessions(['list', '--session-db', db, '-w', b, '--json'])).out) as Array<Record<string, unknown>>;
    expect(json).toEqual([expect.objectContaining({ id: ids[1], workspace: b, status: 'done', turns: 1 })]);
  });

  it('an empty workspace says where the other sessions are', async () => {
    const [a, b] = [await tempDir(), await tempDir()];
    const { db } = await logWith([a]);
    expect((await sessions(['list', '--session-db', db, '-w', b])).out).toMatch(
      new RegExp(`^no sessions of ${b} in .*sessions\\.db \\(1 in other workspaces: sessions list --all\\)\\n$`),
    );
  });

  it('--json: stdout stays the JSON ([]), and stderr says where the other sessions are', async () => {
    const [a, b] = [await tempDir(), await tempDir()];
    const { db } = await logWith([a, a]);
    const elsewhere = await sessions(['list', '--session-db', db, '-w', b, '--json']);
    expect([elsewhere.code, JSON.parse(elsewhere.out)]).toEqual([0, []]);
    expect(elsewhere.err).toMatch(
      new RegExp(`^core-agent: no sessions of ${b} in .*sessions\\.db \\(2 in other workspaces: sessions list --all\\)\\n$`),
    );
    // Nothing to say when this workspace has sessions, or when there are none anywhere.
    expect((await sessions(['list', '--session-db', db, '-w', a, '--json'])).err).toBe('');
    const empty = path.join(await tempDir(), 'empty.db');
    expect((await sessions(['list', '--session-db', empty, '-w', b, '--json'])).err).toBe('');
  });

  it.each([
    { tz: 'UTC', zone: 'UTC', hourShift: 0 },
    { tz: 'Asia/Kolkata', zone: 'GMT+5:30', hourShift: 5.5 },
    { tz: 'America/New_York', zone: /^E[SD]T$/, hourShift: undefined },
    { tz: 'Not/AZone', zone: /\S+/, hourShift: undefined },
  ])('times are local with their zone: TZ=$tz', async ({ tz, zone, hourShift }) => {
    const ws = await tempDir();
    const { db, ids } = await logWith([ws]);
    const log = EventLog.open(db);
    const created = log.session(ids[0]!)!.createdAt;
    log.close();
    const row = (await sessions(['list', '--session-db', db, '-w', ws], { TZ: tz })).out.split('\n')[1]!;
    const m = /^\S+\s+(\d{4}-\d\d-\d\d \d\d:\d\d) (\S+)\s/.exec(row);
    expect(m, row).not.toBeNull();
    if (typeof zone === 'string') expect(m![2]).toBe(zone);
    else expect(m![2]).toMatch(zone);
    if (hourShift !== undefined) {
      const shown = new Date(`${m![1]!.replace(' ', 'T')}:00Z`).getTime();
      const utc = new Date(created).getTime();
      // The shown minute is the UTC instant shifted by the zone's offset (truncated to the minute).
      expect(Math.abs(shown - (utc + hourShift * 3_600_000))).toBeLessThan(60_000);
    }
  });
});

describe('sessions rm and prune', () => {
  it('rm deletes whole sessions: events, raw payloads and the row', async () => {
    const ws = await tempDir();
    const { db, ids } = await logWith([ws, ws, ws]);
    const log = EventLog.open(db);
    log.putRaw(ids[0]!, 'read_file', '{"big":true}');
    log.close();
    const r = await sessions(['rm', ids[0]!, ids[2]!, '--session-db', db]);
    expect(r.out).toBe(`deleted 2 sessions: ${ids[0]} ${ids[2]}\n`);
    const sql = new DatabaseSync(db);
    const count = (table: string, col: string) =>
      Number((sql.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${col} IN (?, ?)`).get(ids[0]!, ids[2]!) as { n: number }).n);
    expect([count('sessions', 'id'), count('events', 'session_id'), count('raw_payloads', 'session_id')]).toEqual([0, 0, 0]);
    sql.close();
    expect(JSON.parse((await sessions(['list', '--all', '--json', '--session-db', db])).out)).toEqual([
      expect.objectContaining({ id: ids[1] }),
    ]);
  });

  it.each(REFUSAL_CASES)('refuses sessions $argv: $error', async ({ argv, error }) => {
    const ws = await tempDir();
    const { db, ids } = await logWith([ws]);
    const args = argv.map((a) => (a === '<first>' ? ids[0]! : a));
    const err = await sessions([...args, '--session-db', db, '-w', ws]).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.name).toBe('UsageError');
    expect(err?.message).toMatch(error);
    expect(err!.message.length).toBeLessThan(400);
    expect(JSON.parse((await sessions(['list', '--all', '--json', '--session-db', db])).out)).toHaveLength(1);
  });

  it("prune deletes this workspace's sessions idle longer than the age; --dry-run only lists them", async () => {
    const [a, b] = [await tempDir(), await tempDir()];
    const { db, ids } = await logWith([a, a, b, a]);
    age(db, ids[0]!, 40);
    age(db, ids[1]!, 10);
    age(db, ids[2]!, 40);
    const dry = await sessions(['prune', '--older-than', '30d', '--dry-run', '--session-db', db, '-w', a]);
    expect(dry.out).toMatch(new RegExp(`^would delete 1 session of ${a} older than 30d:\\nID .*\\n${ids[0]}\\s`));
    expect(JSON.parse((await sessions(['list', '--all', '--json', '--session-db', db])).out)).toHaveLength(4);

    expect((await sessions(['prune', '--older-than', '30d', '--session-db', db, '-w', a])).out).toBe(
      `deleted 1 session of ${a} older than 30d\n`,
    );
    expect((await sessions(['prune', '--older-than', '1w', '--session-db', db, '--all'])).out).toBe(
      'deleted 2 sessions in any workspace older than 1w\n',
    );
    const left = JSON.parse((await sessions(['list', '--all', '--json', '--session-db', db])).out) as Array<{ id: string }>;
    expect(left.map((s) => s.id)).toEqual([ids[3]]);
    expect((await sessions(['prune', '--older-than', '90m', '--session-db', db, '--all'])).out).toBe(
      'no sessions in any workspace older than 90m\n',
    );
  });
});

describe('--resume latest and --continue (the built CLI)', () => {
  function run(args: string[], cwd: string) {
    const r = spawnSync(process.execPath, [bundle, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: cwd } });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  }
  const events = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it("continues this workspace's newest session, in its workspace and on its model", async () => {
    const [a, elsewhere, other] = [await tempDir(), await tempDir(), await tempDir()];
    await writeTree(a, { 'only-in-a.txt': 'from a\n' });
    const script = path.join(a, 'script.jsonl');
    await writeFile(
      script,
      [{ text: 'one' }, { text: 'two' }, { tool_calls: [{ name: 'read_file', args: { path: 'only-in-a.txt' } }] }, { text: 'three' }]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const db = path.join(await tempDir(), 's.db');
    const first = run(['run', '-w', a, '-m', `replay:${script}`, '--session-db', db, '-o', 'json', 'first'], elsewhere);
    expect(first.code, first.stderr).toBe(0);
    const id = events(first.stdout)[0]!.id;
    // An older session of another workspace is not "latest" here.
    const otherRun = run(['run', '-m', `replay:${script}`, '--session-db', db, '-o', 'json', 'other'], other);
    expect(otherRun.code, otherRun.stderr).toBe(0);

    // From the workspace, no --model: the session's own.
    const second = run(['run', '--continue', '--session-db', db, '-o', 'json', 'second'], a);
    expect(second.code, second.stderr).toBe(0);
    const e2 = events(second.stdout);
    expect(e2[0]).toMatchObject({ type: 'session', id, resumed: true, model: `replay:${script}` });
    expect(e2.find((e) => e.type === 'turn_end')).toMatchObject({ text: 'two' });

    // --resume ID from another directory runs in the session's workspace.
    const third = run(['run', '--resume', String(id), '--session-db', db, '-o', 'json', 'third'], elsewhere);
    expect(third.code, third.stderr).toBe(0);
    const e3 = events(third.stdout);
    expect(e3.find((e) => e.type === 'tool_end')).toMatchObject({ name: 'read_file', ok: true });
    expect(e3.find((e) => e.type === 'turn_end')).toMatchObject({ text: 'three' });
    const log = EventLog.open(db);
    expect(log.sessions({ workspace: a }).map((s) => [s.id, s.turns, s.status])).toEqual([[id, 3, 'done']]);
    log.close();
  });

  it('says so when the workspace has no session, and refuses --continue with --resume', async () => {
    const [a, b] = [await tempDir(), await tempDir()];
    const script = path.join(a, 'script.jsonl');
    await writeFile(script, JSON.stringify({ text: 'one' }));
    const db = path.join(await tempDir(), 's.db');
    expect(run(['run', '-m', `replay:${script}`, '--session-db', db, 'first'], a).code).toBe(0);
    const none = run(['run', '-C', '--session-db', db, 'again'], b);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no session of \S+ to continue in \S+ \(1 in other workspaces: core-agent sessions list --all/);
    const both = run(['run', '-C', '--resume', 'abc', '--session-db', db, 'again'], a);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/give --resume ID or --continue, not both/);
  });
});
