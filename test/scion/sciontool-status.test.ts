import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/runtime/runtime.ts';
import { closedPortUrl, fakeHub, installSciontool } from '../helpers/sciontool.ts';
import { tempDir } from '../helpers/workspace.ts';
import { STATUS_OUTCOME_CASES } from './status-outcomes.cases.ts';
import { STATUS_REFUSAL_CASES } from './status-types.cases.ts';

const runtimes: Runtime[] = [];
afterEach(async () => {
  for (const rt of runtimes.splice(0)) await rt.session.close();
});

/** A runtime whose commands see `extra` on top of this process's environment (PATH first). */
async function runtime(
  extra: Record<string, string>,
  mode: 'yolo' | 'ask' = 'yolo',
  onlyPath = false,
): Promise<Runtime & { home: string }> {
  const home = await tempDir();
  const PATH = onlyPath ? extra.PATH! : [extra.PATH, process.env.PATH].filter(Boolean).join(':');
  const rt = await createRuntime({
    flags: { workspace: home, mode },
    env: {},
    commandEnv: { ...process.env, HOME: home, ...extra, PATH },
  });
  runtimes.push(rt);
  return { ...rt, home };
}

describe('sciontool_status', () => {
  it('is absent without sciontool on the PATH, with the reason', async () => {
    // The PATH commands run with is an empty directory: no sciontool whatever this machine has.
    const rt = await runtime({ PATH: await tempDir() }, 'yolo', true);
    expect(rt.catalog.has('sciontool_status')).toBe(false);
    const r = await rt.dispatcher.call('sciontool_status', { status_type: 'blocked', message: 'x' });
    expect(r).toMatchObject({ ok: false, kind: 'unknown_tool' });
    const tool = await installSciontool();
    expect((await runtime({ PATH: tool.bin }, 'yolo', true)).catalog.has('sciontool_status')).toBe(true);
  });

  it('runs sciontool status TYPE MESSAGE: agent-info.json gets the activity and the hub the status', async () => {
    const tool = await installSciontool();
    const hub = await fakeHub();
    try {
      const rt = await runtime({ PATH: tool.bin, SCION_RECORD: tool.record, SCION_HUB_ENDPOINT: hub.url });
      const r = await rt.dispatcher.call('sciontool_status', { status_type: 'task_completed', message: 'Fixed the greeting' });
      expect(r).toMatchObject({ ok: true, result: { status_type: 'task_completed', reported: true } });
      expect((await tool.calls()).map((c) => c.argv)).toEqual([['status', 'task_completed', 'Fixed the greeting']]);
      const info = JSON.parse(await readFile(path.join(rt.home, 'agent-info.json'), 'utf8'));
      expect(info).toMatchObject({ activity: 'completed', taskSummary: 'Fixed the greeting' });
      expect(hub.received).toEqual([expect.objectContaining({ method: 'POST', activity: 'completed', taskSummary: 'Fixed the greeting' })]);
    } finally {
      await hub.close();
    }
  });

  it('passes a message that looks like a flag after "--", as the message', async () => {
    const tool = await installSciontool();
    const rt = await runtime({ PATH: tool.bin, SCION_RECORD: tool.record });
    expect(await rt.dispatcher.call('sciontool_status', { status_type: 'ask_user', message: '--help me choose' })).toMatchObject({
      ok: true,
    });
    expect((await tool.calls())[0]!.argv).toEqual(['status', 'ask_user', '--', '--help me choose']);
    expect(JSON.parse(await readFile(path.join(rt.home, 'agent-info.json'), 'utf8'))).toMatchObject({
      activity: 'waiting_for_input',
      message: '--help me choose',
    });
  });

  it.each(STATUS_OUTCOME_CASES.map((c) => [c.name, c] as const))('outcome: %s', async (_name, c) => {
    const tool = await installSciontool();
    const hub = c.hub === 'accepts' || c.hub === 'errors' ? await fakeHub(c.hub === 'accepts' ? 200 : 500) : undefined;
    try {
      const endpoint = hub?.url ?? (c.hub === 'unreachable' ? await closedPortUrl() : undefined);
      const rt = await runtime({
        PATH: tool.bin,
        SCION_RECORD: tool.record,
        SCION_AGENT_ID: 'agent-7',
        ...(endpoint ? { SCION_HUB_ENDPOINT: endpoint } : {}),
        ...c.env,
      });
      const r = await rt.dispatcher.call('sciontool_status', { status_type: c.statusType, message: 'the message' });
      if (c.expect === 'reported') {
        expect(r).toEqual({ ok: true, result: { status_type: c.statusType, message: 'the message', reported: true } });
      } else {
        expect(r).toMatchObject({ ok: false, kind: 'tool_error' });
        expect(!r.ok && r.error).toMatch(c.expect);
        expect(!r.ok && r.error.length).toBeLessThan(3000);
      }
      const info = await readFile(path.join(rt.home, 'agent-info.json'), 'utf8').then(JSON.parse, () => null);
      expect(info?.activity ?? null).toBe(c.recorded);
      if (c.hub === 'accepts')
        expect(hub!.received).toEqual([expect.objectContaining({ method: 'POST', path: '/api/v1/agents/agent-7/status' })]);
    } finally {
      await hub?.close();
    }
  });

  it('gives up on a sciontool that hangs at its 10 s deadline', async () => {
    const tool = await installSciontool();
    const rt = await runtime({ PATH: tool.bin, SCION_RECORD: tool.record, SCIONTOOL_HANG: '1' });
    const started = Date.now();
    const r = await rt.dispatcher.call('sciontool_status', { status_type: 'blocked', message: 'x' });
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(r).toMatchObject({ ok: false, kind: 'tool_error' });
    expect(!r.ok && r.error).toMatch(/no answer within 10 s/);
  }, 30_000);

  it('is gated as a message out: ask mode without a rule refuses it headless', async () => {
    const tool = await installSciontool();
    const rt = await runtime({ PATH: tool.bin, SCION_RECORD: tool.record }, 'ask');
    const r = await rt.dispatcher.call('sciontool_status', { status_type: 'blocked', message: 'x' });
    expect(r).toMatchObject({ ok: false, kind: 'denied' });
    expect(await tool.calls()).toEqual([]);
  });

  it.each(STATUS_REFUSAL_CASES.map(([args, error]) => [JSON.stringify(args).slice(0, 80), args, error] as const))(
    'refuses %s before sciontool runs',
    async (_name, args, error) => {
      const tool = await installSciontool();
      const rt = await runtime({ PATH: tool.bin, SCION_RECORD: tool.record });
      const r = await rt.dispatcher.call('sciontool_status', args);
      expect(r).toMatchObject({ ok: false, kind: 'invalid_args' });
      expect(!r.ok && r.error).toMatch(error);
      expect(!r.ok && r.error.length).toBeLessThan(1000);
      expect(await tool.calls()).toEqual([]);
    },
  );
});
