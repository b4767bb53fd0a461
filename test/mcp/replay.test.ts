import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.ts';
import { bundle } from '../helpers/cli.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';
import { testServer } from './helpers.ts';

/** A workspace declaring the test server in .agents/mcp.json, a replay script, and a run of the bundle. */
async function replay(turns: object[], extraArgs: string[] = [], serverEnv: Record<string, string> = {}) {
  const ws = await tempDir();
  await writeTree(ws, {
    '.agents/mcp.json': JSON.stringify({ servers: { test: { command: process.execPath, args: [testServer], env: serverEnv } } }),
  });
  const script = path.join(ws, 'script.jsonl');
  await writeFile(script, turns.map((t) => JSON.stringify(t)).join('\n'));
  const db = path.join(ws, 'sessions.db');
  const r = spawnSync(
    process.execPath,
    [bundle, 'run', '-m', `replay:${script}`, '-o', 'json', '--session-db', db, '--trust-workspace', ...extraArgs, 'go'],
    {
      cwd: ws,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: ws },
      timeout: 60_000,
    },
  );
  const log = EventLog.open(db);
  const id = log.sessions()[0]!.id;
  const results = log
    .events(id)
    .filter((e) => e.kind === 'tool_result')
    .map((e) => e.data as { name: string; ok: boolean; shown: Record<string, unknown>; raw_ref?: string });
  log.close();
  return { ws, code: r.status, stderr: r.stderr, results };
}

describe('MCP in a replayed session (the bundle, the test server as a process)', () => {
  it('a 1 MB MCP response reaches the model as a digest of at most 8 KB; retrieve_raw returns the full payload', async () => {
    const { code, results, stderr } = await replay([
      { tool_calls: [{ name: 'test_big', args: { bytes: 1_000_000 } }] },
      { tool_calls: [{ name: 'retrieve_raw', args: { call_id: 'raw_1' } }] },
      { text: 'done' },
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const [big, raw] = results;
    expect(big).toMatchObject({ name: 'test_big', ok: true, raw_ref: 'raw_1' });
    expect(Buffer.byteLength(JSON.stringify(big!.shown))).toBeLessThanOrEqual(8000);
    expect(big!.shown).toMatchObject({ digested: true, call_id: 'raw_1' });
    const payload = (raw!.shown.raw as { text: string }).text;
    expect(Buffer.byteLength(JSON.stringify(raw!.shown.raw))).toBe(big!.shown.raw_bytes);
    const items = (JSON.parse(payload) as { items: Array<{ metadata: { name: string } }> }).items;
    expect(items.length).toBeGreaterThan(500);
    expect(items.at(-1)!.metadata.name).toBe(`web-${items.length - 1}`);
  });

  it('read-only MCP calls from one response run concurrently (the server sees all three at once)', async () => {
    const { code, results } = await replay([
      {
        tool_calls: [
          { name: 'test_overlap', args: { ms: 400 } },
          { name: 'test_overlap', args: { ms: 400 } },
          { name: 'test_overlap', args: { ms: 400 } },
        ],
      },
      { text: 'done' },
    ]);
    expect(code).toBe(0);
    // Each call saw all three in flight on the server.
    expect(results.map((r) => r.shown)).toEqual([{ text: '3' }, { text: '3' }, { text: '3' }]);
  });

  it('a server that dies costs one model-visible error; the next call works', async () => {
    const ws = await tempDir();
    const pidFile = path.join(ws, 'server.pid');
    const { code, results } = await replay(
      [
        { tool_calls: [{ name: 'test_echo', args: { text: 'one' } }] },
        { tool_calls: [{ name: 'test_crash', args: {} }] },
        { tool_calls: [{ name: 'test_echo', args: { text: 'two' } }] },
        // Killed from outside, between calls: the read-only call that finds it gone is sent again once it is back.
        { tool_calls: [{ name: 'bash', args: { command: `kill -9 "$(cat ${pidFile})"` } }] },
        { tool_calls: [{ name: 'test_echo', args: { text: 'three' } }] },
        { text: 'done' },
      ],
      ['--yolo'],
      { PID_FILE: pidFile },
    );
    expect(code).toBe(0);
    expect(results.map((r) => [r.name, r.ok])).toEqual([
      ['test_echo', true],
      ['test_crash', false],
      ['test_echo', true],
      ['bash', true],
      ['test_echo', true],
    ]);
    expect(results[1]!.shown.error).toMatch(/^test_crash: server "test" went away during the call/);
    expect(results[4]!.shown).toEqual({ text: 'three' });
  });
});
