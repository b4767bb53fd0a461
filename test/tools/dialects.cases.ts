import type { Dialect } from '../../src/core/dialects.ts';

/**
 * Catalog dialects (src/tools/framework/dialect.ts), one case a line, run by dialects.test.ts
 * against the built-in catalog with every service present. `offers`: the name the model sees
 * for the job in that dialect; `not`: names of other dialects' tools for the same job, which
 * must not be offered beside it.
 */
export interface DialectCase {
  dialect: Dialect;
  job: string;
  offers: string;
  not: string[];
}

// prettier-ignore
export const DIALECT_CASES: DialectCase[] = [
  { dialect: 'core-agent', job: 'plan checklist', offers: 'todo', not: ['update_plan', 'TodoWrite'] },
  { dialect: 'cagent', job: 'plan checklist', offers: 'update_plan', not: ['todo', 'TodoWrite'] },
  { dialect: 'golem', job: 'plan checklist', offers: 'TodoWrite', not: ['todo', 'update_plan'] },
  { dialect: 'core-agent', job: 'ask the user', offers: 'ask_user', not: ['request_user_input', 'AskUserQuestionTool'] },
  { dialect: 'cagent', job: 'ask the user', offers: 'request_user_input', not: ['ask_user', 'AskUserQuestionTool'] },
  { dialect: 'golem', job: 'ask the user', offers: 'AskUserQuestionTool', not: ['ask_user', 'request_user_input'] },
  { dialect: 'core-agent', job: 'read a file', offers: 'read_file', not: ['ReadFile'] },
  { dialect: 'cagent', job: 'read a file (Cagent has none: core-agent\'s)', offers: 'read_file', not: ['ReadFile'] },
  { dialect: 'golem', job: 'read a file', offers: 'ReadFile', not: ['read_file'] },
  { dialect: 'core-agent', job: 'write a file', offers: 'write_file', not: ['WriteFile', 'apply_patch'] },
  { dialect: 'cagent', job: 'write a file', offers: 'apply_patch', not: ['write_file', 'WriteFile'] },
  { dialect: 'golem', job: 'write a file', offers: 'WriteFile', not: ['write_file', 'apply_patch'] },
  { dialect: 'core-agent', job: 'edit a file', offers: 'edit_file', not: ['apply_patch'] },
  { dialect: 'cagent', job: 'edit a file', offers: 'apply_patch', not: ['edit_file'] },
  { dialect: 'golem', job: 'edit a file (golem has none: core-agent\'s)', offers: 'edit_file', not: ['apply_patch'] },
  { dialect: 'cagent', job: 'delete a file', offers: 'apply_patch', not: ['delete_file'] },
  { dialect: 'golem', job: 'list a directory', offers: 'ListFiles', not: ['list_dir'] },
  { dialect: 'core-agent', job: 'list a directory', offers: 'list_dir', not: ['ListFiles'] },
  { dialect: 'golem', job: 'search contents', offers: 'GrepFiles', not: ['grep'] },
  { dialect: 'cagent', job: 'search contents', offers: 'grep', not: ['GrepFiles'] },
  { dialect: 'golem', job: 'the clock', offers: 'CurrentDateTime', not: ['current_time'] },
  { dialect: 'core-agent', job: 'the clock', offers: 'current_time', not: ['CurrentDateTime'] },
  { dialect: 'core-agent', job: 'fetch a URL', offers: 'fetch_url', not: ['web_fetch'] },
  { dialect: 'cagent', job: 'fetch a URL', offers: 'web_fetch', not: ['fetch_url'] },
  { dialect: 'golem', job: 'fetch a URL (golem has none: core-agent\'s)', offers: 'fetch_url', not: ['web_fetch'] },
  { dialect: 'core-agent', job: 'a shell (core-agent and Cagent share bash)', offers: 'bash', not: [] },
  { dialect: 'cagent', job: 'a shell', offers: 'bash', not: [] },
  { dialect: 'core-agent', job: 'worktrees (only Cagent has them: in every dialect)', offers: 'enter_worktree', not: [] },
  { dialect: 'golem', job: 'worktrees', offers: 'enter_worktree', not: [] },
  { dialect: 'golem', job: 'background terminals (Cagent\'s only)', offers: 'terminal_output', not: [] },
  { dialect: 'cagent', job: 'verification (core-agent\'s only)', offers: 'wait_and_verify', not: [] },
  { dialect: 'golem', job: 'plan-first (core-agent\'s only)', offers: 'record_plan', not: [] },
  { dialect: 'core-agent', job: 'delegate', offers: 'spawn_agent', not: ['StartSubagent'] },
  { dialect: 'golem', job: 'delegate', offers: 'StartSubagent', not: ['spawn_agent'] },
  { dialect: 'golem', job: 'wait for a child', offers: 'WaitForSubagent', not: ['wait_agent'] },
  { dialect: 'golem', job: 'stop a child', offers: 'CancelSubagent', not: ['stop_agent'] },
  { dialect: 'core-agent', job: 'wait for a child', offers: 'wait_agent', not: ['WaitForSubagent'] },
  { dialect: 'golem', job: 'read through a sub-agent (core-agent\'s only: in every dialect)', offers: 'agentic_read_file', not: [] },
  { dialect: 'cagent', job: 'search through a sub-agent', offers: 'agentic_grep', not: [] },
  { dialect: 'cagent', job: 'delegate', offers: 'delegate_agent', not: ['spawn_agent', 'StartSubagent'] },
  { dialect: 'core-agent', job: 'delegate (Cagent\'s delegate_agent only under cagent)', offers: 'spawn_agent', not: ['delegate_agent'] },
  { dialect: 'golem', job: 'delegate (no delegate_agent beside StartSubagent)', offers: 'StartSubagent', not: ['delegate_agent'] },
  { dialect: 'cagent', job: 'wait for a child (wait_join, over terminals and agents)', offers: 'wait_join', not: ['wait_agent', 'WaitForSubagent'] },
  { dialect: 'cagent', job: 'stop a child (Cagent has none: neither stop_agent nor CancelSubagent)', offers: 'terminal_kill', not: ['stop_agent', 'CancelSubagent'] },
  { dialect: 'core-agent', job: 'memory (Anthropic\'s memory tool)', offers: 'memory', not: ['MemoryView', 'MemoryWrite', 'MemoryCreate', 'MemoryInsert', 'MemoryStrReplace', 'MemoryRename', 'MemoryDelete'] },
  { dialect: 'cagent', job: 'memory (Cagent has none: core-agent\'s)', offers: 'memory', not: ['MemoryView', 'MemoryWrite', 'MemoryCreate', 'MemoryInsert', 'MemoryStrReplace', 'MemoryRename', 'MemoryDelete'] },
  { dialect: 'golem', job: 'memory: MemoryView', offers: 'MemoryView', not: ['memory'] },
  { dialect: 'golem', job: 'memory: MemoryWrite', offers: 'MemoryWrite', not: ['memory'] },
  { dialect: 'golem', job: 'memory: MemoryCreate', offers: 'MemoryCreate', not: ['memory'] },
  { dialect: 'golem', job: 'memory: MemoryInsert', offers: 'MemoryInsert', not: ['memory'] },
  { dialect: 'golem', job: 'memory: MemoryStrReplace', offers: 'MemoryStrReplace', not: ['memory'] },
  { dialect: 'golem', job: 'memory: MemoryRename', offers: 'MemoryRename', not: ['memory'] },
  { dialect: 'golem', job: 'memory: MemoryDelete', offers: 'MemoryDelete', not: ['memory'] },
  { dialect: 'golem', job: 'read a skill', offers: 'ReadSkillFile', not: ['skill'] },
  { dialect: 'core-agent', job: 'read a skill', offers: 'skill', not: ['ReadSkillFile'] },
  { dialect: 'cagent', job: 'read a skill (Cagent has none: core-agent\'s)', offers: 'skill', not: ['ReadSkillFile'] },
  { dialect: 'golem', job: 'list skills', offers: 'ListSkills', not: ['list_skills'] },
  { dialect: 'core-agent', job: 'list skills', offers: 'list_skills', not: ['ListSkills'] },
  { dialect: 'cagent', job: 'list skills', offers: 'list_skills', not: ['ListSkills'] },
  { dialect: 'golem', job: 'write a skill file', offers: 'WriteSkillFile', not: ['write_skill_file'] },
  { dialect: 'core-agent', job: 'write a skill file', offers: 'write_skill_file', not: ['WriteSkillFile'] },
  { dialect: 'cagent', job: 'write a skill file', offers: 'write_skill_file', not: ['WriteSkillFile'] },
  { dialect: 'golem', job: 'delete a skill', offers: 'DeleteSkill', not: ['delete_skill'] },
  { dialect: 'core-agent', job: 'delete a skill', offers: 'delete_skill', not: ['DeleteSkill'] },
  { dialect: 'cagent', job: 'delete a skill', offers: 'delete_skill', not: ['DeleteSkill'] },
];
