import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvent } from '../../src/agent/agent.ts';
import { runAutonomous, ScheduleRequests } from '../../src/agent/autonomous.ts';
import { PendingCheckpoint } from '../../src/agent/checkpoint.ts';
import { rebuildSession } from '../../src/agent/resume.ts';
import { Watchdog, type WatchdogMode } from '../../src/agent/watchdog.ts';
import { ReplayModel, type ReplayStep } from '../../src/model/replay.ts';
import { UnattendedAsker } from '../../src/runtime/askers.ts';
import { recordCalls } from '../../src/runtime/record-calls.ts';
import { EventLog } from '../../src/store/event-log.ts';
import type { Catalog } from '../../src/tools/framework/catalog.ts';
import { planGated } from '../../src/tools/planning/record-plan.ts';
import { SessionState } from '../../src/tools/framework/session.ts';
import { setup } from '../helpers/workspace.ts';

interface Options {
  recipe?: string;
  tree?: Record<string, string>;
  mode?: 'ask' | 'yolo' | 'accept-edits' | 'plan';
  watchdog?: WatchdogMode;
  checkpoints?: boolean;
  schedule?: ScheduleRequests;
  ask?: boolean;
}

async function session(steps: ReplayStep[], opts: Options = {}) {
  const state = new SessionState();
  const checkpoints = opts.checkpoints ? new PendingCheckpoint() : undefined;
  const services = { checkpointer: checkpoints, scheduler: opts.schedule, asker: opts.ask ? new UnattendedAsker() : undefined };
  const rt = await setup({
    tree: opts.tree ?? {},
    recipe: opts.recipe,
    flags: { mode: opts.mode ?? 'accept-edits' },
    session: state,
    services,
  });
  const log = EventLog.open(':memory:');
  const sessionId = log.createSession({ model: 'replay:test', workspace: rt.dir, title: 't' });
  state.sessionId = sessionId;
  rt.dispatcher.recordTo(recordCalls(log, sessionId, state));
  const events: AgentEvent[] = [];
  const watchdog = new Watchdog(opts.watchdog ?? 'enforce');
  const agent = new Agent({
    model: new ReplayModel(steps, 'test'),
    dispatcher: rt.dispatcher,
    catalog: rt.catalog,
    instructions: 't',
    log,
    sessionId,
    session: state,
    checkpoints,
    watchdog,
    onEvent: (e) => events.push(e),
  });
  const results = () => log.events(sessionId).filter((e) => e.kind === 'tool_result');
  return { rt, state, log, sessionId, agent, events, watchdog, results };
}

/** The tools plan-first holds back in a catalog, in catalog order. */
function gatedIn(catalog: Catalog): string[] {
  return catalog
    .list()
    .filter((t) => planGated(t.def))
    .map((t) => t.name);
}

describe('todo', () => {
  it('adds, updates, lists and clears, returning the whole list each time', async () => {
    const rt = await setup();
    expect(await rt.ok('todo', { action: 'add', text: 'read the logs' })).toEqual({
      items: [{ id: 1, status: 'pending', text: 'read the logs' }],
    });
    await rt.ok('todo', { action: 'add', text: 'fix it' });
    expect(await rt.ok('todo', { action: 'set_status', id: 1, status: 'completed' })).toEqual({
      items: [
        { id: 1, status: 'completed', text: 'read the logs' },
        { id: 2, status: 'pending', text: 'fix it' },
      ],
    });
    expect((await rt.ok('todo', {})).items).toHaveLength(2);
    expect(await rt.ok('todo', { action: 'clear' })).toEqual({ items: [] });
  });

  it('refuses incomplete or wrong requests', async () => {
    const rt = await setup();
    expect(await rt.refused('todo', { action: 'add' })).toMatch(/text is required/);
    expect(await rt.refused('todo', { action: 'set_status', id: 9, status: 'completed' })).toMatch(/no step 9/);
    expect(await rt.refused('todo', { action: 'set_status', id: 1, status: 'finished' })).toMatch(/status/);
    expect(await rt.refused('todo', { action: 'delete' })).toMatch(/action/);
  });

  it('needs no approval even in ask and plan mode', async () => {
    for (const mode of ['ask', 'plan'] as const) {
      const rt = await setup({ flags: { mode } });
      await rt.ok('todo', { action: 'add', text: 'x' });
    }
  });
});

describe('record_plan and plan_mode', () => {
  const required = 'permissions:\n  plan_mode: required\n';

  it('required: state-changing tools are refused — even in yolo — until a plan is recorded', async () => {
    const s = await session(
      [
        { tool_calls: [{ name: 'write_file', args: { path: 'a.txt', content: 'x' } }] },
        { tool_calls: [{ name: 'read_file', args: { path: 'seed.txt' } }] },
        { tool_calls: [{ name: 'record_plan', args: { plan: '1. write a.txt' } }] },
        { tool_calls: [{ name: 'write_file', args: { path: 'a.txt', content: 'x' } }] },
        { text: 'done' },
      ],
      { recipe: required, mode: 'yolo', tree: { 'seed.txt': 'seed' } },
    );
    await s.agent.runTurn('go');
    const [blocked, read, plan, write] = s.results();
    expect(blocked!.data.shown).toEqual({
      error: expect.stringMatching(/^write_file: permission denied: plan-first mode requires record_plan/),
    });
    expect(read!.data.ok).toBe(true);
    expect(plan!.data.shown).toMatchObject({
      outcome: 'recorded',
      sequence: 1,
      // Every tool plan-first held back in this catalog, in catalog order.
      message: expect.stringContaining(`Now unblocked for this session: ${gatedIn(s.rt.catalog).join(', ')}.`),
    });
    expect(write!.data.ok).toBe(true);
    const file = await readFile(path.join(s.rt.dir, '.agents/plans/plan-1.md'), 'utf8');
    expect(file).toBe(`---\nplan: 1\nsession: "${s.sessionId}"\n---\n\n1. write a.txt\n`);
  });

  it('a revision in the same turn updates in place; an identical plan writes nothing and says no_op', async () => {
    const s = await session(
      [
        { tool_calls: [{ name: 'record_plan', args: { plan: 'v1' } }] },
        { tool_calls: [{ name: 'record_plan', args: { plan: 'v2' } }] },
        { tool_calls: [{ name: 'record_plan', args: { plan: 'v2' } }] },
        { text: 'ok' },
        { tool_calls: [{ name: 'record_plan', args: { plan: 'v3' } }] },
        { text: 'ok' },
      ],
      { recipe: required, watchdog: 'off' },
    );
    await s.agent.runTurn('one');
    const shown = s.results().map((r) => r.data.shown as Record<string, unknown>);
    expect(shown.map((r) => [r.outcome, r.sequence, r.no_op])).toEqual([
      ['recorded', 1, undefined],
      ['updated', 1, undefined],
      ['unchanged', 1, true],
    ]);
    expect(shown[1]!.message).toMatch(/already satisfied/);
    await s.agent.runTurn('two');
    expect((s.results()[3]!.data.shown as Record<string, unknown>).outcome).toBe('recorded');
    expect(await readdir(path.join(s.rt.dir, '.agents/plans'))).toEqual(['plan-1.md', 'plan-2.md']);
  });

  it('revoking archives the plan, closes the gate, and never reuses the sequence', async () => {
    const s = await session([{ tool_calls: [{ name: 'record_plan', args: { plan: 'p' } }] }, { text: 'ok' }], { recipe: required });
    await s.agent.runTurn('go');
    const plans = s.rt.services.plans!;
    expect(plans.blocks(s.sessionId)).toBe(false);
    expect(await plans.revoke({ session: s.sessionId })).toMatch(/Plan revoked\. Archived to .*plan-1-revoked\.md/);
    expect(plans.blocks(s.sessionId)).toBe(true);
    const again = await plans.record('p2', { session: s.sessionId, turn: 2 });
    expect(again.seq).toBe(2);
  });

  it('advisory: nothing is blocked and the description and result say so', async () => {
    const s = await session([{ tool_calls: [{ name: 'record_plan', args: { plan: 'p' } }] }, { text: 'ok' }], {
      recipe: 'permissions:\n  plan_mode: advisory\n',
    });
    expect(s.rt.catalog.get('record_plan')!.description).toMatch(/Plan-first gating is OFF/);
    await s.agent.runTurn('go');
    expect((s.results()[0]!.data.shown as Record<string, string>).message).toMatch(/plan_mode is advisory: no tool call was ever blocked/);
  });

  it('the required description names only the gated tools this build registered', async () => {
    const rt = await setup({ recipe: `${required}tools:\n  disable: [delete_file]\n` });
    const d = rt.catalog.get('record_plan')!.description;
    const gated = gatedIn(rt.catalog);
    expect(gated).toEqual(expect.arrayContaining(['bash', 'edit_file', 'write_file']));
    expect(d).toContain(`call this BEFORE any ${gated.map((n) => `\`${n}\``).join(' / ')} call`);
    expect(d).not.toMatch(/delete_file/);
  });

  it('is not registered without plan_mode', async () => {
    expect((await setup()).catalog.has('record_plan')).toBe(false);
    expect((await setup({ recipe: 'permissions:\n  plan_mode: off\n' })).catalog.has('record_plan')).toBe(false);
  });

  it('three identical record_plan calls trip the no-op streak and the watchdog cuts the turn', async () => {
    const s = await session(
      [
        { tool_calls: [{ name: 'record_plan', args: { plan: 'same' } }] },
        { tool_calls: [{ name: 'record_plan', args: { plan: 'same' } }] },
        { tool_calls: [{ name: 'record_plan', args: { plan: 'same' } }] },
        { tool_calls: [{ name: 'record_plan', args: { plan: 'same' } }] },
        { text: 'never reached' },
      ],
      { recipe: required },
    );
    const r = await s.agent.runTurn('plan');
    // Calls 2, 3 and 4 are unchanged: the third no_op in a row cuts the turn.
    expect(r.status).toBe('cut');
    expect(r.text).toMatch(/no-op-streak/);
    expect(s.events).toContainEqual(
      expect.objectContaining({ type: 'watchdog', action: 'cut', alert: expect.objectContaining({ signal: 'no-op-streak' }) }),
    );
  });
});

describe('mark_task_done and checkpoints', () => {
  it('acknowledges once per turn, reports a repeat as no_op, and checkpoints when the turn ends', async () => {
    const s = await session(
      [
        { tool_calls: [{ name: 'write_file', args: { path: 'out.txt', content: 'x' } }] },
        { tool_calls: [{ name: 'mark_task_done', args: { detail: 'first draft' } }] },
        { tool_calls: [{ name: 'mark_task_done', args: { detail: 'out.txt written; nothing left' } }] },
        { text: 'Wrote out.txt.' },
        { text: 'Next task answered.' },
      ],
      { checkpoints: true },
    );
    await s.agent.runTurn('write out.txt');
    const [, first, repeat] = s.results().map((r) => r.data.shown as Record<string, unknown>);
    expect(first).toEqual({ status: 'acknowledged' });
    expect(repeat).toMatchObject({ no_op: true, status: expect.stringMatching(/^already recorded for this turn/) });
    const checkpoint = s.log.events(s.sessionId).find((e) => e.kind === 'checkpoint')!;
    expect(checkpoint.data.detail).toBe('out.txt written; nothing left');
    const record = String(checkpoint.data.record);
    for (const section of [
      '# Task',
      '# Files & changes',
      '# Technical context',
      '# Strategy & approach',
      '# Verification & next steps',
      '# Where we are',
    ]) {
      expect(record).toContain(section);
    }
    expect(record).toContain('- out.txt (write_file)');
    expect(record).toContain('Wrote out.txt.');

    // The next turn's request starts from the record, not the whole conversation.
    await s.agent.runTurn('next task');
    const requests = s.log.events(s.sessionId).filter((e) => e.kind === 'request');
    expect(requests.at(-1)!.data.messages).toBe(3); // system + record + the new prompt
    expect(rebuildSession(s.log.events(s.sessionId)).messages[0]).toMatchObject({ role: 'user' });
  });

  it('--checkpoint=operator (no checkpointer) withholds the tool', async () => {
    expect((await session([], { checkpoints: false })).rt.catalog.has('mark_task_done')).toBe(false);
    expect((await session([], { checkpoints: true })).rt.catalog.has('mark_task_done')).toBe(true);
  });
});

describe('ask_user', () => {
  it('headless, answers with a clean refusal instead of blocking', async () => {
    const rt = await setup({ services: { asker: new UnattendedAsker() } });
    expect(await rt.ok('ask_user', { question: 'Delete the backup?' })).toEqual({
      answer: null,
      unavailable: 'no user available: running unattended; proceed with reasonable defaults and explain in your final response',
    });
  });

  it('is registered only when asking is on', async () => {
    expect((await setup()).catalog.has('ask_user')).toBe(false);
  });
});

describe('schedule_next_turn and autonomous runs', () => {
  it('wakes the agent for another turn with the prompt it asked for, and ends without a request', async () => {
    const schedule = new ScheduleRequests(60_000);
    const s = await session(
      [
        { tool_calls: [{ name: 'schedule_next_turn', args: { wake_in_sec: 0, next_prompt: 'check the rollout again' } }] },
        { text: 'waiting' },
        { text: 'it converged' },
      ],
      { schedule },
    );
    const r = await runAutonomous(s.agent, 'watch the rollout', schedule, { maxTurns: 5 });
    expect(r.text).toBe('it converged');
    const prompts = s.log
      .events(s.sessionId)
      .filter((e) => e.kind === 'user')
      .map((e) => e.data.text);
    expect(prompts).toEqual(['watch the rollout', 'check the rollout again']);
    expect((s.results()[0]!.data.shown as Record<string, string>).ack).toMatch(/^deferred until \d{4}-/);
  });

  it('refuses a wait beyond the operator limit and bad arguments', async () => {
    const rt = await setup({ services: { scheduler: new ScheduleRequests(10_000) } });
    expect(await rt.ok('schedule_next_turn', { wake_in_sec: 3600 })).toEqual({
      ack: "rejected: the wait exceeds the operator's limit of 10 s; use a shorter interval",
    });
    expect(await rt.refused('schedule_next_turn', { wake_in_sec: 1, wake_at: '2026-12-01T00:00:00Z' })).toMatch(/exactly one/);
    expect(await rt.refused('schedule_next_turn', { wake_at: 'tomorrow' })).toMatch(/not an RFC 3339 time/);
  });

  it('is registered only in autonomous runs', async () => {
    expect((await setup()).catalog.has('schedule_next_turn')).toBe(false);
  });
});
