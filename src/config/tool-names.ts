/**
 * The canonical names of the built-in tools this build implements, in catalog
 * order. Recipes and --disable-tools are checked against this list, so a name
 * from a newer build is an error here rather than a silent no-op. A tool joins
 * the list when it is finished, not before. bash exists only where /bin/sh does;
 * the network tools only where the recipe configures them (url_scope.allow,
 * web_search, alerts); the last five are session tools, registered only where
 * their service exists.
 */
export const BUILTIN_TOOL_NAMES = [
  'bash',
  'terminal_output',
  'terminal_write',
  'terminal_kill',
  'wait_join',
  'read_file',
  'read_many_files',
  'write_file',
  'edit_file',
  'delete_file',
  'stat',
  'list_dir',
  'glob',
  'grep',
  'json_query',
  'retrieve_raw',
  'wait_and_verify',
  'k8s_get',
  'k8s_list',
  'k8s_events',
  'k8s_logs',
  'k8s_rollout_status',
  'k8s_api_resources',
  'skill',
  'fetch_url',
  'web_fetch',
  'web_search',
  'alert',
  'todo',
  'record_plan',
  'ask_user',
  'mark_task_done',
  'schedule_next_turn',
] as const;

export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

export function isBuiltinToolName(name: string): name is BuiltinToolName {
  return (BUILTIN_TOOL_NAMES as readonly string[]).includes(name);
}
