import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rebuildSession } from '../../src/agent/resume.ts';
import { JSON_EVENT, type JsonEvent } from '../../src/cli/json-events.ts';
import { EventLog } from '../../src/store/event-log.ts';
import { GOOD_RECORD } from '../agent/compaction.cases.ts';
import { bundle } from '../helpers/cli.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';

/**
 * Compaction through the built CLI: the recipe's context: gives a replay script a
 * window, the replay model reports usage (4 characters a token), and the run
 * passes the limit after reading a big file.
 */
function cli(cwd: string, args: string[], input = '') {
  const r = spawnSync(process.execPath, [bundle, ...args], { cwd, input, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: cwd } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const events = (stdout: string): JsonEvent[] =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON_EVENT.parse(JSON.parse(l)));

const BIG = `${'y'.repeat(80)}\n`.repeat(100);
const READ_BIG = { tool_calls: [{ name: 'read_file', args: { path: 'big.txt' } }] };

async function workspace(lines: object[]): Promise<string> {
  const ws = await tempDir();
  await writeTree(ws, {
    'big.txt': BIG,
    'recipe.yaml': 'context:\n  window: 2000\n  compact_at: 0.5\n',
    's.jsonl': lines.map((l) => JSON.stringify(l)).join('\n'),
  });
  return ws;
}

const inputTokens = (log: EventLog, id: string) =>
  log
    .events(id)
    .filter((e) => e.kind === 'response')
    .map((e) => (e.data.usage as { inputTokens: number }).inputTokens);

describe('compaction in a run', () => {
  it('-o json: a compaction event (tokens before/after) on the schema; the run continues; a resume starts from the record', async () => {
    const ws = await workspace([READ_BIG, { text: GOOD_RECORD }, { text: 'All y.' }, { text: 'Still all y.' }]);
    const args = ['-c', 'recipe.yaml', '-m', 'replay:s.jsonl', '--session-db', 'db', '-o', 'json'];
    const r = cli(ws, ['run', ...args, 'what is in big.txt?']);
    expect(r.code, r.stderr).toBe(0);
    const es = events(r.stdout);
    const compaction = es.filter((e) => e.type === 'compaction');
    expect(compaction).toEqual([
      {
        type: 'compaction',
        ts: expect.any(String),
        trigger: 'auto',
        ok: true,
        tokens_before: expect.any(Number),
        tokens_after: expect.any(Number),
      },
    ]);
    const c = compaction[0]!;
    expect(c.tokens_before).toBeGreaterThanOrEqual(1000);
    expect(c.tokens_after!).toBeLessThan(c.tokens_before / 2);
    expect(es.map((e) => e.type)).toEqual(['session', 'tool_start', 'tool_end', 'compaction', 'text', 'turn_end', 'result', 'exit']);
    expect(es.find((e) => e.type === 'text')).toMatchObject({ text: 'All y.' });
    const id = (es[0] as Extract<JsonEvent, { type: 'session' }>).id;

    const again = cli(ws, ['run', ...args, '--resume', id, 'and now?']);
    expect(again.code, again.stderr).toBe(0);
    expect(events(again.stdout).find((e) => e.type === 'text')).toMatchObject({ text: 'Still all y.' });
    const log = EventLog.open(path.join(ws, 'db'));
    // The compaction's request held the whole conversation; the resumed one carries the record instead.
    const before = (log.events(id).find((e) => e.kind === 'compaction')!.data.usage as { inputTokens: number }).inputTokens;
    const resumed = inputTokens(log, id).at(-1)!;
    expect(before).toBeGreaterThanOrEqual(2000);
    expect(resumed).toBeLessThan(before / 2);
    expect(JSON.stringify(rebuildSession(log.events(id)).messages)).not.toContain('y'.repeat(80));
    log.close();
  });

  it('text output: one line for a compaction, one for a failed one (and the conversation is kept)', async () => {
    const ok = await workspace([READ_BIG, { text: GOOD_RECORD }, { text: 'All y.' }]);
    const r = cli(ok, ['run', '-c', 'recipe.yaml', '-m', 'replay:s.jsonl', '--session-db', ':memory:', 'read big.txt']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^· compacted: the conversation neared the context window: ~\d+ → ~\d+ tokens/m);
    expect(r.stdout).toContain('All y.');

    const bad = await workspace([READ_BIG, { text: 'A summary without sections.' }, { text: 'All y anyway.' }]);
    const f = cli(bad, ['run', '-c', 'recipe.yaml', '-m', 'replay:s.jsonl', '--session-db', ':memory:', 'read big.txt']);
    expect(f.code, f.stderr).toBe(0);
    expect(f.stderr).toMatch(/^! compaction failed \(the record lacks sections: Task, .*Where we are\); the conversation is unchanged$/m);
    expect(f.stdout).toContain('All y anyway.');
  });

  it('a recipe with a bad context: is refused naming the field', async () => {
    const ws = await workspace([]);
    await writeFile(path.join(ws, 'recipe.yaml'), 'context:\n  compact_at: 1.5\n');
    const r = cli(ws, ['run', '-c', 'recipe.yaml', '-m', 'replay:s.jsonl', '--session-db', ':memory:', 'hi']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/context\.compact_at/);
  });
});

describe('/compact and /clear in the REPL', () => {
  it('/stats says how full the context is: the window from the recipe, the share used, and less after /compact', async () => {
    const ws = await workspace([READ_BIG, { text: 'read it' }, { text: GOOD_RECORD }]);
    // compact_at 1: never on its own, so the record is written only when /compact asks.
    await writeFile(path.join(ws, 'recipe.yaml'), 'context:\n  window: 2000\n  compact_at: 1\n');
    const r = cli(
      ws,
      ['repl', '-c', 'recipe.yaml', '-m', 'replay:s.jsonl', '--session-db', ':memory:'],
      'read big.txt\n/stats\n/compact\n/stats\n/exit\n',
    );
    expect(r.code, r.stderr).toBe(0);
    const shares = [...r.stdout.matchAll(/context ~(\d+) of 2000 tokens \((\d+)%\)/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
    expect(shares).toHaveLength(2);
    expect(shares[0]![0]).toBeGreaterThan(2000 * 0.5);
    expect(shares[0]![1]).toBe(Math.round((shares[0]![0] / 2000) * 100));
    expect(shares[1]![0]).toBeLessThan(shares[0]![0] / 2);
  });

  it('/compact fails and says so, /compact NOTE compacts, /clear drops the history; /help lists both', async () => {
    const ws = await workspace([
      { text: 'the answer is 42' },
      { text: 'no sections here' },
      { text: GOOD_RECORD },
      { text: 'fresh start' },
    ]);
    const r = cli(
      ws,
      ['repl', '-m', 'replay:s.jsonl', '--session-db', 'db'],
      'remember 42\n/compact\n/compact keep the number\n/clear\nwhat number?\n/help\n/exit\n',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^! compaction failed \(the record lacks sections: Task, .*\); the conversation is unchanged$/m);
    expect(r.stderr).toMatch(/^· compacted as asked: ~\d+ → ~\d+ tokens/m);
    expect(r.stdout).toMatch(/conversation cleared/);
    expect(r.stdout).toMatch(/\/compact \[note\] {2}\/clear/);
    const id = /session (s-[\w-]+)/.exec(r.stdout)![1]!;
    const log = EventLog.open(path.join(ws, 'db'));
    const kinds = log.events(id).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'compaction' || k === 'clear')).toEqual(['compaction', 'compaction', 'clear']);
    const focus = log.events(id).find((e) => e.kind === 'compaction' && e.data.ok === true)!;
    expect(focus.data).toMatchObject({ trigger: 'manual', focus: 'keep the number' });
    // After /clear the request held only the new prompt, and a resume does not bring the history back.
    const last = log
      .events(id)
      .filter((e) => e.kind === 'request')
      .at(-1)!;
    expect(last.data.messages).toBe(2);
    expect(JSON.stringify(rebuildSession(log.events(id)).messages)).not.toContain('remember 42');
    log.close();
  });
});
