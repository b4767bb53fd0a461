import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import type { ChoiceQuestion } from '../framework/services.ts';
import { defineTool, ToolError, type JsonObject } from '../framework/tool.ts';
import description from './request-user-input.md';

const option = z.strictObject({
  label: z.string().min(1).max(100).describe('The choice as the operator sees it: a few words.'),
  description: z.string().min(1).max(500).describe('What choosing it means or leads to, in a sentence.'),
});

const question = z.strictObject({
  id: z.string().min(1).max(LIMITS.identifier).describe('A short snake_case id; the answer comes back under it.'),
  header: z.string().min(1).max(40).describe('A very short label for the question (a word or two).'),
  question: z.string().min(1).max(2000).describe('The question, complete enough to answer without other context.'),
  options: z.array(option).min(2).max(3).describe('Two or three choices; "None of the above" with a note is added for the operator.'),
});

export const requestUserInputTool = defineTool({
  name: 'request_user_input',
  job: 'ask_user',
  dialect: 'cagent',
  // golem's subagents cannot ask the user (its SubagentScenario); Cagent's delegated agent can.
  excludedIn: { subagent: ['golem'] },
  description,
  kind: 'ask',
  uses: ['asker'],
  // No `needs`: without anyone to answer it is still offered, and its failure ends a
  // headless run as failed naming the questions — instead of a model guessing silently.
  narrowHint: '',
  args: z.strictObject({
    questions: z.array(question).min(1).max(3).describe('One to three questions, asked in order.'),
  }),
  async run(args, ctx): Promise<JsonObject> {
    const ids = args.questions.map((q) => q.id);
    const twice = ids.find((id, i) => ids.indexOf(id) !== i);
    if (twice !== undefined)
      throw new ToolError(`questions: the id ${JSON.stringify(twice)} is used twice; give each question its own id`, 'invalid_args');
    const questions: ChoiceQuestion[] = args.questions;
    const asker = ctx.services.asker;
    const reply = asker?.choose
      ? await asker.choose(questions)
      : { unavailable: asker ? 'this client cannot show a choice list' : '--ask is off' };
    if ('answers' in reply) {
      return {
        answers: reply.answers.map((a): JsonObject =>
          'choice' in a ? { id: a.id, choice: a.choice } : { id: a.id, choice: null, note: a.note },
        ),
      };
    }
    // Headless: recorded for `run`, which ends failed naming them (exit 1), and said to the model.
    ctx.session.unansweredQuestions.push(...args.questions.map((q) => ({ id: q.id, header: q.header, question: q.question })));
    throw new ToolError(
      `no one can answer here (${reply.unavailable}): the run will end as failed, naming these questions (${ids.join(', ')}). ` +
        'Do not call more tools: answer now with what you found and what you would need to know to go on.',
    );
  },
});
