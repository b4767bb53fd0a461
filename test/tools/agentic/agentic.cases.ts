import type { ReplayStep } from '../../../src/model/replay.ts';

/**
 * The agentic wrappers (src/tools/agentic/) on a real runtime (agentic.test.ts): the parent's
 * call goes through the dispatcher, its child runs on the engine with a replay model whose
 * steps are addressed to the child's profile (`explore`), and the child's own calls go through
 * the parent's gate and path scope. Each case: the recipe, the call, the child's script, and
 * what the wrapper's result, the child's calls and its catalog must hold.
 */
export interface AgenticCase {
  name: string;
  /** The wrapper the parent calls (by the name the model sees). */
  tool: string;
  request?: string;
  /** The recipe (YAML); `{origin}` is the local HTTP server's. */
  recipe?: string;
  dialect?: 'core-agent' | 'cagent' | 'golem';
  /** --agentic-small-model. */
  agenticModel?: string;
  /** The child's steps (addressed to it by the runner). */
  child?: Array<Omit<ReplayStep, 'agent'>>;
  /** Fields of the result (a RegExp for strings); `error` when the call must fail. */
  result?: Record<string, unknown>;
  /** The digest came back whole: no `truncated`. */
  whole?: boolean;
  /** The digest's words at most. */
  words?: number;
  /** The child's tool calls, in order: each one's name and whether it ran. */
  childCalls?: Array<{ name: string; ok: boolean; error?: RegExp }>;
  /** The child's catalog, exactly (its session_start). */
  childTools?: string[];
  /** The model the child ran on (its session's). */
  childModel?: string;
  /** The wrapper is not registered, for this reason. */
  absent?: RegExp;
}

const read = (path: string, more: Record<string, unknown> = {}) => ({ tool_calls: [{ name: 'read_file', args: { path, ...more } }] });
const call = (name: string, args: Record<string, unknown>) => ({ tool_calls: [{ name, args }] });
const text = (t: string) => ({ text: t });
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
const URL_SCOPE = 'permissions:\n  url_scope: { allow: ["http://127.0.0.2"] }\n';

// One case a line (prettier would spread each over several).
// prettier-ignore
export const AGENTIC_CASES: AgenticCase[] = [
  { name: 'agentic_read_file: the child reads, the parent gets its digest', tool: 'agentic_read_file', child: [read('app.log'), text('Two errors: line 2 "disk full", line 4 "disk full".')], result: { digest: 'Two errors: line 2 "disk full", line 4 "disk full".', turns_used: 2 }, childCalls: [{ name: 'read_file', ok: true }], childTools: ['read_file'], childModel: 'replay:parent' },
  { name: 'agentic_grep: one search, then the ranked digest', tool: 'agentic_grep', child: [call('grep', { pattern: 'disk full' }), text('app.log:2 and app.log:4: "ERROR disk full"')], result: { digest: /^app\.log:2/, turns_used: 2 }, childCalls: [{ name: 'grep', ok: true }], childTools: ['grep'] },
  { name: 'agentic_fetch_url: the page stays in the child', tool: 'agentic_fetch_url', recipe: URL_SCOPE, child: [call('fetch_url', { url: '{origin}/runbook' }), text('The runbook says: restart the api.')], result: { digest: 'The runbook says: restart the api.', turns_used: 2 }, childCalls: [{ name: 'fetch_url', ok: true }], childTools: ['fetch_url'] },
  { name: 'agentic_research: list, search, read, then the walkthrough', tool: 'agentic_research', child: [call('list_dir', { path: '.' }), call('grep', { pattern: 'ERROR' }), read('app.log'), text('app.log holds the errors (app.log:2, app.log:4).')], result: { digest: /^app\.log holds the errors/, turns_used: 4 }, childCalls: [{ name: 'list_dir', ok: true }, { name: 'grep', ok: true }, { name: 'read_file', ok: true }], childTools: ['list_dir', 'read_file', 'glob', 'grep'] },
  { name: 'the word cap: a 600-word answer is cut to 500, truncated', tool: 'agentic_read_file', child: [read('app.log'), text(words(600))], result: { digest: /^w0 w1 .* w499$/, truncated: true }, words: 500 },
  { name: 'the word cap: exactly 500 words pass whole', tool: 'agentic_read_file', child: [read('app.log'), text(words(500))], result: { digest: /w499$/ }, whole: true, words: 500 },
  { name: 'the word cap of research: 800', tool: 'agentic_research', child: [text(words(900))], result: { digest: /w799$/, truncated: true }, words: 800 },
  { name: 'one 100 kB "word": cut by characters too', tool: 'agentic_grep', child: [text('x'.repeat(100_000))], result: { digest: /^x{6000}$/, truncated: true } },
  { name: 'a path outside the path scope: refused inside the child by the parent\'s scope', tool: 'agentic_read_file', child: [read('/etc/hostname'), text('I could not read /etc/hostname: it is outside the allowed paths.')], result: { digest: /could not read/ }, childCalls: [{ name: 'read_file', ok: false, error: /outside|scope|not permitted|allowed/i }] },
  { name: 'a path the recipe denies: refused inside the child by the parent\'s gate', tool: 'agentic_read_file', recipe: 'permissions:\n  deny: ["tool.read_file:secret.txt"]\n', child: [read('secret.txt'), text('Refused.')], result: { digest: 'Refused.' }, childCalls: [{ name: 'read_file', ok: false, error: /den/i }] },
  { name: 'the child has its inner tool only: write_file and bash are not there', tool: 'agentic_read_file', child: [{ tool_calls: [{ name: 'write_file', args: { path: 'x.txt', content: 'x' } }, { name: 'bash', args: { command: 'touch y.txt' } }] }, text('I can only read.')], result: { digest: 'I can only read.' }, childCalls: [{ name: 'write_file', ok: false }, { name: 'bash', ok: false }], childTools: ['read_file'] },
  { name: 'agentic_grep\'s child cannot read files either', tool: 'agentic_grep', child: [read('app.log'), text('no')], childCalls: [{ name: 'read_file', ok: false }], childTools: ['grep'] },
  { name: 'the turns cap: tools in both rounds, then an answer without tools, marked unfinished', tool: 'agentic_read_file', child: [read('app.log', { limit: 1 }), read('app.log', { offset: 2 }), text('partial: disk full')], result: { digest: /^\[unfinished: it ran out of turns\]\n\npartial: disk full$/, turns_used: 2 }, childCalls: [{ name: 'read_file', ok: true }, { name: 'read_file', ok: true }] },
  { name: 'research\'s turns cap is 5', tool: 'agentic_research', child: [read('app.log'), read('app.log'), read('app.log'), read('app.log'), read('app.log'), text('late')], result: { digest: /^\[unfinished: it ran out of turns\]/, turns_used: 5 } },
  { name: '--agentic-small-model: the child runs on it', tool: 'agentic_read_file', agenticModel: 'replay:wrappers', child: [text('small')], result: { digest: 'small' }, childModel: 'replay:wrappers' },
  { name: 'agents.agentic_small_model in the recipe', tool: 'agentic_read_file', recipe: 'agents:\n  agentic_small_model: replay:from-recipe\n', child: [text('small')], childModel: 'replay:from-recipe' },
  { name: 'no wrapper model: agents.small_model', tool: 'agentic_read_file', recipe: 'agents:\n  small_model: replay:small\n', child: [text('small')], childModel: 'replay:small' },
  { name: 'the flag beats the recipe', tool: 'agentic_read_file', agenticModel: 'replay:flag', recipe: 'agents:\n  agentic_small_model: replay:from-recipe\n', child: [text('small')], childModel: 'replay:flag' },
  { name: 'a recipe that narrows explore past the inner tool: refused with the engine\'s reason', tool: 'agentic_read_file', recipe: 'agents:\n  profiles:\n    explore: { description: d, tools: [grep] }\n', result: { error: /agentic_read_file could not start its sub-agent: tools may only narrow the explore profile's grant; not in it: read_file/ } },
  { name: 'delegation off (agents.max_concurrent: 0): not offered', tool: 'agentic_read_file', recipe: 'agents:\n  max_concurrent: 0\n', absent: /agents\.max_concurrent: 0/ },
  { name: 'research is off with delegation too', tool: 'agentic_research', recipe: 'agents:\n  max_concurrent: 0\n', absent: /max_concurrent/ },
  { name: 'read_file turned off: agentic_read_file goes with it', tool: 'agentic_read_file', recipe: 'tools:\n  disable: [read_file]\n', absent: /needs read_file/ },
  { name: 'no url_scope (no fetch_url): no agentic_fetch_url', tool: 'agentic_fetch_url', absent: /url_scope|needs fetch_url/ },
  { name: 'golem: offered under its own name (core-agent\'s only), its child calls ReadFile', tool: 'agentic_read_file', dialect: 'golem', child: [call('ReadFile', { path: 'app.log' }), text('golem digest')], result: { digest: 'golem digest' }, childCalls: [{ name: 'ReadFile', ok: true }], childTools: ['read_file'] },
  { name: 'golem: its child searches with GrepFiles', tool: 'agentic_grep', dialect: 'golem', child: [call('GrepFiles', { pattern: 'disk' }), text('found')], result: { digest: 'found' }, childCalls: [{ name: 'GrepFiles', ok: true }] },
  { name: 'cagent: fetch_url is not its tool (web_fetch is), so no agentic_fetch_url', tool: 'agentic_fetch_url', dialect: 'cagent', recipe: URL_SCOPE, absent: /needs fetch_url/ },
  { name: 'cagent: agentic_read_file is offered (core-agent\'s only)', tool: 'agentic_read_file', dialect: 'cagent', child: [read('app.log'), text('cagent digest')], result: { digest: 'cagent digest' } },
];
