import type { Principal } from '../../core/principal.ts';
import type { FamilyServices } from '../framework/family.ts';
import type { MissingReasons } from '../framework/services.ts';
import type { PlanMode, PlanRecorder } from './plan-recorder.ts';

/** Who AskUserQuestionTool asks, and whether its answers may come after the turn. */
export interface QuestionDesk {
  /** The run's principal: a service principal's run never asks; an answer must come from this principal. */
  readonly principal: Principal;
  /**
   * The session outlives the turn and a person can answer it later (the attach daemon's
   * sessions, a headless run's stored session): the questions wait with it. False where asking
   * is off (`--ask off`, watch's incidents): the call is refused.
   */
  readonly answersLater: boolean;
}

declare module '../framework/services.ts' {
  interface ToolServices {
    /** Plan-first's recorder (record_plan), absent when permissions.plan_mode is off; the gate asks it too. */
    readonly plans?: PlanRecorder | undefined;
    /** permissions.plan_mode when it is on (record_plan's description says what it unblocks). */
    readonly planMode?: PlanMode | undefined;
    /** The root's word that this session's questions may be answered after the turn (attach sessions). */
    readonly answersLater?: boolean | undefined;
    readonly questionDesk?: QuestionDesk | undefined;
  }
}

/** The plan recorder, when permissions.plan_mode is advisory or required; the question desk always. */
export const services: FamilyServices = async (ctx) => {
  // Later answers need someone to give them: a headless run with an asker (it refuses inline
  // asking) stores its questions too, to be answered through a daemon over the same log.
  const answersLater =
    ctx.services.answersLater === true || (ctx.services.asker !== undefined && ctx.services.asker.askQuestions === undefined);
  const questionDesk: QuestionDesk = { principal: ctx.principal, answersLater };
  const mode = ctx.recipe.permissions?.plan_mode;
  if (mode === undefined || mode === 'off') return { questionDesk };
  const { PlanRecorder } = await import('./plan-recorder.ts');
  return { plans: new PlanRecorder(mode, ctx.workspace), planMode: mode, questionDesk };
};

export const missing: MissingReasons = {
  plans: () => 'permissions.plan_mode is off',
  questionDesk: () => 'no session to ask in',
};
