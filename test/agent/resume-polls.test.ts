// --resume after a session whose record holds more than the model's calls: wait_and_verify's
// polls and a direct (tools call) call. The resumed agent sends the model exactly the prompt
// the uninterrupted one did.
import path from 'node:path';
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/agent.ts';
import { rebuildSession } from '../../src/agent/resume.ts';
import { ReplayModel, type ReplayStep } from '../../src/model/replay.ts';
import { recordCalls } from '../../src/runtime/record-calls.ts';
import { EventLog } from '../../src/store/event-log.ts';
import { setup, tempDir } from '../helpers/workspace.ts';

const STEPS: ReplayStep[] = [
  {
    tool_calls: [
      {
        name: 'wait_and_verify',
        args: { tool: 'read_file', args: { path: 'a.txt' }, expect_contains: 'ready', interval_seconds: 1, timeout_seconds: 20 },
      },
      { name: 'read_file', args: { path: 'a.txt' } },
    ],
  },
  { text: 'verified' },
  { text: 'second answer' },
];

/** A replay model that keeps every prompt it was sent. */
function capturing(position = 0) {
  const model = new ReplayModel(STEPS, 'test');
  model.position = position;
  const prompts: LanguageModelV4Prompt[] = [];
  const generate = model.doGenerate.bind(model);
  model.doGenerate = (o) => {
    prompts.push(structuredClone(o.prompt));
    return generate(o);
  };
  return { model, prompts };
}

async function agentOn(log: EventLog, position = 0) {
  const rt = await setup({ tree: { 'a.txt': 'not yet\n' }, flags: { mode: 'yolo' } });
  const sessionId = log.createSession({ model: 'replay:test', workspace: rt.dir, title: 't' });
  rt.dispatcher.recordTo(recordCalls(log, sessionId, rt.session));
  const { model, prompts } = capturing(position);
  const agent = new Agent({ model, dispatcher: rt.dispatcher, catalog: rt.catalog, instructions: 'i', log, sessionId, stream: false });
  return { rt, sessionId, agent, prompts };
}

describe('--resume with polls and direct calls on the record', () => {
  it('rebuilds the conversation the model saw: the same next prompt as without the restart', async () => {
    const log = EventLog.open(path.join(await tempDir(), 'sessions.db'));
    const first = await agentOn(log);
    // The file becomes ready while the wait polls it (a few polls, then verified).
    setTimeout(() => void import('node:fs/promises').then((fs) => fs.writeFile(path.join(first.rt.dir, 'a.txt'), 'ready\n')), 1_200);
    expect((await first.agent.runTurn('wait for it')).text).toBe('verified');
    // Someone else's call in the same session (tools call, mcp serve): on the record, not in the conversation.
    expect((await first.rt.dispatcher.call('read_file', { path: 'a.txt' })).ok).toBe(true);
    const afterTurn1 = log.events(first.sessionId);
    expect((await first.agent.runTurn('and now?')).text).toBe('second answer');
    const expected = first.prompts.at(-1)!;

    const sources = afterTurn1.filter((e) => e.kind === 'tool_result').map((e) => e.data.source);
    expect(sources.filter((s) => s === 'poll').length).toBeGreaterThanOrEqual(2);
    expect(sources.filter((s) => s === 'model')).toHaveLength(2);
    expect(sources).toContain('tools_call');

    const rebuilt = rebuildSession(afterTurn1);
    // Exactly the model's two results, in the order it asked, in one tool message.
    const toolMessages = rebuilt.messages.filter((m) => m.role === 'tool');
    expect(toolMessages).toHaveLength(1);
    expect((toolMessages[0]!.content as Array<{ toolName: string }>).map((p) => p.toolName)).toEqual(['wait_and_verify', 'read_file']);
    expect(rebuilt.unanswered).toEqual([]);
    expect(rebuilt.openTurn).toBe(false);

    const second = await agentOn(log, rebuilt.replayPosition);
    second.agent.restore(rebuilt.messages, rebuilt.turn, rebuilt.usage);
    expect((await second.agent.runTurn('and now?')).text).toBe('second answer');
    expect(second.prompts.at(-1)).toEqual(expected);
    log.close();
  });

  it("a record not made by the model is never replayed, even under the id of the model's call", () => {
    const at = '2026-01-01T00:00:00.000Z';
    const sessionId = 's';
    const call = { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: '{}' };
    const result = (source: string, text: string) => ({
      sessionId,
      seq: 0,
      turn: 1,
      at,
      kind: 'tool_result' as const,
      data: { call_id: 'c1', name: 'read_file', ok: true, shown: { text }, source },
    });
    const rebuilt = rebuildSession([
      { sessionId, seq: 1, turn: 1, at, kind: 'user', data: { text: 'go' } },
      {
        sessionId,
        seq: 2,
        turn: 1,
        at,
        kind: 'response',
        data: { content: [call], usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 } },
      },
      result('poll', 'from a poll'),
      result('tools_call', 'from tools call'),
      result('model', 'what the model saw'),
    ]);
    const parts = rebuilt.messages.find((m) => m.role === 'tool')!.content as Array<{ output: { value: unknown } }>;
    expect(parts.map((p) => p.output.value)).toEqual([{ text: 'what the model saw' }]);
  });

  it('an agent over a dispatcher that records nothing is refused (its session could not be resumed)', async () => {
    const rt = await setup();
    const log = EventLog.open(':memory:');
    const sessionId = log.createSession({ model: 'replay:test', workspace: rt.dir, title: 't' });
    expect(
      () =>
        new Agent({ model: new ReplayModel([], 'test'), dispatcher: rt.dispatcher, catalog: rt.catalog, instructions: '', log, sessionId }),
    ).toThrow(/records its calls/);
  });

  it('a tool result the log cannot keep ends the turn with that error, as any failed write does', async () => {
    const rt = await setup({ tree: { 'a.txt': 'x\n' }, flags: { mode: 'yolo' } });
    const log = EventLog.open(':memory:');
    const sessionId = log.createSession({ model: 'replay:test', workspace: rt.dir, title: 't' });
    rt.dispatcher.recordTo({
      record: () => {
        throw new Error('disk full');
      },
    });
    const model = new ReplayModel([{ tool_calls: [{ name: 'read_file', args: { path: 'a.txt' } }] }, { text: 'never' }], 'test');
    const agent = new Agent({ model, dispatcher: rt.dispatcher, catalog: rt.catalog, instructions: 'i', log, sessionId, stream: false });
    await expect(agent.runTurn('go')).rejects.toThrow('disk full');
    // The model was not asked again after the lost result.
    expect(model.position).toBe(1);
  });
});
