import type { AnyTool } from '../tool.ts';
import { askUserTool } from './ask-user.ts';
import { markTaskDoneTool } from './mark-task-done.ts';
import { recordPlanTool } from './record-plan.ts';
import { scheduleNextTurnTool } from './schedule-next-turn.ts';
import { todoTool } from './todo.ts';

/** The planning family: the session's own bookkeeping — steps, plans, questions, checkpoints, wake-ups. */
export const tools: readonly AnyTool[] = [todoTool, recordPlanTool, askUserTool, markTaskDoneTool, scheduleNextTurnTool];
