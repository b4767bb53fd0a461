/**
 * Cagent's delegation shape (`tools.dialect: cagent`): delegate_agent and wait_join over the one
 * engine, through the built CLI on a replay model (delegate-agent.test.ts). The parent's and the
 * children's model calls come from one script: a waited-for child's between its parent's, a child
 * running beside its parent from steps addressed to it (`"agent": <profile>`). Each case: the
 * recipe (merged over `tools.dialect: cagent`), the script, and what the parent's tool results,
 * the first child's calls and catalog, and the log's sessions must hold.
 */
export interface DelegateCase {
  name: string;
  /** Recipe sections beside `tools: {dialect: cagent}` (agents:, permissions). */
  recipe?: Record<string, unknown>;
  /** Further workspace files (a child's own replay script). */
  files?: Record<string, string>;
  /** The replay script: the parent's calls and the children's. */
  script: object[];
  /** The run's flags (default --yolo). */
  flags?: string[];
  /** What the operator types on stdin (with --ask stdin). */
  stdin?: string;
  /** What the run's stderr (where questions go) must show. */
  stderr?: RegExp;
  /** The parent's results, by canonical tool name and occurrence (0 first): fields they must have (a RegExp for strings). */
  results: Array<{ tool: string; nth?: number; want: Record<string, unknown> }>;
  /** The first child's tool calls in order: name, whether it ran, and fields of what it returned. */
  childCalls?: Array<{ name: string; ok: boolean; shown?: Record<string, unknown> }>;
  /** Tools the first child's catalog must have and must not have (its session_start). */
  childTools?: { has: string[]; not: string[] };
  /** The first child's model, as its session_start records it. */
  childModel?: string;
  /** The sessions the log must hold beside the parent's, by agent name. */
  children: string[];
}

const delegate = (args: Record<string, unknown>) => ({
  tool_calls: [{ name: 'delegate_agent', args: { provider: null, model: null, effort: null, wait: true, ...args } }],
});
const call = (name: string, args: Record<string, unknown>, agent?: string) => ({
  ...(agent ? { agent } : {}),
  tool_calls: [{ name, args }],
});
const text = (t: string, agent?: string) => ({ ...(agent ? { agent } : {}), text: t });
const QUESTION = {
  questions: [
    {
      id: 'q1',
      header: 'Pick',
      question: 'Which one?',
      options: [
        { label: 'a', description: 'A' },
        { label: 'b', description: 'B' },
      ],
    },
  ],
};
const FLAT = ['delegate_agent', 'wait_join', 'update_plan', 'spawn_agent', 'wait_agent', 'stop_agent'];
const LISTS_ALL = { description: 'asks for everything', tools: ['delegate_agent', 'wait_join', 'update_plan', 'read_file', 'bash'] };
const ASK = ['--yolo', '--ask', 'auto'];

// One case a line (prettier would spread each over several).
// prettier-ignore
export const DELEGATE_CASES: DelegateCase[] = [
  { name: 'wait true: explore reads a file, its completion envelope returned', script: [delegate({ agent: 'explore', task: 'What does notes.txt say?' }), call('read_file', { path: 'notes.txt' }), text('notes.txt says: the cache is cold.'), text('ok')], results: [{ tool: 'delegate_agent', want: { id: 'explore-1', type: 'agent', done: true, profile: 'explore', status: 'done', stop_reason: 'natural', final_text: 'notes.txt says: the cache is cold.', branch: /:sub:explore-1$/ } }], children: ['explore-1'] },
  { name: 'wait false: an id at once; wait_join over the agent and a background terminal, in the order given', script: [call('bash', { command: 'sleep 0.5; echo built', wait: false }), delegate({ agent: 'explore', task: 'read notes.txt', wait: false }), call('read_file', { path: 'notes.txt' }, 'explore'), text('cold', 'explore'), call('wait_join', { ids: ['explore-1', 't1'], timeout: 60 }), text('ok')], results: [{ tool: 'delegate_agent', want: { id: 'explore-1', type: 'agent', done: false, status: 'running', guidance: /wait_join \{"ids": \["explore-1"\]\}/ } }, { tool: 'wait_join', want: { all_done: true, results: [{ id: 'explore-1', type: 'agent', done: true, stop_reason: 'natural', final_text: 'cold' }, { id: 't1', type: 'terminal', done: true, exit_code: 0, output_tail: 'built\n' }] } }], children: ['explore-1'] },
  { name: 'wait_join, terminal first: the envelopes follow the ids, not the finishing order', script: [delegate({ agent: 'general', task: 'say hi', wait: false }), text('hi', 'general'), call('bash', { command: 'sleep 0.3; echo late', wait: false }), call('wait_join', { ids: ['t1', 'general-1'], timeout: 60 }), text('ok')], results: [{ tool: 'wait_join', want: { all_done: true, results: [{ id: 't1', type: 'terminal', output_tail: 'late\n' }, { id: 'general-1', type: 'agent', final_text: 'hi' }] } }], children: ['general-1'] },
  { name: 'wait_join on ids this session did not start: unknown envelopes, not a failed call', script: [call('bash', { command: 'echo x', wait: false }), call('wait_join', { ids: ['t9', 't1', 'explore-7'], timeout: 30 }), text('ok')], results: [{ tool: 'wait_join', want: { all_done: true, results: [{ id: 't9', type: 'unknown', done: false, error: /^no terminal or agent "t9" in this session; the terminals are t1$/ }, { id: 't1', type: 'terminal', done: true }, { id: 'explore-7', type: 'unknown', error: /no terminal or agent "explore-7"/ }] } }], children: [] },
  { name: 'an unknown profile: a result naming the profiles there are, no child', script: [delegate({ agent: 'nobody', task: 'x' }), text('ok')], results: [{ tool: 'delegate_agent', want: { status: /^error: no agent profile "nobody"; the profiles are general, explore/ } }], children: [] },
  { name: 'an unknown provider: a result naming the known ones, no child', script: [delegate({ agent: 'explore', task: 'x', provider: 'nope', model: 'm-1' }), text('ok')], results: [{ tool: 'delegate_agent', want: { status: /^error: provider "nope" is unknown.*\(known: replay, google, vertex, openai, openai-compatible, anthropic\)$/ } }], children: [] },
  { name: 'a provider without a model: a result saying to give both', script: [delegate({ agent: 'explore', task: 'x', provider: 'openai' }), text('ok')], results: [{ tool: 'delegate_agent', want: { status: /^error: provider "openai" needs a model/ } }], children: [] },
  { name: 'a model without a provider: a result asking for provider:model', script: [delegate({ agent: 'explore', task: 'x', model: 'gpt-9' }), text('ok')], results: [{ tool: 'delegate_agent', want: { status: /^error: model "gpt-9" names no provider: write PROVIDER:MODEL, e.g\. openai:gpt-9/ } }], children: [] },
  { name: 'provider and model override the profile\'s model: the child runs on its own replay script', files: { 'child.jsonl': JSON.stringify({ text: 'from the child script' }) }, script: [delegate({ agent: 'general', task: 'x', provider: 'replay', model: 'child.jsonl' }), text('ok')], results: [{ tool: 'delegate_agent', want: { stop_reason: 'natural', final_text: 'from the child script' } }], childModel: 'replay:child.jsonl', children: ['general-1'] },
  { name: 'model as provider:model, effort given: accepted (effort has no effect yet)', files: { 'child.jsonl': JSON.stringify({ text: 'fine' }) }, script: [delegate({ agent: 'general', task: 'x', model: 'replay:child.jsonl', effort: 'high' }), text('ok')], results: [{ tool: 'delegate_agent', want: { stop_reason: 'natural', final_text: 'fine' } }], childModel: 'replay:child.jsonl', children: ['general-1'] },
  { name: 'an inheriting child has no delegate_agent, wait_join or update_plan, and keeps request_user_input', flags: ASK, script: [delegate({ agent: 'general', task: 'x' }), text('done'), text('ok')], results: [{ tool: 'delegate_agent', want: { final_text: 'done' } }], childTools: { has: ['bash', 'terminal_output', 'request_user_input', 'apply_patch'], not: FLAT }, children: ['general-1'] },
  { name: 'a profile that lists delegate_agent, wait_join and update_plan still gets none of them; its call to one fails', recipe: { agents: { profiles: { lead: LISTS_ALL } } }, script: [delegate({ agent: 'lead', task: 'delegate' }), delegate({ agent: 'explore', task: 'deeper' }), text('could not'), text('ok')], results: [{ tool: 'delegate_agent', want: { id: 'lead-1', final_text: 'could not' } }], childTools: { has: ['read_file', 'bash'], not: FLAT }, childCalls: [{ name: 'delegate_agent', ok: false }], children: ['lead-1'] },
  { name: 'headless (--ask auto, no terminal): a child\'s question is refused, and it answers anyway', flags: ASK, script: [delegate({ agent: 'general', task: 'ask first' }), call('request_user_input', QUESTION), text('no one answered'), text('ok')], results: [{ tool: 'delegate_agent', want: { final_text: 'no one answered' } }], childCalls: [{ name: 'request_user_input', ok: false, shown: { error: /no one can answer here \(running unattended\)/ } }], children: ['general-1'] },
  { name: 'a child\'s question reaches the operator marked with its name and profile, and gets the answer', flags: ['--yolo', '--ask', 'stdin'], stdin: '1\n', script: [delegate({ agent: 'general', task: 'ask first' }), call('request_user_input', QUESTION), text('they chose a'), text('ok')], results: [{ tool: 'delegate_agent', want: { final_text: 'they chose a' } }], stderr: /\[general-1 · general\] Which one\?/, childCalls: [{ name: 'request_user_input', ok: true, shown: { answers: [{ id: 'q1', choice: 'a' }] } }], children: ['general-1'] },
  { name: 'ask mode, headless: the delegation allowed by a rule, the child\'s write refused by the parent\'s gate', flags: ['--allow', 'tool.delegate_agent:general'], script: [delegate({ agent: 'general', task: 'write x.txt' }), call('apply_patch', { patch: '*** Begin Patch\n*** Add File: x.txt\n+x\n*** End Patch' }), text('I could not write it'), text('ok')], results: [{ tool: 'delegate_agent', want: { id: 'general-1', final_text: 'I could not write it' } }], childCalls: [{ name: 'apply_patch', ok: false }], children: ['general-1'] },
  { name: 'deny wins over tools: grep listed and denied is not granted, its call fails', recipe: { agents: { profiles: { reader: { description: 'reads', tools: ['read_file', 'grep'], deny: ['grep'] } } } }, script: [delegate({ agent: 'reader', task: 'find cold' }), call('grep', { pattern: 'cold' }), text('no grep'), text('ok')], results: [{ tool: 'delegate_agent', want: { final_text: 'no grep' } }], childTools: { has: ['read_file'], not: ['grep'] }, childCalls: [{ name: 'grep', ok: false }], children: ['reader-1'] },
  { name: 'deny on an inheriting profile: the parent\'s tools less the denied', recipe: { agents: { profiles: { nobash: { description: 'no shell', deny: ['bash', 'apply_patch'] } } } }, script: [delegate({ agent: 'nobash', task: 'x' }), text('fine'), text('ok')], results: [{ tool: 'delegate_agent', want: { final_text: 'fine' } }], childTools: { has: ['read_file', 'grep'], not: ['bash', 'apply_patch', ...FLAT] }, children: ['nobash-1'] },
  { name: 'gated by profile: a rule for explore does not allow a general delegation (ask mode, headless)', flags: ['--allow', 'tool.delegate_agent:explore'], script: [delegate({ agent: 'general', task: 'x' }), text('ok')], results: [{ tool: 'delegate_agent', want: { error: /permission|approv|denied|refused/i } }], children: [] },
  { name: 'gated by profile: the rule for explore allows an explore delegation', flags: ['--allow', 'tool.delegate_agent:explore'], script: [delegate({ agent: 'explore', task: 'x' }), text('found'), text('ok')], results: [{ tool: 'delegate_agent', want: { id: 'explore-1', stop_reason: 'natural', final_text: 'found' } }], children: ['explore-1'] },
  { name: 'agents.max_concurrent: 0: delegate_agent is not offered', recipe: { agents: { max_concurrent: 0 } }, script: [delegate({ agent: 'explore', task: 'x' }), text('ok')], results: [{ tool: 'delegate_agent', want: { error: /delegation is off in this recipe \(agents\.max_concurrent: 0\)/ } }], children: [] },
];
