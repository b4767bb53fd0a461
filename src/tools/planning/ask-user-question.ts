import { randomUUID } from 'node:crypto';
import * as z from 'zod/v4';
import { quoteArg } from '../framework/error-text.ts';
import { defineTool, ToolError, type JsonObject } from '../framework/tool.ts';
import description from './ask-user-question.md';
import { askUserQuestionGolem } from './ask-user-question.golem.ts';
import { ALREADY_ASKED, answeredText, ASKED, questionsArgs } from './open-questions.ts';

/** What the model is told when no one can answer: carry on, and say what was assumed (golem's cannot-ask wording). */
const CANNOT = 'Do not ask again: carry on with what you know, and say in your answer which assumptions you made.';

/**
 * golem's AskUserQuestionTool, its engine (registered only under golem's name: golem is
 * the one system with this contract). Answered now where a person is at the client (the
 * REPL); else posted with the session — the turn ends and the answers start the next turn,
 * within `answer_ttl_hours` — and refused where nobody will ever answer (a service
 * principal's run, an autonomous run, asking off).
 */
export const askUserQuestionTool = defineTool({
  name: 'ask_user_question',
  job: 'ask_user',
  // Under its own name in no dialect: golem's face is its only name (dialect.ts registers a face).
  dialect: [],
  // golem's subagents cannot ask the user (its SubagentScenario).
  excludedIn: { subagent: true },
  faces: [askUserQuestionGolem],
  description,
  kind: 'ask',
  needs: ['questionDesk'],
  uses: ['asker', 'scheduler'],
  narrowHint: '',
  settings: z.strictObject({
    answer_ttl_hours: z
      .number()
      .positive()
      .max(24 * 14)
      .default(24)
      .describe('How long posted questions stay answerable, in hours (default 24, at most 14 days).'),
  }),
  args: questionsArgs,
  async run(args, ctx): Promise<JsonObject> {
    const desk = ctx.services.questionDesk;
    if (desk.principal.service)
      throw new ToolError(
        `no one can answer questions here: this run acts for the service principal ${quoteArg(desk.principal.name, 64)} (an unattended run). ${CANNOT}`,
        'denied',
      );
    if (ctx.services.scheduler)
      throw new ToolError(`no one can answer questions here: this is an autonomous run, woken on a schedule. ${CANNOT}`, 'denied');
    if (ctx.session.postedQuestions.length > 0) return { result: ALREADY_ASKED };
    const asker = ctx.services.asker;
    if (asker?.askQuestions) {
      const reply = await asker.askQuestions(args.questions);
      if ('answers' in reply) return { result: answeredText(args.questions, reply.answers) };
      if (!desk.answersLater) throw new ToolError(`the questions could not be asked (${reply.unavailable}). ${CANNOT}`, 'denied');
    } else if (!desk.answersLater) {
      throw new ToolError(`no one can answer questions in this run (asking is off: --ask off, or a watch incident). ${CANNOT}`, 'denied');
    }
    const id = randomUUID();
    const expiresAt = new Date(Date.now() + ctx.settings.answer_ttl_hours * 3_600_000).toISOString();
    ctx.session.postedQuestions.push({ id, questions: args.questions, askedOf: desk.principal.name, expiresAt });
    return { result: ASKED, question_id: id, expires_at: expiresAt };
  },
});
