import * as z from 'zod/v4';
import { defineFace } from '../framework/face.ts';
import description from './request-user-input.golem.md';

const question = z.strictObject({
  question: z.string().min(1).max(2000).describe('The question, complete enough to answer without other context.'),
  header: z.string().min(1).max(40).optional().describe('A very short label for the question (a word or two).'),
  options: z.array(z.string().min(1).max(100)).min(2).max(3).describe('Two or three choices, a few words each.'),
  multiSelect: z.literal(false).optional().describe('Only false: one choice per question (several at once is not supported here).'),
});

/** golem's AskUserQuestionTool over request_user_input: string options, answers keyed by question. */
export const requestUserInputGolem = defineFace({
  dialect: 'golem',
  name: 'AskUserQuestionTool',
  description,
  args: z.strictObject({
    questions: z.array(question).min(1).max(3).describe('One to three questions, asked in order.'),
  }),
  toEngine: (a) => ({
    questions: a.questions.map((q, i) => ({
      id: `q${i + 1}`,
      header: q.header ?? `Question ${i + 1}`,
      question: q.question,
      options: q.options.map((o) => ({ label: o, description: o })),
    })),
  }),
  result: (r, a) => ({
    answers: (Array.isArray(r.answers) ? r.answers : []).map((x, i) => {
      const answer = x as { choice: string | null; note?: string };
      return { question: a.questions[i]?.question ?? '', answer: answer.choice ?? answer.note ?? '' };
    }),
  }),
});
