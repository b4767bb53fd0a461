import { defineFace } from '../framework/face.ts';
import description from './ask-user-question.golem.md';
import { questionsArgs } from './open-questions.ts';

/** golem's AskUserQuestionTool: the engine's contract is golem's, so the face is its name and words. */
export const askUserQuestionGolem = defineFace({
  dialect: 'golem',
  name: 'AskUserQuestionTool',
  description,
  args: questionsArgs,
  toEngine: (a) => a,
});
