// sessions show over a session the dispatcher recorded: each call says who made it
// (tools call, mcp serve, a poll under its parent) and a failure says its kind.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionsCommand } from '../../src/cli/sessions-command.ts';
import type { Io } from '../../src/cli/usage.ts';
import { recordCalls } from '../../src/runtime/record-calls.ts';
import { EventLog } from '../../src/store/event-log.ts';
import { setup, tempDir } from '../helpers/workspace.ts';

async function show(db: string, id: string): Promise<string[]> {
  let out = '';
  const io: Io = { out: (t) => (out += t), err: () => {}, readStdin: () => Promise.resolve(''), isTty: false, env: {} };
  expect(await sessionsCommand(['show', id, '--session-db', db], io)).toBe(0);
  return out.trimEnd().split('\n');
}

describe('sessions show', () => {
  it('tags each call with its source and kind, and indents polls under the call that made them', async () => {
    const rt = await setup({ tree: { 'a.txt': 'alpha\n' }, flags: { mode: 'yolo' } });
    const db = path.join(await tempDir(), 'sessions.db');
    const log = EventLog.open(db);
    const id = log.createSession({ model: 'none', workspace: rt.dir, title: 't' });
    rt.dispatcher.recordTo(recordCalls(log, id, rt.session));
    rt.session.turn = 1;
    const d = rt.dispatcher;
    await d.call('read_file', '{"path": "a.txt"}', undefined, { callId: 'm1', source: 'model' });
    await d.call('wait_and_verify', { tool: 'read_file', args: { path: 'a.txt' }, expect_contains: 'alpha' }, undefined, {
      callId: 'w1',
      source: 'model',
    });
    await d.call('read_file', { path: 'missing.txt' });
    await d.call('read_file', { path: '/etc/hostname' }, undefined, { source: 'mcp_serve' });
    await d.call('read_file', { path: 5 }, undefined, { source: 'mcp_serve' });
    log.close();

    const calls = (await show(db, id)).filter((l) => l.includes('tool_result'));
    expect(calls).toHaveLength(6);
    expect(calls[0]).toMatch(/^#\d+ t1 \S+ tool_result: read_file ok \(\d+ ms\) \{/);
    expect(calls[1]).toMatch(/^ {2}#\d+ t1 \S+ tool_result \(poll of w1\): read_file ok \(\d+ ms\) /);
    expect(calls[2]).toMatch(/^#\d+ t1 \S+ tool_result: wait_and_verify ok \(\d+ ms\) \[call w1, 1 poll\] /);
    expect(calls[3]).toMatch(
      /^#\d+ t1 \S+ tool_result \(tools call\): read_file error \[not_found\] \(\d+ ms\) \{"error":"read_file: file not found/,
    );
    expect(calls[4]).toMatch(/^#\d+ t1 \S+ tool_result \(mcp serve\): read_file error \[denied\] /);
    expect(calls[5]).toMatch(/^#\d+ t1 \S+ tool_result \(mcp serve\): read_file error \[invalid_args\] /);
  });

  it('a log from before calls carried a source shows them as the model’s, as it always did', async () => {
    const db = path.join(await tempDir(), 'sessions.db');
    const log = EventLog.open(db);
    const id = log.createSession({ model: 'none', workspace: '/w', title: 't' });
    log.append(id, 1, 'tool_result', {
      call_id: 'c1',
      name: 'bash',
      args: '{}',
      ok: false,
      shown: { error: 'bash: boom' },
      raw: null,
      ms: 4,
    });
    log.close();
    const calls = (await show(db, id)).filter((l) => l.includes('tool_result'));
    expect(calls).toEqual([expect.stringMatching(/^#\d+ t1 \S+ tool_result: bash error \(4 ms\) \{"error":"bash: boom"\}$/)]);
  });

  it('prints the tree of agents a session spawned, each under its own parent, and a child names its parent', async () => {
    const db = path.join(await tempDir(), 'sessions.db');
    const log = EventLog.open(db);
    const id = log.createSession({ model: 'none', workspace: '/w', title: 't' });
    // lead-1 sorts between lead and lead's own child (- before :): the tree must not follow the sort.
    const child = (parent: string, agent: string, profile: string, end?: Record<string, unknown>) => {
      const sid = log.createSession({ id: `${parent}:sub:${agent}`, model: 'none', workspace: '/w', title: agent });
      log.append(sid, 0, 'session_start', { model: 'none', workspace: '/w', instructions: '', tools: [], parent, agent, profile });
      if (end) log.append(sid, 1, 'agent_end', { agent, profile, ...end });
      return sid;
    };
    const lead = child(id, 'lead', 'general', { status: 'done', stop_reason: 'natural', cost_usd: 0.0123 });
    child(lead, 'explore-1', 'explore', { status: 'stopped', stop_reason: 'stopped', cost_usd: 0 });
    child(id, 'lead-1', 'general');
    log.close();
    const lines = await show(db, id);
    expect(lines.slice(1, 5)).toEqual([
      'agents:',
      `  lead (general) done, natural, $0.0123  ${id}:sub:lead`,
      `    explore-1 (explore) stopped, stopped, $0.0000  ${id}:sub:lead:sub:explore-1`,
      `  lead-1 (general) no end recorded  ${id}:sub:lead-1`,
    ]);
    const ofLead = await show(db, lead);
    expect(ofLead[0]).toMatch(new RegExp(`  parent ${id}$`));
    expect(ofLead.slice(1, 3)).toEqual(['agents:', `  explore-1 (explore) stopped, stopped, $0.0000  ${lead}:sub:explore-1`]);
    // A session that spawned nothing has no agents: section.
    expect((await show(db, `${lead}:sub:explore-1`)).some((l) => l === 'agents:')).toBe(false);
  });
});
