import { BUILTIN_TOOL_NAMES } from '../config/tool-names.ts';
import type { AlertTarget } from '../net/alert-targets.ts';
import type { SearchProvider } from '../net/search-providers.ts';
import type { UrlScope } from '../net/url-scope.ts';
import { jsonQueryTool } from './data/json-query.ts';
import { retrieveRawTool } from './data/retrieve-raw.ts';
import { waitAndVerifyTool } from './verify/wait-and-verify.ts';
import { k8sApiResourcesTool } from './k8s/k8s-api-resources.ts';
import { k8sEventsTool } from './k8s/k8s-events.ts';
import { k8sGetTool } from './k8s/k8s-get.ts';
import { k8sListTool } from './k8s/k8s-list.ts';
import { k8sLogsTool } from './k8s/k8s-logs.ts';
import { k8sRolloutStatusTool } from './k8s/k8s-rollout-status.ts';
import { deleteFileTool } from './files/delete-file.ts';
import { editFileTool } from './files/edit-file.ts';
import { listDirTool } from './files/list-dir.ts';
import { readFileTool } from './files/read-file.ts';
import { readManyFilesTool } from './files/read-many-files.ts';
import { statTool } from './files/stat.ts';
import { writeFileTool } from './files/write-file.ts';
import { alertTool } from './network/alert.ts';
import { fetchUrlTool } from './network/fetch-url.ts';
import { webFetchTool } from './network/web-fetch.ts';
import { webSearchTool } from './network/web-search.ts';
import { askUserTool } from './planning/ask-user.ts';
import { markTaskDoneTool } from './planning/mark-task-done.ts';
import type { PlanMode } from './planning/plan-recorder.ts';
import { recordPlanTool } from './planning/record-plan.ts';
import { skillTool } from './planning/skill.ts';
import type { Skill } from '../skills/skills.ts';
import { scheduleNextTurnTool } from './planning/schedule-next-turn.ts';
import { todoTool } from './planning/todo.ts';
import { globTool } from './search/glob.ts';
import { grepTool } from './search/grep.ts';
import type { SessionState } from './session.ts';
import { bashTool } from './shell/bash.ts';
import { shellAvailable } from './shell/run-shell.ts';
import { terminalKillTool } from './shell/terminal-kill.ts';
import { terminalOutputTool } from './shell/terminal-output.ts';
import { terminalWriteTool } from './shell/terminal-write.ts';
import { waitJoinTool } from './shell/wait-join.ts';
import type { SearchGateMode } from './shell/search-gate.ts';
import type { AnyTool } from './tool.ts';

/** What the recipe and the environment decide about the tools' shapes. */
export interface BuiltinOptions {
  /** record_plan's description depends on it. */
  planMode?: PlanMode | undefined;
  /** bash's description and precheck depend on it. */
  searchGate?: SearchGateMode | undefined;
  /** fetch_url and web_fetch exist only with an allow entry; their descriptions list them. */
  urlScope?: UrlScope | undefined;
  /** web_search exists only with a configured provider. */
  searchProvider?: SearchProvider | undefined;
  searchResults?: number | undefined;
  /** alert exists only with a live target; its description lists them. */
  alertTargets?: readonly AlertTarget[] | undefined;
  /** Installed skills (the skill tool exists only with one). */
  skills?: readonly Skill[] | undefined;
  /** Why the Kubernetes tools are missing, when they are. */
  kubeUnavailable?: string | undefined;
}

/** Every built-in tool this build implements, in canonical catalog order. */
export function builtinTools(opts: BuiltinOptions = {}): readonly AnyTool[] {
  const tools = [
    bashTool(opts.searchGate ?? 'enforce'),
    terminalOutputTool,
    terminalWriteTool,
    terminalKillTool,
    waitJoinTool,
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
    retrieveRawTool,
    waitAndVerifyTool,
    k8sGetTool,
    k8sListTool,
    k8sEventsTool,
    k8sLogsTool,
    k8sRolloutStatusTool,
    k8sApiResourcesTool,
    skillTool(opts.skills ?? []),
    fetchUrlTool(opts.urlScope),
    webFetchTool,
    webSearchTool(opts.searchProvider, opts.searchResults),
    alertTool(opts.alertTargets ?? []),
    todoTool,
    recordPlanTool(opts.planMode ?? 'advisory'),
    askUserTool,
    markTaskDoneTool,
    scheduleNextTurnTool,
  ] as unknown as readonly AnyTool[];
  const names = tools.map((t) => t.name).join(',');
  if (names !== BUILTIN_TOOL_NAMES.join(',')) throw new Error(`built-in tool order mismatch: ${names} vs ${BUILTIN_TOOL_NAMES.join(',')}`);
  return tools;
}

/**
 * Conditional registration: bash where there is a shell; a network tool where
 * the recipe configures it; a session tool where its service is.
 */
export function unavailableInSession(session: SessionState, opts: BuiltinOptions = {}): (tool: AnyTool) => string | null {
  return (tool) => {
    switch (tool.name) {
      case 'bash':
        return shellAvailable() ? null : 'there is no /bin/sh on this system (a distroless image?), so bash is not registered';
      case 'fetch_url':
      case 'web_fetch':
        return session.network ? null : 'permissions.url_scope.allow is empty';
      case 'web_search':
        return opts.searchProvider ? null : 'no web_search provider is configured';
      case 'alert':
        return opts.alertTargets && opts.alertTargets.length > 0 ? null : 'no alert target is configured with its environment set';
      case 'k8s_get':
      case 'k8s_list':
      case 'k8s_events':
      case 'k8s_logs':
      case 'k8s_rollout_status':
      case 'k8s_api_resources':
        return session.kube ? null : (opts.kubeUnavailable ?? 'no Kubernetes cluster is configured');
      case 'skill':
        return opts.skills && opts.skills.length > 0 ? null : 'no skills installed (.agents/skills, skills.dirs)';
      case 'retrieve_raw':
        return session.digests ? null : 'the digest layer is off (--no-mcp-digest, or no session store)';
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
