import type { ServiceName } from '../../src/tools/framework/services.ts';

/**
 * Every built-in tool's traits as they were before kinds existed (readOnly,
 * fileEdit, lifecycle, destructive, openWorld), one line per tool (in
 * the order they had then). A new tool is one line here.
 */
export interface TraitCase {
  tool: string;
  traits: [readOnly: boolean, fileEdit: boolean, lifecycle: boolean, destructive: boolean, openWorld: boolean];
}
const R = false;
export const TRAIT_CASES: readonly TraitCase[] = [
  { tool: 'bash', traits: [R, false, false, true, true] },
  { tool: 'terminal_output', traits: [true, false, false, false, false] },
  { tool: 'terminal_write', traits: [R, false, false, true, false] },
  { tool: 'terminal_kill', traits: [R, false, false, true, false] },
  { tool: 'wait_join', traits: [true, false, false, false, false] },
  { tool: 'read_file', traits: [true, false, false, false, false] },
  { tool: 'read_many_files', traits: [true, false, false, false, false] },
  { tool: 'write_file', traits: [R, true, false, true, false] },
  { tool: 'edit_file', traits: [R, true, false, true, false] },
  { tool: 'delete_file', traits: [R, true, false, true, false] },
  { tool: 'stat', traits: [true, false, false, false, false] },
  { tool: 'list_dir', traits: [true, false, false, false, false] },
  { tool: 'glob', traits: [true, false, false, false, false] },
  { tool: 'grep', traits: [true, false, false, false, false] },
  { tool: 'json_query', traits: [true, false, false, false, false] },
  { tool: 'retrieve_raw', traits: [true, false, false, false, false] },
  { tool: 'wait_and_verify', traits: [true, false, false, false, false] },
  { tool: 'k8s_get', traits: [true, false, false, false, true] },
  { tool: 'k8s_list', traits: [true, false, false, false, true] },
  { tool: 'k8s_events', traits: [true, false, false, false, true] },
  { tool: 'k8s_logs', traits: [true, false, false, false, true] },
  { tool: 'k8s_rollout_status', traits: [true, false, false, false, true] },
  { tool: 'k8s_api_resources', traits: [true, false, false, false, true] },
  { tool: 'skill', traits: [true, false, false, false, false] },
  { tool: 'fetch_url', traits: [true, false, false, false, true] },
  { tool: 'web_fetch', traits: [true, false, false, false, true] },
  { tool: 'web_search', traits: [true, false, false, false, true] },
  { tool: 'alert', traits: [R, false, false, false, true] },
  { tool: 'todo', traits: [R, false, true, false, false] },
  { tool: 'record_plan', traits: [R, false, true, false, false] },
  { tool: 'ask_user', traits: [true, false, true, false, false] },
  { tool: 'mark_task_done', traits: [R, false, true, false, false] },
  { tool: 'schedule_next_turn', traits: [R, false, true, false, false] },
];

/**
 * Conditional registration: with this service missing, the tool is left out
 * and the start-up log says why (the reasons the old name switch gave).
 */
export interface NeedCase {
  tool: string;
  missing: ServiceName;
  reason: string | RegExp;
}
export const NEED_CASES: readonly NeedCase[] = [
  { tool: 'bash', missing: 'shell', reason: 'there is no /bin/sh on this system (a distroless image?), so bash is not registered' },
  { tool: 'fetch_url', missing: 'network', reason: 'permissions.url_scope.allow is empty' },
  { tool: 'web_fetch', missing: 'network', reason: 'permissions.url_scope.allow is empty' },
  { tool: 'web_search', missing: 'searchProvider', reason: 'no web_search provider is configured' },
  { tool: 'alert', missing: 'alertTargets', reason: 'no alert target is configured with its environment set' },
  { tool: 'k8s_get', missing: 'kube', reason: 'no Kubernetes cluster is configured' },
  { tool: 'k8s_list', missing: 'kube', reason: 'no Kubernetes cluster is configured' },
  { tool: 'k8s_events', missing: 'kube', reason: 'no Kubernetes cluster is configured' },
  { tool: 'k8s_logs', missing: 'kube', reason: 'no Kubernetes cluster is configured' },
  { tool: 'k8s_rollout_status', missing: 'kube', reason: 'no Kubernetes cluster is configured' },
  { tool: 'k8s_api_resources', missing: 'kube', reason: 'no Kubernetes cluster is configured' },
  { tool: 'skill', missing: 'skillStore', reason: 'no skills installed (.agents/skills, skills.dirs)' },
  { tool: 'list_skills', missing: 'skillStore', reason: 'no skills installed (.agents/skills, skills.dirs)' },
  { tool: 'write_skill_file', missing: 'skillStore', reason: 'no skills installed (.agents/skills, skills.dirs)' },
  { tool: 'delete_skill', missing: 'skillStore', reason: 'no skills installed (.agents/skills, skills.dirs)' },
  { tool: 'retrieve_raw', missing: 'digests', reason: 'the digest layer is off (--no-mcp-digest, or no session store)' },
  { tool: 'record_plan', missing: 'plans', reason: 'permissions.plan_mode is off' },
  { tool: 'ask_user', missing: 'asker', reason: '--ask is off' },
  { tool: 'mark_task_done', missing: 'checkpointer', reason: 'no session checkpoints here (tools call, or --checkpoint=operator)' },
  { tool: 'schedule_next_turn', missing: 'scheduler', reason: 'not an autonomous run (run --autonomous)' },
  { tool: 'enter_worktree', missing: 'git', reason: 'git is not on the PATH commands run with, so enter_worktree is not registered' },
];

/** MCP hints → traits (readOnly, destructive, openWorld in; the five traits out). */
export const HINT_CASES: ReadonlyArray<{ hints: [boolean, boolean, boolean]; traits: TraitCase['traits'] }> = [
  { hints: [true, false, false], traits: [true, false, false, false, false] },
  { hints: [true, false, true], traits: [true, false, false, false, true] },
  // destructiveHint means nothing for a read-only tool (the MCP spec).
  { hints: [true, true, false], traits: [true, false, false, false, false] },
  { hints: [true, true, true], traits: [true, false, false, false, true] },
  { hints: [false, false, false], traits: [false, false, false, false, false] },
  { hints: [false, false, true], traits: [false, false, false, false, true] },
  { hints: [false, true, false], traits: [false, false, false, true, false] },
  { hints: [false, true, true], traits: [false, false, false, true, true] },
];
