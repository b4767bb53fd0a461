import { BUILTIN_TOOL_NAMES } from '../config/tool-names.ts';
import { jsonQueryTool } from './data/json-query.ts';
import { deleteFileTool } from './files/delete-file.ts';
import { editFileTool } from './files/edit-file.ts';
import { listDirTool } from './files/list-dir.ts';
import { readFileTool } from './files/read-file.ts';
import { readManyFilesTool } from './files/read-many-files.ts';
import { statTool } from './files/stat.ts';
import { writeFileTool } from './files/write-file.ts';
import { askUserTool } from './planning/ask-user.ts';
import { markTaskDoneTool } from './planning/mark-task-done.ts';
import type { PlanMode } from './planning/plan-recorder.ts';
import { recordPlanTool } from './planning/record-plan.ts';
import { scheduleNextTurnTool } from './planning/schedule-next-turn.ts';
import { todoTool } from './planning/todo.ts';
import { globTool } from './search/glob.ts';
import { grepTool } from './search/grep.ts';
import type { SessionState } from './session.ts';
import { bashTool } from './shell/bash.ts';
import { shellAvailable } from './shell/run-shell.ts';
import type { SearchGateMode } from './shell/search-gate.ts';
import type { AnyTool } from './tool.ts';

/**
 * Every built-in tool this build implements, in canonical catalog order.
 * record_plan's description depends on the plan mode (advisory or required).
 */
export function builtinTools(planMode: PlanMode = 'advisory', searchGate: SearchGateMode = 'enforce'): readonly AnyTool[] {
  const tools = [
    bashTool(searchGate),
    readFileTool,
    readManyFilesTool,
    writeFileTool,
    editFileTool,
    deleteFileTool,
    statTool,
    listDirTool,
    globTool,
    grepTool,
    jsonQueryTool,
    todoTool,
    recordPlanTool(planMode),
    askUserTool,
    markTaskDoneTool,
    scheduleNextTurnTool,
  ] as unknown as readonly AnyTool[];
  const names = tools.map((t) => t.name).join(',');
  if (names !== BUILTIN_TOOL_NAMES.join(',')) throw new Error(`built-in tool order mismatch: ${names} vs ${BUILTIN_TOOL_NAMES.join(',')}`);
  return tools;
}

/** Conditional registration: bash where there is a shell; a session tool where its service is. */
export function unavailableInSession(session: SessionState): (tool: AnyTool) => string | null {
  return (tool) => {
    switch (tool.name) {
      case 'bash':
        return shellAvailable() ? null : 'there is no /bin/sh on this system (a distroless image?), so bash is not registered';
      case 'record_plan':
        return session.plans ? null : 'permissions.plan_mode is off';
      case 'ask_user':
        return session.asker ? null : '--ask is off';
      case 'mark_task_done':
        return session.checkpointer ? null : 'no session checkpoints here (tools call, or --checkpoint=operator)';
      case 'schedule_next_turn':
        return session.scheduler ? null : 'not an autonomous run (run --autonomous)';
      default:
        return null;
    }
  };
}
