import * as z from 'zod/v4';

/** golem's text when the questions are posted and the turn ends (its default AskedMessage). */
export const ASKED = 'The questions are now with the user. This turn ends here; you will be started again with the answers.';

/** golem's question-already-asked text: one outstanding ask at a time. */
export const ALREADY_ASKED =
  'ALREADY ASKED AND STILL UNANSWERED. You have put this to the user and they have not replied yet. Asking again does nothing. ' +
  'Stop here and end your turn without calling any further tools; you will be started again with their answer if it comes.';

/** Bounds golem has not (it takes any number of anything): a screenful of questions, a short list of short choices. */
export const QUESTION_LIMITS = { questions: 4, options: 10, optionChars: 200, questionChars: 2000, headerChars: 40, otherChars: 100 };

const question = z.strictObject({
  question: z
    .string()
    .trim()
    .min(1)
    .max(QUESTION_LIMITS.questionChars)
    .describe('The question as the user reads it; the answer comes back under it.'),
  header: z
    .string()
    .trim()
    .min(1)
    .max(QUESTION_LIMITS.headerChars)
    .optional()
    .describe('A very short label for the question (a word or two).'),
  options: z
    .array(z.string().trim().min(1).max(QUESTION_LIMITS.optionChars))
    .max(QUESTION_LIMITS.options)
    .describe('The answers to choose among, safest first; empty for a free-text answer.'),
  multiSelect: z.boolean().optional().describe('Allow more than one of the options (default false).'),
  other: z
    .string()
    .trim()
    .max(QUESTION_LIMITS.otherChars)
    .optional()
    .describe('When non-empty: a free-text answer is offered beside the options, labelled with this text.'),
});

/** golem's Questions, checked as a whole: every problem named in one error. */
export const questionsArgs = z
  .strictObject({
    questions: z.array(question).min(1).max(QUESTION_LIMITS.questions).describe('The questions, presented together.'),
  })
  .superRefine((a, ctx) => {
    const seen = new Set<string>();
    a.questions.forEach((q, i) => {
      // Answers are keyed by the question's text (golem's map[string]string).
      if (seen.has(q.question))
        ctx.addIssue({
          code: 'custom',
          path: ['questions', i, 'question'],
          message: 'repeats an earlier question; answers are keyed by the text, so each must differ',
        });
      seen.add(q.question);
      if (q.multiSelect === true && q.options.length < 2)
        ctx.addIssue({ code: 'custom', path: ['questions', i, 'multiSelect'], message: 'needs at least two options to choose several of' });
      if (new Set(q.options).size !== q.options.length)
        ctx.addIssue({ code: 'custom', path: ['questions', i, 'options'], message: 'lists an option twice' });
    });
  });

export type QuestionsArgs = z.output<typeof questionsArgs>;

/** golem's answered text: "The user answered:" and one line per answered question, in the order asked. */
export function answeredText(questions: readonly { question: string }[], answers: Readonly<Record<string, string>>): string {
  const lines = questions.filter((q) => q.question in answers).map((q) => `- ${q.question}: ${answers[q.question]}`);
  return `The user answered:\n${lines.join('\n')}\n`;
}
