import type { LanguageModelV4Message } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvent } from '../../src/agent/agent.ts';
import { missingSections } from '../../src/agent/compaction.ts';
import { rebuildSession } from '../../src/agent/resume.ts';
import type { CallOptions } from '../../src/model/model.ts';
import { ReplayModel, type ReplayStep } from '../../src/model/replay.ts';
import { recordCalls } from '../../src/runtime/record-calls.ts';
import { EventLog } from '../../src/store/event-log.ts';
import { SessionState } from '../../src/tools/framework/session.ts';
import { setup } from '../helpers/workspace.ts';
import { COMPACTION_CASES, GOOD_RECORD } from './compaction.cases.ts';

/** A replay model that keeps every request's prompt, and can fail the compaction request (the one without tools offered). */
class Recording extends ReplayModel {
  readonly prompts: LanguageModelV4Message[][] = [];
  failCompaction: string | null = null;
  override async doGenerate(options: CallOptions) {
    this.prompts.push(options.prompt);
    if (this.failCompaction && options.tools?.length === 0) throw new Error(this.failCompaction);
    return super.doGenerate(options);
  }
}

const BIG = 'x'.repeat(80) + '\n';
/** ~2,000 tokens of file, shown to the model by read_file. */
const TREE = { 'big.txt': BIG.repeat(100) };

async function session(steps: ReplayStep[], context: { window: number | null; compactAt: number } = { window: 2_000, compactAt: 0.5 }) {
  const state = new SessionState();
  const rt = await setup({ tree: TREE, flags: { mode: 'yolo' }, session: state });
  const log = EventLog.open(':memory:');
  const sessionId = log.createSession({ model: 'replay:test', workspace: rt.dir, title: 't' });
  state.sessionId = sessionId;
  rt.dispatcher.recordTo(recordCalls(log, sessionId, state));
  const events: AgentEvent[] = [];
  const model = new Recording(steps, 'test');
  const make = () =>
    new Agent({
      model,
      dispatcher: rt.dispatcher,
      catalog: rt.catalog,
      instructions: 'be brief',
      log,
      sessionId,
      session: state,
      context,
      stream: false,
      onEvent: (e) => events.push(e),
    });
  const agent = make();
  const compactions = () => events.filter((e): e is Extract<AgentEvent, { type: 'compaction' }> => e.type === 'compaction');
  const text = (prompt: LanguageModelV4Message[]) => JSON.stringify(prompt);
  return { rt, log, sessionId, agent, model, events, compactions, text, make };
}

const READ_BIG = { tool_calls: [{ name: 'read_file', args: { path: 'big.txt' } }] };

describe('compaction near the context window', () => {
  it('a replayed session whose reported usage passes the limit is compacted and continues', async () => {
    const s = await session([READ_BIG, { text: GOOD_RECORD }, { text: 'The file is all x.' }]);
    const result = await s.agent.runTurn('what is in big.txt?');
    expect(result).toMatchObject({ status: 'done', text: 'The file is all x.' });
    const [c] = s.compactions();
    expect(s.compactions()).toHaveLength(1);
    expect(c).toMatchObject({ trigger: 'auto', ok: true });
    expect(c!.tokensBefore).toBeGreaterThanOrEqual(1_000);
    expect(c!.tokensAfter).toBeLessThan(c!.tokensBefore / 2);
    // Three model calls: the read, the record (no tools), the answer from the record.
    expect(s.model.prompts).toHaveLength(3);
    expect(s.text(s.model.prompts[1]!)).toContain(BIG.trim()); // the record was written from the whole conversation
    const after = s.model.prompts[2]!;
    expect(after).toHaveLength(2); // the instructions and the record
    expect(s.text(after)).toContain('[compaction]');
    expect(s.text(after)).toContain('# Where we are');
    expect(s.text(after)).not.toContain(BIG.trim());
    // The log has it, and the turn's usage counts the compaction's call.
    const logged = s.log.events(s.sessionId).filter((e) => e.kind === 'compaction');
    expect(logged).toMatchObject([{ data: { trigger: 'auto', ok: true, record: GOOD_RECORD, kept_last: false } }]);
    const responses = s.log.events(s.sessionId).filter((e) => e.kind === 'response');
    expect(result.usage.inputTokens).toBeGreaterThan(
      responses.reduce((n, e) => n + (e.data.usage as { inputTokens: number }).inputTokens, 0),
    );
  });

  it('below the limit, with no known window, or with compact_at 1, nothing is compacted', async () => {
    for (const context of [
      { window: 1_000_000, compactAt: 0.8 },
      { window: null, compactAt: 0.8 },
      { window: 2_000, compactAt: 1 },
    ]) {
      const s = await session([READ_BIG, { text: 'all x' }], context);
      expect(await s.agent.runTurn('read it')).toMatchObject({ status: 'done', text: 'all x' });
      expect(s.compactions()).toEqual([]);
      expect(s.model.prompts).toHaveLength(2);
    }
  });

  it('a resume after the compaction rebuilds the compacted conversation, not the old one', async () => {
    // After the resume the second read passes the limit again: a second compaction, from the first one's record.
    const s = await session([READ_BIG, { text: GOOD_RECORD }, READ_BIG, { text: GOOD_RECORD }, { text: 'done' }]);
    // Stop the turn after the compaction (the third call would read again): the session is left mid-turn.
    const controller = new AbortController();
    const stopAfterCompaction = s.make();
    s.events.length = 0;
    const origin = s.model.doGenerate.bind(s.model);
    s.model.doGenerate = async (o) => {
      if (s.model.prompts.length === 2) {
        controller.abort(new Error('process stopped'));
        throw controller.signal.reason;
      }
      return origin(o);
    };
    await expect(stopAfterCompaction.runTurn('read it', controller.signal)).rejects.toThrow();
    const rebuilt = rebuildSession(s.log.events(s.sessionId));
    expect(rebuilt.openTurn).toBe(true);
    expect(JSON.stringify(rebuilt.messages)).toContain('[compaction]');
    expect(JSON.stringify(rebuilt.messages)).not.toContain(BIG.trim());
    expect(rebuilt.replayPosition).toBe(2); // the read and the record: the next line is the one that follows

    // Continued in a new agent, as --resume does: the request starts from the record.
    s.model.doGenerate = origin;
    const resumed = s.make();
    resumed.restore(rebuilt.messages, rebuilt.turn, rebuilt.usage);
    s.model.position = rebuilt.replayPosition;
    s.model.prompts.length = 0;
    expect(await resumed.continueTurn()).toMatchObject({ status: 'done', text: 'done' });
    expect(s.text(s.model.prompts[0]!)).toContain('[compaction]');
    expect(s.text(s.model.prompts[0]!)).not.toContain(BIG.trim());
    expect(s.compactions()).toMatchObject([{ ok: true }, { ok: true }]);
    expect(s.text(s.model.prompts[1]!).split('[compaction]').length).toBe(2); // the second record is written from the first
  });

  describe('what the model answers decides it', () => {
    it.each(COMPACTION_CASES)('$name', async (c) => {
      const steps: ReplayStep[] = [READ_BIG];
      if (c.answer !== 'exhausted' && 'text' in c.answer) steps.push({ text: c.answer.text });
      if (c.answer !== 'exhausted' && 'error' in c.answer) steps.push({ text: 'unused' });
      if (c.answer !== 'exhausted') steps.push({ text: 'answered' }, READ_BIG, { text: 'second answer' });
      const s = await session(steps);
      if (c.answer !== 'exhausted' && 'error' in c.answer) s.model.failCompaction = c.answer.error;
      const result = await s.agent.runTurn('read it');
      const [event, ...more] = s.compactions();
      expect(more).toEqual([]);
      if (c.fails === null) {
        expect(event).toMatchObject({ ok: true });
        expect(result.text).toBe('answered');
        return;
      }
      // Failed: said so, the conversation as it was, the turn goes on without a second try.
      expect(event).toMatchObject({ ok: false, trigger: 'auto', error: expect.stringMatching(c.fails) });
      expect(s.log.events(s.sessionId).filter((e) => e.kind === 'compaction')).toMatchObject([{ data: { ok: false } }]);
      expect(missingSections(JSON.stringify(rebuildSession(s.log.events(s.sessionId)).messages))).toHaveLength(6);
      if (c.answer === 'exhausted') return expect(result.status).toBe('script_ended');
      const last = s.model.prompts.at(-1)!;
      expect(s.text(last)).toContain(BIG.trim());
      expect(s.text(last)).not.toContain('[compaction]');
      expect(result.text).toBe(c.answer && 'error' in c.answer ? 'unused' : 'answered');
    });
  });
});

describe('/compact and /clear', () => {
  it('compact(focus) between turns: the note is asked for, the latest prompt kept when nothing followed it', async () => {
    const s = await session([{ text: 'first answer' }, { text: GOOD_RECORD }, { text: 'second answer' }], { window: null, compactAt: 0.8 });
    await s.agent.runTurn('first question');
    const outcome = await s.agent.compact('keep the numbers');
    expect(outcome).toMatchObject({ ok: true });
    expect(s.compactions()).toMatchObject([{ trigger: 'manual', ok: true }]);
    expect(s.text(s.model.prompts[1]!)).toContain('focus on: keep the numbers');
    expect(s.agent.usage.inputTokens).toBeGreaterThan(0);
    await s.agent.runTurn('second question');
    expect(s.model.prompts[2]!.map((m) => m.role)).toEqual(['system', 'user', 'user']);
    expect(s.text(s.model.prompts[2]!)).not.toContain('first question"'); // only inside the record's facts
    expect(s.text(s.model.prompts[2]!)).toContain('second question');
  });

  it('compact with nothing to compact fails and says so', async () => {
    const s = await session([], { window: null, compactAt: 0.8 });
    expect(await s.agent.compact()).toMatchObject({ ok: false, error: 'there is no conversation to compact yet' });
    expect(s.model.prompts).toEqual([]);
  });

  it('clear drops the history from later requests and from a resume', async () => {
    const s = await session([{ text: 'one' }, { text: 'two' }], { window: null, compactAt: 0.8 });
    await s.agent.runTurn('remember 42');
    s.agent.clear();
    await s.agent.runTurn('what number?');
    expect(s.model.prompts[1]!.map((m) => m.role)).toEqual(['system', 'user']);
    expect(s.text(s.model.prompts[1]!)).not.toContain('remember 42');
    const rebuilt = rebuildSession(s.log.events(s.sessionId));
    expect(JSON.stringify(rebuilt.messages)).not.toContain('remember 42');
    expect(rebuilt.messages).toHaveLength(2); // the new prompt and its answer
    expect(rebuilt.turn).toBe(2);
  });
});
