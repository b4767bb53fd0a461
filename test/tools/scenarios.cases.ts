import type { Dialect } from '../../src/core/dialects.ts';
import type { Scenario } from '../../src/tools/framework/scenario.ts';

/**
 * Per-scenario offers (src/tools/framework/scenario.ts), one line per built-in tool, run by
 * scenarios.test.ts: the scenarios whose catalogs leave the tool out, and in which dialects.
 * A tool missing here fails the test: a new tool says where it is offered before it ships.
 * Anything not listed is offered. `chat` (a run's top-level session) leaves nothing out yet;
 * `scheduled_task` and `situation_triage` are reserved for the issues that add them.
 */
export interface ScenarioCase {
  tool: string;
  /** Left out of these scenarios' catalogs, in these dialects. */
  out: Partial<Record<Scenario, readonly Dialect[]>>;
  why: string;
}

const ALL: readonly Dialect[] = ['core-agent', 'cagent', 'golem'];
const offered = (tool: string, why: string): ScenarioCase => ({ tool, out: {}, why });
const notToChild = (tool: string, why: string, dialects: readonly Dialect[] = ALL): ScenarioCase => ({
  tool,
  out: { subagent: dialects },
  why,
});

// prettier-ignore
export const SCENARIO_CASES: ScenarioCase[] = [
  offered('bash', 'the parent\'s gate and path decide, as for every child call'),
  offered('terminal_kill', 'the child\'s own terminals'),
  offered('terminal_output', 'the child\'s own terminals'),
  offered('terminal_write', 'the child\'s own terminals'),
  notToChild('wait_join', 'Cagent\'s delegated agent has no wait_join; core-agent\'s and golem\'s children keep it for their terminals', ['cagent']),
  offered('apply_patch', 'a file edit, gated'),
  offered('delete_file', 'a file edit, gated'),
  offered('edit_file', 'a file edit, gated'),
  offered('list_dir', 'a read'),
  offered('read_file', 'a read'),
  offered('read_many_files', 'a read'),
  offered('stat', 'a read'),
  offered('view_file_outline', 'a read'),
  offered('write_file', 'a file edit, gated'),
  offered('glob', 'a search'),
  offered('grep', 'a search'),
  offered('change_working_directory', 'the child\'s own session'),
  offered('enter_worktree', 'the child\'s own session'),
  offered('json_query', 'a read'),
  offered('retrieve_raw', 'a read of the run\'s raw store'),
  offered('wait_and_verify', 'a read that polls'),
  offered('k8s_api_resources', 'a cluster read'),
  offered('k8s_events', 'a cluster read'),
  offered('k8s_get', 'a cluster read'),
  offered('k8s_list', 'a cluster read'),
  offered('k8s_logs', 'a cluster read'),
  offered('k8s_rollout_status', 'a cluster read'),
  offered('skill', 'the profile\'s skills (agents.profiles.<p>.skills)'),
  offered('list_skills', 'the profile\'s skills (agents.profiles.<p>.skills)'),
  notToChild('write_skill_file', 'the user\'s skills are their standing instructions: a child reads them, never rewrites them'),
  notToChild('delete_skill', 'the user\'s skills are their standing instructions: a child never deletes one'),
  offered('alert', 'a send, gated'),
  offered('fetch_url', 'a read, url_scope'),
  offered('web_fetch', 'a read, url_scope'),
  offered('web_search', 'a read'),
  notToChild('ask_user', 'golem\'s subagents cannot ask the user (SubagentScenario); core-agent\'s and Cagent\'s children ask through the parent\'s operator', ['golem']),
  offered('current_time', 'a read'),
  notToChild('mark_task_done', 'it asks the parent\'s checkpointer: a child would end a task not its own'),
  offered('record_plan', 'a child\'s plan is filed under its own name and session'),
  notToChild('ask_user_question', "golem's subagents cannot ask the user; its questions wait for a person, never a parent"),
  notToChild('request_user_input', 'golem\'s subagents cannot ask the user; Cagent\'s delegated agent keeps it', ['golem']),
  notToChild('schedule_next_turn', 'a schedule tool: it would schedule the parent\'s next turn'),
  offered('todo', 'the child\'s own checklist'),
  notToChild('update_plan', 'Cagent\'s delegated agent has no update_plan; golem\'s children keep TodoWrite', ['cagent']),
  offered('memory', 'the same user\'s memory as the parent\'s, gated like a file edit'),
  offered('memory_create', 'the same user\'s memory as the parent\'s, gated like a file edit'),
  offered('memory_delete', 'the same user\'s memory as the parent\'s, gated like a file edit'),
  offered('memory_insert', 'the same user\'s memory as the parent\'s, gated like a file edit'),
  offered('memory_rename', 'the same user\'s memory as the parent\'s, gated like a file edit'),
  offered('memory_str_replace', 'the same user\'s memory as the parent\'s, gated like a file edit'),
  offered('memory_view', 'the same user\'s memory as the parent\'s, a read'),
  offered('memory_write', 'the same user\'s memory as the parent\'s, gated like a file edit'),
  notToChild('sciontool_status', 'it reports the agent\'s own state to the hub: a child would report its parent\'s wrongly'),
  offered('call_peer', 'a peer call, gated per peer'),
  notToChild('delegate_agent', 'Cagent: a delegated agent\'s depth is structurally 1'),
  notToChild('spawn_agent', 'a child inheriting does not delegate (a core-agent profile that lists it does, to max_depth)'),
  notToChild('stop_agent', 'goes with spawn_agent'),
  notToChild('wait_agent', 'goes with spawn_agent'),
  notToChild('agentic_fetch_url', 'a delegation'),
  notToChild('agentic_grep', 'a delegation'),
  notToChild('agentic_read_file', 'a delegation'),
  notToChild('agentic_research', 'a delegation'),
];
