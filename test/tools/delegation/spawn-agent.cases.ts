/**
 * spawn_agent through the built CLI on a replay model (spawn-agent.test.ts): the parent's and
 * the children's model calls come from one script in the order they happen — a child that is
 * waited for runs between its parent's calls. Each case: the recipe's agents: section, the
 * script, and what the parent's spawn_agent result must hold.
 */
export interface SpawnCase {
  name: string;
  /** The recipe (YAML/JSON): permissions, agents. */
  recipe?: Record<string, unknown>;
  /** The replay script: the parent's calls and the children's, in order. */
  script: object[];
  /** Fields the first spawn_agent result must have (a RegExp for strings). */
  result: Record<string, unknown>;
  /** The run's flags (default --yolo). */
  flags?: string[];
  /** The first child's tool calls, in order: each one's name and whether it ran. */
  childCalls?: Array<{ name: string; ok: boolean }>;
  /** What the first child's first failed call said. */
  childError?: RegExp;
  /** Fields the first child's own first spawn_agent result must have. */
  childResult?: Record<string, unknown>;
  /** Sessions the log must hold beside the parent's, by agent name. */
  children?: string[];
  /** The model is priced (recipe context.price): the children's cost must show in the run's. */
  cost?: boolean;
}

const spawn = (args: Record<string, unknown>) => ({ tool_calls: [{ name: 'spawn_agent', args }] });
const read = (path: string) => ({ tool_calls: [{ name: 'read_file', args: { path } }] });
const text = (t: string) => ({ text: t });
const LEAD = { description: 'leads', tools: ['spawn_agent', 'read_file'] };
// $1,000 per million tokens: a replayed call (about 4 characters a token) costs cents.
const PRICED = { context: { price: { input: 1000, output: 1000 } } };

// One case a line (prettier would spread each over several).
// prettier-ignore
export const SPAWN_CASES: SpawnCase[] = [
  { name: 'ask mode, headless, no rule for the profile: the spawn itself is refused by the gate', flags: ['--allow', 'tool.spawn_agent:explore'], script: [spawn({ agent: 'general', goal: 'x' }), text('ok')], result: { error: /permission|approv|denied|refused/i }, children: [] },
  { name: 'explore reads a file and answers: natural, its answer returned', script: [spawn({ agent: 'explore', goal: 'What does notes.txt say?' }), read('notes.txt'), text('notes.txt says: the cache is cold.'), text('ok')], result: { name: 'explore-1', status: 'done', stop_reason: 'natural', final_text: 'notes.txt says: the cache is cold.' }, children: ['explore-1'] },
  { name: 'a name of its own', script: [spawn({ agent: 'general', name: 'reader', goal: 'say hi' }), text('hi'), text('ok')], result: { name: 'reader', stop_reason: 'natural', final_text: 'hi' }, children: ['reader'] },
  { name: 'an unknown profile: a result saying which exist, no child', script: [spawn({ agent: 'nobody', goal: 'x' }), text('ok')], result: { status: /^error: no agent profile "nobody"; the profiles are general, explore/ }, children: [] },
  { name: 'tools that widen the grant: refused, naming them', script: [spawn({ agent: 'explore', goal: 'x', tools: ['read_file', 'write_file'] }), text('ok')], result: { status: /^error: tools may only narrow the explore profile's grant; not in it: write_file/ }, children: [] },
  { name: 'a profile that is its own ancestor: refused', recipe: { agents: { profiles: { lead: LEAD } } }, script: [spawn({ agent: 'lead', goal: 'delegate' }), spawn({ agent: 'lead', goal: 'again' }), text('could not'), text('ok')], result: { name: 'lead-1', stop_reason: 'natural', final_text: 'could not' }, childResult: { status: /^error: lead is one of this agent's own ancestors \(lead-1\)/ }, children: ['lead-1'] },
  { name: 'past max_depth: refused inside the child', recipe: { agents: { max_depth: 1, profiles: { lead: LEAD } } }, script: [spawn({ agent: 'lead', goal: 'delegate' }), spawn({ agent: 'explore', goal: 'deeper' }), text('too deep'), text('ok')], result: { name: 'lead-1', final_text: 'too deep' }, childResult: { status: /^error: a child at depth 2 would pass the depth limit \(agents\.max_depth: 1\)/ }, children: ['lead-1'] },
  { name: 'past a profile’s max_depth: refused inside the child, naming the profile’s limit', recipe: { agents: { profiles: { lead: LEAD, explore: { description: 'shallow explorer', read_only: true, max_depth: 1 } } } }, script: [spawn({ agent: 'lead', goal: 'delegate' }), spawn({ agent: 'explore', goal: 'deeper' }), text('too deep for explore'), text('ok')], result: { name: 'lead-1', final_text: 'too deep for explore' }, childResult: { status: /^error: explore may run at depth 1 at most \(agents\.profiles\.explore\.max_depth\), and this child would be at depth 2/ }, children: ['lead-1'] },
  { name: 'within a profile’s max_depth: spawned', recipe: { agents: { profiles: { lead: { ...LEAD, max_depth: 1 } } } }, script: [spawn({ agent: 'lead', goal: 'delegate' }), text('led'), text('ok')], result: { name: 'lead-1', final_text: 'led' }, children: ['lead-1'] },
  { name: 'max_turns reached: max_steps, the answer marked unfinished', script: [spawn({ agent: 'explore', goal: 'read twice', max_turns: 1 }), read('notes.txt'), text('partial: cold'), text('ok')], result: { name: 'explore-1', stop_reason: 'max_steps', final_text: /^\[unfinished: it ran out of turns\]\n\npartial: cold$/, guidance: /ran out of turns/ }, children: ['explore-1'] },
  { name: 'a read-only child calling a writer its parent has: refused, naming its grant, not the recipe', script: [spawn({ agent: 'explore', goal: 'write x.txt' }), { tool_calls: [{ name: 'write_file', args: { path: 'x.txt', content: 'x' } }] }, text('I may not write'), text('ok')], result: { name: 'explore-1', final_text: 'I may not write' }, childCalls: [{ name: 'write_file', ok: false }], childError: /^write_file is not registered: agent explore-1 was not granted it \(profile explore, read-only\)/, children: ['explore-1'] },
  { name: 'a child calling a tool its spawn narrowed away: refused, naming the narrowing', script: [spawn({ agent: 'general', goal: 'read', tools: ['grep'] }), read('notes.txt'), text('could not read'), text('ok')], result: { name: 'general-1', final_text: 'could not read' }, childCalls: [{ name: 'read_file', ok: false }], childError: /^read_file is not registered: agent general-1 was not granted it \(profile general, narrowed by its spawn\)/, children: ['general-1'] },
  { name: 'a child that answers nothing: no_return with guidance', script: [spawn({ agent: 'general', goal: 'nothing' }), text(''), text('ok')], result: { stop_reason: 'no_return', guidance: /without an answer/ }, children: ['general-1'] },
  { name: 'agents.max_concurrent: 0: spawn_agent is not offered at all', recipe: { agents: { max_concurrent: 0 } }, script: [spawn({ agent: 'explore', goal: 'x' }), text('ok')], result: { error: /delegation is off in this recipe \(agents\.max_concurrent: 0\)/ }, children: [] },
  { name: 'a lead spawning explore: two levels, each linked to its parent', recipe: { agents: { profiles: { lead: LEAD } } }, script: [spawn({ agent: 'lead', goal: 'delegate the reading' }), spawn({ agent: 'explore', goal: 'read notes.txt' }), read('notes.txt'), text('cold'), text('explore says cold'), text('ok')], result: { name: 'lead-1', final_text: 'explore says cold' }, childResult: { name: 'explore-1', final_text: 'cold' }, children: ['explore-1', 'lead-1'] },
  { name: 'a child over its cost budget mid-turn: stopped at once, its work marked unfinished', recipe: PRICED, cost: true, script: [spawn({ agent: 'explore', goal: 'read notes.txt', max_cost_usd: 0.001 }), { text: 'reading', tool_calls: [{ name: 'read_file', args: { path: 'notes.txt' } }] }, text('ok')], result: { name: 'explore-1', stop_reason: 'budget', final_text: /^\[unfinished: it hit its cost budget\]\n\nreading$/, guidance: /budget/ }, children: ['explore-1'] },
  { name: 'a priced child: its cost rolls up into the parent\'s turn and the run', recipe: PRICED, cost: true, script: [spawn({ agent: 'explore', goal: 'What does notes.txt say?' }), read('notes.txt'), text('cold'), text('ok')], result: { name: 'explore-1', stop_reason: 'natural', final_text: 'cold' }, children: ['explore-1'] },
  { name: 'two levels priced: the grandchild\'s cost reaches the run through its parent', recipe: { ...PRICED, agents: { profiles: { lead: LEAD } } }, cost: true, script: [spawn({ agent: 'lead', goal: 'delegate the reading' }), spawn({ agent: 'explore', goal: 'read notes.txt' }), read('notes.txt'), text('cold'), text('explore says cold'), text('ok')], result: { name: 'lead-1', final_text: 'explore says cold' }, children: ['explore-1', 'lead-1'] },
  { name: 'ask mode, headless: the spawn allowed by a rule, the child\'s write refused by the parent\'s gate', flags: ['--allow', 'tool.spawn_agent:general'], script: [spawn({ agent: 'general', goal: 'write x.txt' }), { tool_calls: [{ name: 'write_file', args: { path: 'x.txt', content: 'x' } }] }, text('I could not write it'), text('ok')], result: { name: 'general-1', final_text: 'I could not write it' }, childCalls: [{ name: 'write_file', ok: false }], children: ['general-1'] },
];
