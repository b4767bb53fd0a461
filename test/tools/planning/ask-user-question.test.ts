import { describe, expect, it } from 'vitest';
import { principal } from '../../../src/core/principal.ts';
import { openQuestionsOnLines, pick } from '../../../src/runtime/open-questions.ts';
import { UnattendedAsker } from '../../../src/runtime/askers.ts';
import type { Asker, OpenQuestion } from '../../../src/tools/framework/services.ts';
import { setupIn } from '../../helpers/workspace.ts';
import { ASK_CASES, type AskCase } from './ask-user-question.cases.ts';

const golem = setupIn('golem');

/** A client where a person answers every question with `reply` (and says what it was shown). */
function answering(reply: string, shown: OpenQuestion[] = []): Asker {
  return {
    ask: async () => ({ answer: reply }),
    askQuestions: async (qs) => {
      shown.push(...qs);
      return { answers: Object.fromEntries(qs.map((x) => [x.question, reply])) };
    },
  };
}

async function runtimeFor(c: AskCase, shown: OpenQuestion[]) {
  switch (c.who) {
    case 'answers':
      return golem({ services: { asker: answering(c.reply ?? '', shown) } });
    case 'later':
      return golem({ services: { asker: new UnattendedAsker() } });
    case 'off':
      return golem();
    case 'service':
      return golem({ services: { asker: answering('x', shown) }, principal: principal('svc-watch', { service: true }) });
    case 'autonomous':
      return golem({ services: { asker: answering('x', shown), scheduler: { request: () => null } } });
  }
}

describe('AskUserQuestionTool (golem): the arguments, answered now, posted, refused', () => {
  for (const c of ASK_CASES) {
    it(c.name, async () => {
      const shown: OpenQuestion[] = [];
      const rt = await runtimeFor(c, shown);
      if (c.error) {
        const error = await rt.refused('AskUserQuestionTool', c.args);
        for (const p of c.error) expect(error).toMatch(p);
        // A refusal asks nobody and posts nothing.
        expect(shown).toEqual([]);
        expect(rt.session.postedQuestions).toEqual([]);
        return;
      }
      const r = await rt.ok('AskUserQuestionTool', c.args);
      expect(String(r.result)).toMatch(c.result!);
      const posted = rt.session.postedQuestions;
      if (c.posted) {
        expect(posted).toHaveLength(1);
        expect(posted[0]).toMatchObject({
          id: r.question_id,
          questions: (c.args as { questions: unknown[] }).questions,
          expiresAt: r.expires_at,
        });
        // The default TTL: 24 hours from now.
        expect(Math.abs(Date.parse(String(r.expires_at)) - Date.now() - 24 * 3_600_000)).toBeLessThan(60_000);
        // One outstanding ask at a time: a second call in the same turn is told so.
        expect((await rt.ok('AskUserQuestionTool', c.args)).result).toMatch(/^ALREADY ASKED AND STILL UNANSWERED/);
        expect(posted).toHaveLength(1);
      } else expect(posted).toEqual([]);
    });
  }

  it('tools.ask_user_question.answer_ttl_hours sets the expiry', async () => {
    const rt = await golem({
      services: { asker: new UnattendedAsker() },
      recipe: 'tools:\n  ask_user_question: { answer_ttl_hours: 2 }\n',
    });
    const r = await rt.ok('AskUserQuestionTool', { questions: [{ question: 'Why?', options: [] }] });
    expect(Math.abs(Date.parse(String(r.expires_at)) - Date.now() - 2 * 3_600_000)).toBeLessThan(60_000);
  });

  it('is not offered under the other dialects (ask_user and request_user_input do that job)', async () => {
    for (const d of ['core-agent', 'cagent'] as const) {
      const rt = await setupIn(d)();
      expect(rt.catalog.list().map((t) => t.modelName)).not.toContain('AskUserQuestionTool');
      expect(rt.catalog.has('ask_user_question')).toBe(false);
    }
  });
});

describe('golem questions on a line terminal', () => {
  const terminal = (lines: string[]) => {
    const queue = [...lines];
    return async () => (queue.length > 0 ? queue.shift()! : null);
  };
  const choose = { question: 'Which?', options: ['a', 'b', 'c'] };

  it.each([
    ['2', choose, 'b'],
    ['1,3', { ...choose, multiSelect: true }, 'a, c'],
    ['3, 1, 3', { ...choose, multiSelect: true }, 'c, a'],
    ['typed', { ...choose, other: 'Other' }, 'typed'],
    ['free', { question: 'Why?', options: [] }, 'free'],
    ['1,3', choose, null],
    ['4', choose, null],
    ['typed', choose, null],
    ['', choose, null],
  ] as const)('%j for %j gives %j', (reply, q, want) => {
    expect(pick(reply, q)).toBe(want);
  });

  it('asks again until a reply fits; input ending leaves the questions unanswered', async () => {
    expect(await openQuestionsOnLines([choose, { question: 'Why?', options: [] }], terminal(['x', '9', '2', 'because']))).toEqual({
      answers: { 'Which?': 'b', 'Why?': 'because' },
    });
    expect(await openQuestionsOnLines([choose], terminal(['x']))).toEqual({
      unavailable: 'the input ended before every question was answered',
    });
  });
});
