// The whole path: every call the dispatcher runs — the model's, tools call's, an mcp serve
// client's, wait_and_verify's polls — is a tool_result event in a real event log (SQLite file).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { loadSdk } from '../../src/mcp/sdk.ts';
import { catalogServer } from '../../src/mcp/serve.ts';
import { recordCalls } from '../../src/runtime/record-calls.ts';
import { EventLog } from '../../src/store/event-log.ts';
import { setup, tempDir } from '../helpers/workspace.ts';

/** A runtime whose dispatcher records to a session of an event log on disk. */
async function recorded(opts: Parameters<typeof setup>[0] = {}) {
  const rt = await setup({ tree: { 'a.txt': 'alpha\n' }, flags: { mode: 'yolo' }, ...opts });
  const db = path.join(await tempDir(), 'sessions.db');
  const log = EventLog.open(db);
  const sessionId = log.createSession({ model: 'none', workspace: rt.dir, title: 't' });
  rt.dispatcher.recordTo(recordCalls(log, sessionId, rt.session));
  /** The tool_result events as a fresh connection reads them from the file. */
  const results = () => {
    const reader = EventLog.open(db);
    try {
      return reader.events(sessionId).filter((e) => e.kind === 'tool_result');
    } finally {
      reader.close();
    }
  };
  return { rt, log, sessionId, results };
}

describe('the dispatcher records every call', () => {
  it("a model's call: its call id, source model, the turn, the args as sent and what it was shown", async () => {
    const { rt, results } = await recorded();
    rt.session.turn = 3;
    const r = await rt.dispatcher.call('read_file', '{"path": "a.txt"}', undefined, { callId: 'call-7', source: 'model' });
    expect(r.ok).toBe(true);
    const [e, ...rest] = results();
    expect(rest).toEqual([]);
    expect(e!.turn).toBe(3);
    expect(e!.data).toMatchObject({
      call_id: 'call-7',
      source: 'model',
      name: 'read_file',
      args: '{"path": "a.txt"}',
      ok: true,
      raw: null,
    });
    expect(e!.data.shown).toEqual(r.ok ? r.result : null);
    expect(e!.data).not.toHaveProperty('failure');
    expect(e!.data).not.toHaveProperty('parent_call_id');
  });

  it('a direct call (tools call) gets a call id of its own and source tools_call', async () => {
    const { rt, results } = await recorded();
    await rt.dispatcher.call('read_file', { path: 'a.txt' });
    await rt.dispatcher.call('read_file', { path: 'a.txt' });
    const ids = results().map((e) => e.data.call_id as string);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toMatch(/^tools_call-/);
    expect(results().map((e) => e.data.source)).toEqual(['tools_call', 'tools_call']);
  });

  it("wait_and_verify's polls are recorded as polls under the wait's call id, before the wait itself", async () => {
    const { rt, results } = await recorded();
    // The file appears while the wait polls: the first poll finds nothing, a later one finds it.
    setTimeout(() => void writeFile(path.join(rt.dir, 'ready.txt'), 'READY\n'), 400);
    const r = await rt.dispatcher.call(
      'wait_and_verify',
      { tool: 'read_file', args: { path: 'ready.txt' }, expect_contains: 'READY', interval_seconds: 1, timeout_seconds: 20 },
      undefined,
      { callId: 'wait-1', source: 'model' },
    );
    expect(r.ok && r.result.verified).toBe(true);
    const events = results();
    const polls = events.filter((e) => e.data.source === 'poll');
    expect(polls.length).toBeGreaterThanOrEqual(2);
    for (const p of polls) expect(p.data).toMatchObject({ parent_call_id: 'wait-1', name: 'read_file', args: { path: 'ready.txt' } });
    expect(polls[0]!.data).toMatchObject({ ok: false, failure: 'not_found' });
    expect(polls.at(-1)!.data).toMatchObject({ ok: true });
    // The wait ends last: its own record follows its polls.
    expect(events.at(-1)!.data).toMatchObject({ call_id: 'wait-1', source: 'model', name: 'wait_and_verify', ok: true });
    expect(events).toHaveLength(polls.length + 1);
  });

  it('a poll the gate refuses is recorded as denied, and the wait fails at once with that kind', async () => {
    const { rt, results } = await recorded();
    const started = performance.now();
    const r = await rt.dispatcher.call('wait_and_verify', {
      tool: 'read_file',
      args: { path: '/etc/hostname' },
      expect_contains: 'x',
      interval_seconds: 1,
      timeout_seconds: 30,
    });
    expect(r).toMatchObject({ ok: false, kind: 'denied' });
    // Bounded, with a wide margin: one poll, no waiting out the 30 s budget.
    expect(performance.now() - started).toBeLessThan(10_000);
    const [poll, wait] = results();
    expect(poll!.data).toMatchObject({ source: 'poll', ok: false, failure: 'denied' });
    expect(wait!.data).toMatchObject({ source: 'tools_call', ok: false, failure: 'denied' });
    expect(poll!.data.parent_call_id).toBe(wait!.data.call_id);
  });

  it("an mcp serve client's calls are recorded as source mcp_serve, a failure with its kind", async () => {
    const { rt, results } = await recorded();
    const sdk = await loadSdk();
    const server = catalogServer(sdk, rt.catalog, rt.dispatcher);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const ok = await client.callTool({ name: 'read_file', arguments: { path: 'a.txt' } });
      expect(ok.isError).toBeFalsy();
      const missing = await client.callTool({ name: 'read_file', arguments: { path: 'missing.txt' } });
      expect(missing.isError).toBe(true);
    } finally {
      await client.close();
      await server.close();
    }
    expect(results().map((e) => [e.data.source, e.data.ok, e.data.failure ?? null])).toEqual([
      ['mcp_serve', true, null],
      ['mcp_serve', false, 'not_found'],
    ]);
  });

  it('a store that fails loses the record, never the call; recording then stops, so the log keeps no hole', async () => {
    const rt = await setup({ tree: { 'a.txt': 'alpha\n' }, flags: { mode: 'yolo' } });
    let attempts = 0;
    let full = true;
    rt.dispatcher.recordTo({
      record: () => {
        attempts += 1;
        if (full) throw new Error('disk full');
      },
    });
    expect(await rt.dispatcher.call('read_file', { path: 'a.txt' })).toMatchObject({ ok: true });
    expect(rt.dispatcher.recording).toBe(false);
    // Space frees up: the next call is still not recorded, since the one before it is missing.
    full = false;
    expect(await rt.dispatcher.call('read_file', { path: 'a.txt' })).toMatchObject({ ok: true });
    expect(attempts).toBe(1);
    // The failure is handed over once, to the caller that must not go on unrecorded.
    expect(rt.dispatcher.takeRecordFailure()?.message).toBe('disk full');
    expect(rt.dispatcher.takeRecordFailure()).toBeUndefined();
  });

  it('a call settled without running (interrupted) goes through the same log', async () => {
    const { rt, results } = await recorded();
    rt.dispatcher.recordUnrun({ callId: 'c9', name: 'bash', args: '{}', source: 'model', error: 'interrupted', kind: 'canceled' });
    expect(results()[0]!.data).toMatchObject({ call_id: 'c9', ok: false, failure: 'canceled', shown: { error: 'interrupted' }, ms: 0 });
  });

  it('without a call log nothing is recorded and the dispatcher says so', async () => {
    const rt = await setup({ tree: { 'a.txt': 'alpha\n' } });
    expect(rt.dispatcher.recording).toBe(false);
    expect(await rt.dispatcher.call('read_file', { path: 'a.txt' })).toMatchObject({ ok: true });
  });
});
