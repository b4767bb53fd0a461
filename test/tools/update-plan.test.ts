import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvent } from '../../src/agent/agent.ts';
import { ReplayModel, type ReplayStep } from '../../src/model/replay.ts';
import { recordCalls } from '../../src/runtime/record-calls.ts';
import { EventLog } from '../../src/store/event-log.ts';
import { SessionState } from '../../src/tools/framework/session.ts';
import { setupIn, tempDir } from '../helpers/workspace.ts';

// Cagent's tool: its catalog.
const setup = setupIn('cagent');
import { UPDATE_PLAN_CASES } from './update-plan.cases.ts';

const bundle = fileURLToPath(new URL('../../dist/core-agent.mjs', import.meta.url));

async function agentWith(steps: ReplayStep[]) {
  const state = new SessionState();
  // todo beside update_plan on purpose: the plan is the turn's, the todo list the session's.
  const rt = await setup({ flags: { mode: 'ask' }, session: state, recipe: 'tools: { enable: [todo], allow_overlap: true }\n' });
  const log = EventLog.open(':memory:');
  const sessionId = log.createSession({ model: 'replay:test', workspace: rt.dir, title: 't' });
  state.sessionId = sessionId;
  rt.dispatcher.recordTo(recordCalls(log, sessionId, state));
  const events: AgentEvent[] = [];
  const agent = new Agent({
    model: new ReplayModel(steps, 'test'),
    dispatcher: rt.dispatcher,
    catalog: rt.catalog,
    instructions: 't',
    log,
    sessionId,
    session: state,
    onEvent: (e) => events.push(e),
  });
  return { state, agent, events };
}

describe('update_plan: the arguments', () => {
  it.each(UPDATE_PLAN_CASES)('%s', async (_what, args, refused) => {
    const rt = await setup();
    if (refused === null) {
      const steps = (args as { plan: unknown[] }).plan.length;
      expect(await rt.ok('update_plan', args)).toMatchObject({ updated: true, steps });
      expect(rt.session.plan.steps).toEqual((args as { plan: unknown[] }).plan);
    } else {
      expect(await rt.refused('update_plan', args)).toMatch(refused);
      // A refused call leaves the previous checklist as it was.
      expect(rt.session.plan.steps).toEqual([]);
    }
  });
});

describe('update_plan', () => {
  it('replaces the whole list per call, and a refused call keeps the last good one', async () => {
    const rt = await setup();
    await rt.ok('update_plan', {
      plan: [
        { step: 'a', status: 'in_progress' },
        { step: 'b', status: 'pending' },
      ],
    });
    await rt.ok('update_plan', {
      explanation: 'b is not needed',
      plan: [
        { step: 'a', status: 'completed' },
        { step: 'c', status: 'in_progress' },
      ],
    });
    expect(rt.session.plan).toMatchObject({
      explanation: 'b is not needed',
      steps: [
        { step: 'a', status: 'completed' },
        { step: 'c', status: 'in_progress' },
      ],
    });
    await rt.refused('update_plan', {
      plan: [
        { step: 'x', status: 'in_progress' },
        { step: 'y', status: 'in_progress' },
      ],
    });
    expect(rt.session.plan.steps.map((s) => s.step)).toEqual(['a', 'c']);
  });

  it("is Cagent's plan tracker, instead of todo, in every permission mode but plan, and never asks", async () => {
    for (const mode of ['ask', 'accept-edits', 'yolo'] as const) {
      const rt = await setup({ flags: { mode } });
      expect(rt.catalog.has('update_plan'), mode).toBe(true);
      // One tool per job: todo is core-agent's tracker.
      expect(rt.catalog.has('todo'), mode).toBe(false);
    }
    const plan = await setup({ flags: { mode: 'plan' } });
    expect(plan.catalog.has('update_plan')).toBe(false);
    // ask mode, no prompter: a lifecycle tool still runs (a tool that asked would be refused headless).
    const ask = await setup({ flags: { mode: 'ask' } });
    expect(await ask.ok('update_plan', { plan: [{ step: 'a', status: 'pending' }] })).toMatchObject({ updated: true });
  });

  it('reports each change as a plan event and is cleared when the turn ends', async () => {
    const a = await agentWith([
      {
        tool_calls: [
          {
            name: 'update_plan',
            args: {
              plan: [
                { step: 'look', status: 'in_progress' },
                { step: 'fix', status: 'pending' },
              ],
            },
          },
        ],
      },
      {
        tool_calls: [
          {
            name: 'update_plan',
            args: {
              plan: [
                { step: 'look', status: 'in_progress' },
                { step: 'fix', status: 'in_progress' },
              ],
            },
          },
        ],
      },
      {
        tool_calls: [
          {
            name: 'update_plan',
            args: {
              explanation: 'found it',
              plan: [
                { step: 'look', status: 'completed' },
                { step: 'fix', status: 'in_progress' },
              ],
            },
          },
        ],
      },
      { tool_calls: [{ name: 'todo', args: { action: 'add', text: 'later' } }] },
      { text: 'done' },
    ]);
    const result = await a.agent.runTurn('go');
    expect(result.status).toBe('done');
    const plans = a.events.filter((e) => e.type === 'plan');
    // The refused call (two in progress) and the todo call report no plan change.
    expect(plans).toEqual([
      {
        type: 'plan',
        plan: [
          { step: 'look', status: 'in_progress' },
          { step: 'fix', status: 'pending' },
        ],
      },
      {
        type: 'plan',
        explanation: 'found it',
        plan: [
          { step: 'look', status: 'completed' },
          { step: 'fix', status: 'in_progress' },
        ],
      },
    ]);
    const refused = a.events.find((e) => e.type === 'tool_end' && !e.ok);
    expect(refused).toMatchObject({ name: 'update_plan', error: expect.stringMatching(/at most one may be/) });
    expect(a.state.plan.steps).toEqual([]);
    expect(a.state.plan.explanation).toBeUndefined();
    // The todo list is session state that outlives the turn.
    expect(a.state.todos).toHaveLength(1);
  });

  it('run -o json prints the plan event, through the built CLI with a replay model', async () => {
    const ws = await tempDir();
    const plan = [
      { step: 'read the config', status: 'completed' },
      { step: 'fix the port', status: 'in_progress' },
      { step: 'run the tests', status: 'pending' },
    ];
    await writeFile(
      path.join(ws, 's.jsonl'),
      [{ tool_calls: [{ name: 'update_plan', args: { explanation: 'config read', plan } }] }, { text: 'planned' }]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const r = spawnSync(
      process.execPath,
      [bundle, 'run', '--dialect', 'cagent', '-m', 'replay:s.jsonl', '-o', 'json', '--session-db', ':memory:', 'go'],
      {
        cwd: ws,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: ws },
        timeout: 60_000,
      },
    );
    expect(r.status, r.stderr).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const types = events.map((e) => e.type);
    expect(events.find((e) => e.type === 'plan')).toEqual({ type: 'plan', ts: expect.any(String), explanation: 'config read', plan });
    // After the call that made it, before the turn's end.
    expect(types.indexOf('plan')).toBeGreaterThan(types.indexOf('tool_end'));
    expect(types.indexOf('plan')).toBeLessThan(types.indexOf('turn_end'));

    // Text output: one block on stderr, a mark per step.
    const t = spawnSync(
      process.execPath,
      [bundle, 'run', '--dialect', 'cagent', '-m', 'replay:s.jsonl', '--session-db', ':memory:', 'go'],
      {
        cwd: ws,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: ws },
        timeout: 60_000,
      },
    );
    expect(t.status, t.stderr).toBe(0);
    expect(t.stderr).toContain('· plan — config read\n  ✓ read the config\n  ▶ fix the port\n  ○ run the tests\n');
  });
});
