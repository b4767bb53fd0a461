/**
 * Declarative subagents (docs/delegation.md): each profile offered as `agent_<profile>
 * {request}` in core-agent's dialect, run by profile-tools.test.ts through the built CLI on one
 * replay script (a waited-for child's steps come between its parent's). Each case: the recipe,
 * the script, the tool the parent calls and what its result must hold, the tools the parent's
 * session was offered (and not), and the children in the log.
 */
export interface ProfileToolCase {
  name: string;
  /** The recipe (JSON): tools, agents, context. */
  recipe?: Record<string, unknown>;
  script: object[];
  /** The run's flags (default --yolo). */
  flags?: string[];
  /** The tool whose first result is checked, and the fields it must have (a RegExp for strings). */
  tool: string;
  result: Record<string, unknown>;
  /** Canonical names the parent's session must be offered, and must not be. */
  offered?: string[];
  notOffered?: string[];
  /** The first child's tool calls: each one's name and whether it ran. */
  childCalls?: Array<{ name: string; ok: boolean }>;
  /** Names the first child's catalog must not hold. */
  childNotOffered?: string[];
  /** Sessions the log must hold beside the parent's, by agent name. */
  children: string[];
}

const call = (name: string, args: Record<string, unknown>) => ({ tool_calls: [{ name, args }] });
const ask = (profile: string, request: string) => call(`agent_${profile}`, { request });
const read = (path: string) => call('read_file', { path });
const text = (t: string) => ({ text: t });
const READER = { description: 'Reads one file and says what it holds.', tools: ['read_file'] };
const PRICED = { context: { price: { input: 1000, output: 1000 } } };
const ALL_PROFILE_TOOLS = ['agent_general', 'agent_explore'];

// One case a line (prettier would spread each over several).
// prettier-ignore
export const PROFILE_TOOL_CASES: ProfileToolCase[] = [
  { name: 'agent_explore: the child reads and answers, its answer as result', script: [ask('explore', 'What does notes.txt say?'), read('notes.txt'), text('notes.txt says: the cache is cold.'), text('ok')], tool: 'agent_explore', result: { result: 'notes.txt says: the cache is cold.', name: 'explore-1', status: 'done', stop_reason: 'natural', branch: /:sub:explore-1$/ }, offered: [...ALL_PROFILE_TOOLS, 'spawn_agent'], childCalls: [{ name: 'read_file', ok: true }], childNotOffered: [...ALL_PROFILE_TOOLS, 'spawn_agent'], children: ['explore-1'] },
  { name: 'a recipe profile is offered as agent_<profile>, beside the built-in ones', recipe: { agents: { profiles: { 'log-reader': READER } } }, script: [ask('log-reader', 'Read notes.txt'), read('notes.txt'), text('cold'), text('ok')], tool: 'agent_log-reader', result: { result: 'cold', name: 'log-reader-1', stop_reason: 'natural' }, offered: [...ALL_PROFILE_TOOLS, 'agent_log-reader'], children: ['log-reader-1'] },
  { name: 'a profile replacing a built-in one keeps its tool name, once', recipe: { agents: { profiles: { explore: READER } } }, script: [ask('explore', 'Read notes.txt'), read('notes.txt'), text('cold'), text('ok')], tool: 'agent_explore', result: { result: 'cold', profile: 'explore' }, offered: ALL_PROFILE_TOOLS, children: ['explore-1'] },
  { name: 'out of turns: the partial answer under the unfinished header', recipe: { agents: { profiles: { reader: { ...READER, max_turns: 1 } } } }, script: [ask('reader', 'Read notes.txt twice'), read('notes.txt'), text('partial: cold'), text('ok')], tool: 'agent_reader', result: { result: /^\[unfinished: it ran out of turns\]\n\npartial: cold$/, stop_reason: 'max_steps', guidance: /ran out of turns/ }, children: ['reader-1'] },
  { name: 'over its cost budget mid-turn: stopped, its work under the unfinished header', recipe: { ...PRICED, agents: { profiles: { reader: { ...READER, max_cost_usd: 0.001 } } } }, script: [ask('reader', 'Read notes.txt'), { text: 'reading', tool_calls: [{ name: 'read_file', args: { path: 'notes.txt' } }] }, text('ok')], tool: 'agent_reader', result: { result: /^\[unfinished: it hit its cost budget\]\n\nreading$/, stop_reason: 'budget', guidance: /budget/ }, children: ['reader-1'] },
  { name: 'a concurrency refusal is a result, not a failed call', recipe: { agents: { max_concurrent: 1 } }, script: [call('spawn_agent', { agent: 'general', goal: 'sleep', wait: false }), { agent: 'general', tool_calls: [{ name: 'bash', args: { command: 'sleep 5' } }] }, ask('explore', 'x'), text('ok')], tool: 'agent_explore', result: { result: /^Not run: 1 children are running, the most at once \(agents\.max_concurrent: 1\)/, status: /^error: / }, children: ['general-1'] },
  { name: '--deny on spawn_agent:<profile> blocks agent_<profile>: the same key', flags: ['--yolo', '--deny', 'tool.spawn_agent:explore'], script: [ask('explore', 'x'), text('ok')], tool: 'agent_explore', result: { error: /agent_explore: .*(denied|deny)/i }, children: [] },
  { name: 'ask mode, headless: a rule allowing spawn_agent:<profile> is enough (the inner spawn asks, once)', flags: ['--allow', 'tool.spawn_agent:explore'], script: [ask('explore', 'Read notes.txt'), read('notes.txt'), text('cold'), text('ok')], tool: 'agent_explore', result: { result: 'cold' }, children: ['explore-1'] },
  { name: 'ask mode, headless, no rule for the profile: refused by the gate, no child', flags: ['--allow', 'tool.spawn_agent:explore'], script: [ask('general', 'x'), text('ok')], tool: 'agent_general', result: { error: /permission|approv|denied|refused/i }, children: [] },
  { name: 'plan_mode required: the inner spawn waits for record_plan like any spawn, no child', recipe: { permissions: { plan_mode: 'required' } }, script: [ask('explore', 'x'), text('ok')], tool: 'agent_explore', result: { error: /plan-first mode requires record_plan/ }, children: [] },
  { name: 'plan_mode required, a plan recorded first: the child runs', recipe: { permissions: { plan_mode: 'required' } }, script: [call('record_plan', { plan: '1. ask explore what notes.txt says' }), ask('explore', 'Read notes.txt'), read('notes.txt'), text('cold'), text('ok')], tool: 'agent_explore', result: { result: 'cold' }, children: ['explore-1'] },
  { name: 'a child is never offered profile tools; a call to one fails as unregistered', recipe: { agents: { profiles: { lead: { description: 'leads', tools: ['spawn_agent', 'read_file'] } } } }, script: [ask('lead', 'delegate'), ask('explore', 'deeper'), text('could not'), text('ok')], tool: 'agent_lead', result: { result: 'could not' }, childCalls: [{ name: 'agent_explore', ok: false }], childNotOffered: ALL_PROFILE_TOOLS, children: ['lead-1'] },
  { name: 'spawn_agent turned off: no profile tools either', recipe: { tools: { disable: ['spawn_agent'] } }, script: [ask('explore', 'x'), text('ok')], tool: 'agent_explore', result: { error: /unknown tool|not registered|no tool/i }, notOffered: ALL_PROFILE_TOOLS, children: [] },
  { name: 'tools.kinds without delegate, spawn_agent enabled by name: that exception only, no profile tools', recipe: { tools: { kinds: ['read', 'lifecycle'], enable: ['spawn_agent'] } }, script: [ask('explore', 'x'), text('ok')], tool: 'agent_explore', result: { error: /unknown tool|not registered|no tool/i }, offered: ['spawn_agent'], notOffered: ALL_PROFILE_TOOLS, children: [] },
  { name: 'tools.kinds with delegate: offered', recipe: { tools: { kinds: ['read', 'lifecycle', 'delegate'] } }, script: [ask('explore', 'Read notes.txt'), read('notes.txt'), text('cold'), text('ok')], tool: 'agent_explore', result: { result: 'cold' }, offered: ALL_PROFILE_TOOLS, children: ['explore-1'] },
  { name: 'agents.max_concurrent: 0: no profile tools', recipe: { agents: { max_concurrent: 0 } }, script: [ask('explore', 'x'), text('ok')], tool: 'agent_explore', result: { error: /unknown tool|not registered|no tool/i }, notOffered: ALL_PROFILE_TOOLS, children: [] },
  { name: 'cagent dialect: delegate_agent is its shape, no profile tools', recipe: { tools: { dialect: 'cagent' } }, script: [ask('explore', 'x'), text('ok')], tool: 'agent_explore', result: { error: /unknown tool|not registered|no tool/i }, offered: ['delegate_agent'], notOffered: ALL_PROFILE_TOOLS, children: [] },
  { name: 'golem dialect: StartSubagent is its shape, no profile tools', recipe: { tools: { dialect: 'golem' } }, script: [ask('explore', 'x'), text('ok')], tool: 'agent_explore', result: { error: /unknown tool|not registered|no tool/i }, offered: ['spawn_agent'], notOffered: ALL_PROFILE_TOOLS, children: [] },
];
