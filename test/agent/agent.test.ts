import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { Agent, type AgentEvent } from '../../src/agent/agent.ts';
import { rebuildSession } from '../../src/agent/resume.ts';
import { ReplayModel, type ReplayStep } from '../../src/model/replay.ts';
import type { Price } from '../../src/model/pricing.ts';
import { Gate } from '../../src/permissions/gate.ts';
import { PathScope } from '../../src/permissions/path-scope.ts';
import { recordCalls } from '../../src/runtime/record-calls.ts';
import { EventLog } from '../../src/store/event-log.ts';
import { Catalog } from '../../src/tools/framework/catalog.ts';
import { Dispatcher } from '../../src/tools/framework/dispatch.ts';
import { defineTool, type AnyTool } from '../../src/tools/framework/tool.ts';
import { setup, tempDir } from '../helpers/workspace.ts';

async function agentOver(
  steps: ReplayStep[],
  opts: { tree?: Record<string, string>; maxSteps?: number; price?: Price | null; maxSessionCostUsd?: number } = {},
) {
  const rt = await setup({ tree: opts.tree ?? {}, flags: { mode: 'accept-edits' } });
  const log = EventLog.open(':memory:');
  const sessionId = log.createSession({ model: 'replay:test', workspace: rt.dir, title: 't' });
  rt.dispatcher.recordTo(recordCalls(log, sessionId, rt.dispatcher.session));
  const events: AgentEvent[] = [];
  const agent = new Agent({
    model: new ReplayModel(steps, 'test'),
    dispatcher: rt.dispatcher,
    catalog: rt.catalog,
    instructions: 'test',
    log,
    sessionId,
    maxSteps: opts.maxSteps,
    onEvent: (e) => events.push(e),
    ...(opts.price !== undefined ? { price: opts.price } : {}),
    maxSessionCostUsd: opts.maxSessionCostUsd,
  });
  return { rt, log, sessionId, agent, events };
}

describe('the agent loop', () => {
  it('edits a file through real tools, reads it back and finishes', async () => {
    const { rt, agent, log, sessionId } = await agentOver(
      [
        { tool_calls: [{ name: 'read_file', args: { path: 'app.txt' } }] },
        { tool_calls: [{ name: 'edit_file', args: { path: 'app.txt', old_string: 'v1', new_string: 'v2' } }] },
        { tool_calls: [{ name: 'read_file', args: { path: 'app.txt' } }] },
        { text: 'Bumped to v2.' },
      ],
      { tree: { 'app.txt': 'version v1\n' } },
    );
    const result = await agent.runTurn('bump the version');
    expect(result).toMatchObject({ status: 'done', text: 'Bumped to v2.', steps: 4 });
    expect(await readFile(path.join(rt.dir, 'app.txt'), 'utf8')).toBe('version v2\n');
    const kinds = log.events(sessionId).map((e) => e.kind);
    expect(kinds).toEqual([
      'user',
      'request',
      'response',
      'tool_result',
      'request',
      'response',
      'tool_result',
      'request',
      'response',
      'tool_result',
      'request',
      'response',
      'turn_end',
    ]);
    const lastRead = log.events(sessionId).filter((e) => e.kind === 'tool_result')[2]!;
    expect(lastRead.data.shown).toMatchObject({ content: 'version v2\n' });
  });

  it('feeds a tool error back to the model instead of failing the turn', async () => {
    const { agent, log, sessionId, events } = await agentOver([
      { tool_calls: [{ name: 'read_file', args: { path: 'missing.txt' } }] },
      { text: 'It does not exist.' },
    ]);
    expect((await agent.runTurn('read it')).status).toBe('done');
    const result = log.events(sessionId).find((e) => e.kind === 'tool_result')!;
    expect(result.data).toMatchObject({ ok: false, shown: { error: expect.stringMatching(/file not found/) } });
    expect(events).toContainEqual(expect.objectContaining({ type: 'tool_end', ok: false }));
  });

  it('asks for a final answer without tools when the step limit is reached', async () => {
    const loop = Array.from({ length: 5 }, () => ({ text: 'looking', tool_calls: [{ name: 'list_dir', args: {} }] }));
    const { agent, log, sessionId, events } = await agentOver(loop, { maxSteps: 3 });
    const result = await agent.runTurn('explore');
    expect(result.status).toBe('step_limit');
    expect(events).toContainEqual({ type: 'step_limit', steps: 3 });
    const requests = log.events(sessionId).filter((e) => e.kind === 'request');
    expect(requests.map((r) => r.data.tool_choice)).toEqual(['auto', 'auto', 'auto', 'none']);
    expect(log.events(sessionId).filter((e) => e.kind === 'tool_result')).toHaveLength(3);
  });

  it('ends the run when the script ends', async () => {
    const { agent } = await agentOver([{ tool_calls: [{ name: 'list_dir', args: {} }] }]);
    expect((await agent.runTurn('go')).status).toBe('script_ended');
  });

  it('rebuilds the conversation from the log as the model saw it', async () => {
    const { agent, log, sessionId } = await agentOver([{ tool_calls: [{ name: 'stat', args: { path: 'nope' } }] }, { text: 'gone' }]);
    await agent.runTurn('check');
    const rebuilt = rebuildSession(log.events(sessionId));
    expect(rebuilt.openTurn).toBe(false);
    expect(rebuilt.turn).toBe(1);
    expect(rebuilt.replayPosition).toBe(2);
    expect(rebuilt.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('--max-session-cost-usd: a priced session stops before the next call; an unpriced one cannot be limited', async () => {
    const steps: ReplayStep[] = [{ tool_calls: [{ name: 'stat', args: { path: 'nope' } }] }, { text: 'done' }];
    const priced = await agentOver(steps, { price: { input: 1000, output: 1000 }, maxSessionCostUsd: 0.001 });
    const stopped = await priced.agent.runTurn('go');
    expect(stopped).toMatchObject({ status: 'cost_limit', steps: 1 });
    expect(stopped.text).toMatch(/past --max-session-cost-usd 0\.001; no further model call/);
    expect(priced.agent.overBudget()).toBe(true);
    // A new turn makes no call either.
    expect(await priced.agent.runTurn('again')).toMatchObject({ status: 'cost_limit', steps: 0 });
    const unpriced = await agentOver(steps, { price: null, maxSessionCostUsd: 0.001 });
    expect(await unpriced.agent.runTurn('go')).toMatchObject({ status: 'done', text: 'done' });
    expect(unpriced.agent.overBudget()).toBe(false);
  });

  it("counts a child agent's spend in the turn, live and on resume", async () => {
    const { agent, log, sessionId } = await agentOver([{ text: 'one' }, { text: 'two' }]);
    await agent.runTurn('first');
    const own = agent.usage;
    // A child ends between turns (a deferred one): its spend is the session's at once…
    const child = { inputTokens: 100, outputTokens: 7, costUsd: 0.25 };
    agent.addDelegatedUsage(child);
    expect(agent.usage).toEqual({ inputTokens: own.inputTokens + 100, outputTokens: own.outputTokens + 7, costUsd: 0.25 });
    // …and the next turn's, where the log keeps it.
    const second = await agent.runTurn('second');
    expect(second.usage.inputTokens).toBeGreaterThanOrEqual(100);
    const ends = log.events(sessionId).filter((e) => e.kind === 'turn_end');
    expect(ends[0]!.data.delegated_usage).toBeUndefined();
    expect(ends[1]!.data.delegated_usage).toEqual(child);
    expect(rebuildSession(log.events(sessionId)).usage).toEqual(agent.usage);
  });
});

describe('tool calls from one response', () => {
  /** Tools that record when they start and finish, to observe concurrency. */
  async function instrumented() {
    const timeline: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let waiting = 0;
    const make = (name: string, readOnly: boolean): AnyTool =>
      defineTool({
        name,
        description: name,
        kind: readOnly ? 'read' : 'change',
        narrowHint: '',
        args: z.strictObject({ id: z.string() }),
        async run(a) {
          timeline.push(`start ${a.id}`);
          if (readOnly) {
            // Read-only calls wait for each other: this only finishes if they run at once.
            waiting += 1;
            if (waiting === 2) release();
            await gate;
          }
          timeline.push(`end ${a.id}`);
          return { id: a.id };
        },
      }) as unknown as AnyTool;
    const catalog = Catalog.build([make('look', true), make('change', false)]);
    const ws = await tempDir();
    const dispatcher = new Dispatcher({ catalog, gate: new Gate({ mode: 'yolo', scope: await PathScope.create(ws) }), workspace: ws });
    return { timeline, catalog, dispatcher };
  }

  it('runs read-only calls concurrently and others one at a time, in order', async () => {
    const { timeline, catalog, dispatcher } = await instrumented();
    const log = EventLog.open(':memory:');
    const sessionId = log.createSession({ model: 'replay:test', workspace: '/', title: 't' });
    const model = new ReplayModel(
      [
        {
          tool_calls: [
            { name: 'change', args: { id: 'w1' } },
            { name: 'look', args: { id: 'r1' } },
            { name: 'look', args: { id: 'r2' } },
            { name: 'change', args: { id: 'w2' } },
          ],
        },
        { text: 'done' },
      ],
      'test',
    );
    dispatcher.recordTo(recordCalls(log, sessionId, dispatcher.session));
    const agent = new Agent({ model, dispatcher, catalog, instructions: '', log, sessionId });
    expect((await agent.runTurn('go')).status).toBe('done');
    expect(timeline).toEqual(['start w1', 'end w1', 'start r1', 'start r2', 'end r1', 'end r2', 'start w2', 'end w2']);
    // Results go back in the order the model asked.
    const rebuilt = rebuildSession(log.events(sessionId));
    const toolMessage = rebuilt.messages.find((m) => m.role === 'tool')!;
    expect((toolMessage.content as Array<{ toolCallId: string }>).map((p) => p.toolCallId)).toEqual([
      'replay-1',
      'replay-2',
      'replay-3',
      'replay-4',
    ]);
  });
});
