/**
 * Plan-first (permissions.plan_mode: required) as data. The test registers every
 * built-in tool (and an MCP server's) and calls each one before the plan:
 *
 *   - a tool named in RUNS_BEFORE_PLAN is local — it reads, or keeps the session's
 *     own books — and must run before the plan (`ok`: it succeeds here; otherwise it
 *     fails for a reason of its own, never plan-first);
 *   - every other registered tool must be refused until record_plan: it changes
 *     state, or reaches outside the machine (the network, the cluster API), or is
 *     an MCP tool.
 *
 * A built-in tool in neither table (a new one) is held to the rule by its kind: a
 * local read or the session's own books runs before the plan, anything else waits.
 *
 * GATED_ARGS holds arguments that pass validation, so each call reaches the gate;
 * a tool missing from both tables is called with {} (an MCP tool takes anything).
 */
export const RUNS_BEFORE_PLAN: Readonly<Record<string, { args: Record<string, unknown>; ok: boolean }>> = {
  read_file: { args: { path: 'a.txt' }, ok: true },
  read_many_files: { args: { paths: ['a.txt'] }, ok: true },
  stat: { args: { path: 'a.txt' }, ok: true },
  list_dir: { args: { path: '.' }, ok: true },
  glob: { args: { pattern: '*.txt' }, ok: true },
  grep: { args: { pattern: 'alpha' }, ok: true },
  json_query: { args: { expression: '.k', path: 'data.json' }, ok: true },
  wait_and_verify: { args: { tool: 'stat', args: { path: 'a.txt' }, expect_contains: '"exists":true', timeout_seconds: 5 }, ok: true },
  skill: { args: { name: 'demo' }, ok: true },
  list_skills: { args: {}, ok: true },
  todo: { args: { action: 'list' }, ok: true },
  memory_view: { args: {}, ok: true },
  ask_user: { args: { question: 'Which namespace?' }, ok: true },
  mark_task_done: { args: { detail: 'nothing to do' }, ok: true },
  schedule_next_turn: { args: { wake_in_sec: 60 }, ok: true },
  retrieve_raw: { args: { call_id: 'raw_99' }, ok: false }, // no such payload
  terminal_output: { args: { terminal_id: 't9' }, ok: false }, // no such terminal
  wait_join: { args: { ids: ['t9'] }, ok: false },
};

export const GATED_ARGS: Readonly<Record<string, Record<string, unknown>>> = {
  bash: { command: 'echo hi' },
  spawn_agent: { agent: 'explore', goal: 'read a.txt' },
  terminal_write: { terminal_id: 't9', input: 'x' },
  terminal_kill: { terminal_id: 't9' },
  write_file: { path: 'new.txt', content: 'n' },
  edit_file: { path: 'a.txt', old_string: 'alpha', new_string: 'beta' },
  delete_file: { path: 'del.txt' },
  apply_patch: { patch: '*** Begin Patch\n*** Add File: new2.txt\n+n\n*** End Patch\n' },
  k8s_get: { kind: 'Pod', name: 'web-0', namespace: 'default' },
  k8s_list: { kind: 'pods', namespace: 'default' },
  k8s_events: { namespace: 'default' },
  k8s_logs: { pod: 'web-0', namespace: 'default' },
  k8s_rollout_status: { kind: 'Deployment', name: 'web', namespace: 'default' },
  k8s_api_resources: {},
  fetch_url: { url: 'http://127.0.0.1:9/' },
  web_fetch: { url: 'http://127.0.0.1:9/' },
  agentic_fetch_url: { request: 'What does http://127.0.0.1:9/ say?' },
  web_search: { query: 'crashloopbackoff' },
  alert: { target: 'oncall', level: 'info', summary: 'test' },
  sciontool_status: { status_type: 'blocked', message: 'test' },
  call_peer: { peer: 'prod-1', prompt: 'how many nodes are Ready?' },
  // Memory is one writer tool in core-agent's dialect: even its view waits for the plan.
  memory: { command: 'create', path: '/memories/plan-first.md', file_text: 'x' },
  memory_write: { content: 'x' },
  memory_create: { file: 'plan-first.md', content: 'x' },
  memory_insert: { file: 'MEMORY.md', content: 'x', position: 0 },
  memory_str_replace: { file: 'MEMORY.md', old: 'a', new: 'b' },
  memory_rename: { from: 'MEMORY.md', to: 'other.md' },
  memory_delete: { file: 'MEMORY.md' },
  write_skill_file: { skill: 'mine', file: 'SKILL.md', content: '---\nname: mine\ndescription: d\n---\n' },
  delete_skill: { skill: 'mine' },
};

/** The built-in tools that reach outside the machine: `mcp serve` marks them openWorldHint. */
export const OPEN_WORLD = [
  'bash',
  'k8s_get',
  'k8s_list',
  'k8s_events',
  'k8s_logs',
  'k8s_rollout_status',
  'k8s_api_resources',
  'fetch_url',
  'web_fetch',
  'agentic_fetch_url',
  'web_search',
  'alert',
  'sciontool_status',
  'call_peer',
];
