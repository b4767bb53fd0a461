// The session log on a real full file system (a small tmpfs, test/helpers/tmpfs.ts):
// a clear error naming the file, nothing torn — after space is freed the database is
// intact and holds every event up to the failure, none after — and `run` finishes
// its turn, says so twice, and exits 1.
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventLog, type LogFailure } from '../../src/store/event-log.ts';
import { SessionDbError } from '../../src/store/session-db.ts';
import { bundle } from '../helpers/cli.ts';
import { MiB, mountTmpfs } from '../helpers/tmpfs.ts';
import { tempDir } from '../helpers/workspace.ts';

const FULL = (db: string) => `no space left on device while writing the session log at ${db}`;

/** What a fresh connection finds in the file: SQLite's own check, and the session's events. */
function reopen(db: string, sessionId: string): { check: string; seqs: number[]; messages: string[] } {
  const d = new DatabaseSync(db);
  const check = (d.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check;
  const rows = d.prepare('SELECT seq, data FROM events WHERE session_id = ? ORDER BY seq').all(sessionId) as Array<{
    seq: number;
    data: string;
  }>;
  d.close();
  return { check, seqs: rows.map((r) => r.seq), messages: rows.map((r) => (JSON.parse(r.data) as { message: string }).message) };
}

/** Append numbered 1 KB events until a write fails (bounded: the disk is far smaller than the loop). */
function appendUntilFailure(log: EventLog, id: string): { appended: number; error: unknown } {
  for (let i = 1; i <= 20_000; i++) {
    try {
      if (log.append(id, 1, 'error', { message: `event ${i} ${'x'.repeat(1000)}` }) === -1) return { appended: i - 1, error: null };
    } catch (err) {
      return { appended: i - 1, error: err };
    }
  }
  throw new Error('the disk never filled up');
}

function cli(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [bundle, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: cwd },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the session log on a full disk', () => {
  it('a write that does not fit throws "no space left on device … at PATH"; nothing is torn', async (ctx) => {
    const disk = await mountTmpfs(ctx, { bytes: 2 * MiB });
    const db = path.join(disk.dir, 'sessions.db');
    const log = EventLog.open(db);
    const id = log.createSession({ model: 'm', workspace: '/w', title: 't' });
    // Some room left: events go in until one does not fit.
    await disk.fill({ leaveBytes: 64 * 1024 });
    const { appended, error } = appendUntilFailure(log, id);
    expect(appended).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(SessionDbError);
    expect((error as SessionDbError).problem).toBe('full');
    expect((error as SessionDbError).message).toBe(FULL(db));
    log.close();
    await disk.free();
    const after = reopen(db, id);
    expect(after.check).toBe('ok');
    // Every event that was acknowledged is there, in order, and nothing else.
    expect(after.seqs).toEqual(Array.from({ length: appended }, (_, i) => i + 1));
    expect(after.messages.at(-1) ?? '').toMatch(new RegExp(`^event ${appended} `));
  });

  it('with onWriteFailure the log stops at its last good event, for good, and says so once', async (ctx) => {
    const disk = await mountTmpfs(ctx, { bytes: 2 * MiB });
    const db = path.join(disk.dir, 'sessions.db');
    const log = EventLog.open(db);
    const heard: LogFailure[] = [];
    log.onWriteFailure = (f) => heard.push({ ...f });
    const id = log.createSession({ model: 'm', workspace: '/w', title: 't' });
    for (let i = 0; i < 5; i++) log.append(id, 1, 'error', { message: `before ${i}` });
    await disk.fill();
    const { appended } = appendUntilFailure(log, id);
    expect(heard).toHaveLength(1);
    expect(heard[0]!.error.message).toBe(FULL(db));
    expect(heard[0]!.lastSeq).toBe(5 + appended);
    // Space again: still nothing recorded, so the log has no hole a resume would trip over.
    await disk.free();
    expect(log.append(id, 1, 'error', { message: 'after' })).toBe(-1);
    expect(log.failure(id)!.dropped).toBe(2);
    log.close();
    const after = reopen(db, id);
    expect(after.check).toBe('ok');
    expect(after.seqs).toEqual(Array.from({ length: 5 + appended }, (_, i) => i + 1));
    expect(after.messages).not.toContain('after');
  });

  it('run: the turn finishes and its answer is printed; the log stops, the run says so and exits 1; --resume continues', async (ctx) => {
    const disk = await mountTmpfs(ctx, { bytes: 4 * MiB });
    const outside = await tempDir();
    const ws = path.join(disk.dir, 'ws');
    const db = path.join(disk.dir, 'sessions.db');
    const script = path.join(outside, 'script.jsonl');
    // The model fills the disk with bash, then answers; the result of that call no longer fits in the log.
    await writeFile(
      script,
      [
        { tool_calls: [{ name: 'bash', args: { command: 'head -c 64M /dev/zero > fill.bin; echo filled' } }] },
        { text: 'All done: the disk is full now.' },
        { text: 'Resumed and finished.' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    spawnSync('mkdir', ['-p', ws]);
    const r = cli(['run', '-m', `replay:${script}`, '--yolo', '--session-db', db, '-w', ws, 'fill the disk'], outside);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.stdout).toContain('All done: the disk is full now.');
    const id = /session (s-[\w-]+)/.exec(r.stderr)![1]!;
    const now = new RegExp(
      `core-agent: ${FULL(db).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\. The session goes on unrecorded: its log ends at event #(\\d+), and --resume ${id} would continue from there\\.`,
    );
    expect(r.stderr).toMatch(now);
    const lastSeq = Number(now.exec(r.stderr)![1]);
    expect(r.stderr).toMatch(
      new RegExp(
        `the session log is incomplete: \\d+ event\\(s\\) after event #${lastSeq} were not recorded .*; the answer above is complete\\.`,
      ),
    );
    expect(r.code).toBe(1);

    spawnSync('rm', ['-f', path.join(ws, 'fill.bin')]);
    const check = new DatabaseSync(db);
    expect((check.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check).toBe('ok');
    const kinds = (check.prepare('SELECT kind FROM events WHERE session_id = ? ORDER BY seq').all(id) as Array<{ kind: string }>).map(
      (e) => e.kind,
    );
    check.close();
    expect(kinds).toHaveLength(lastSeq);
    expect(kinds.slice(0, 4)).toEqual(['session_start', 'user', 'request', 'response']);
    // The log is a prefix: resuming it settles the interrupted call and finishes the turn.
    const resumed = cli(['run', '-m', `replay:${script}`, '--yolo', '--session-db', db, '-w', ws, '--resume', id], outside);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).not.toMatch(/incomplete/);
  });

  it('a full disk before the session starts: exit 2, the message and the fix, no stack trace', async (ctx) => {
    const disk = await mountTmpfs(ctx, { bytes: 1 * MiB });
    const outside = await tempDir();
    await writeFile(path.join(outside, 'script.jsonl'), '{"text":"hi"}\n');
    await disk.fill();
    const db = path.join(disk.dir, 'sessions.db');
    const r = cli(['run', '-m', 'replay:script.jsonl', '--session-db', db, 'hello'], outside);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.stderr).toContain(`core-agent: ${FULL(db)}.`);
    expect(r.stderr).toMatch(/Free space on that file system, or pass --session-db with a path on another one/);
    expect(r.code).toBe(2);
  });

  it('a read-only file system: exit 2 and the cause, for a reader and a writer', async (ctx) => {
    const disk = await mountTmpfs(ctx, { bytes: 1 * MiB });
    const outside = await tempDir();
    await writeFile(path.join(outside, 'script.jsonl'), '{"text":"hi"}\n'.repeat(3));
    const db = path.join(disk.dir, 'sessions.db');
    expect(cli(['run', '-m', 'replay:script.jsonl', '--session-db', db, 'hello'], outside).code).toBe(0);
    await disk.readOnly(true);
    for (const args of [
      ['sessions', 'list'],
      ['run', '-m', 'replay:script.jsonl', 'again'],
    ]) {
      const r = cli([...args, '--session-db', db], outside);
      expect(r.stderr).not.toMatch(/^\s+at /m);
      expect(r.stderr).toMatch(/the file system is read-only|read-only/);
      expect(r.stderr).toContain(db);
      expect(r.code, r.stderr).toBe(2);
    }
    await disk.readOnly(false);
  });
});
