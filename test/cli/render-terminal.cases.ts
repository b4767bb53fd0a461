import type { AgentEvent } from '../../src/agent/agent.ts';

/**
 * What the operator sees after a sequence of renderer inputs on a terminal.
 * Steps are agent events, or the renderer's own calls: `tick` lets the
 * working indicator draw (80 ms), `pause`/`resume` bracket a prompt,
 * `note` is a warning from elsewhere, `finish` ends the turn. `screen` is
 * every line left, in order; a line written `/…/` is a pattern (the
 * indicator's elapsed time varies).
 */
export type Step =
  AgentEvent | { do: 'start' | 'tick' | 'pause' | 'resume' | 'finish' } | { do: 'note'; text: string } | { do: 'cancelled' };

export interface ScreenCase {
  name: string;
  live?: boolean;
  steps: Step[];
  screen: string[];
}

const delta = (d: string): AgentEvent => ({ type: 'text_delta', delta: d });
const text = (t: string): AgentEvent => ({ type: 'text', text: t });
const start = (id: string, name: string, args = '{}'): AgentEvent => ({ type: 'tool_start', id, name, args });
const end = (id: string, name: string, ok = true): AgentEvent => ({
  type: 'tool_end',
  id,
  name,
  ok,
  ms: 5,
  ...(ok ? {} : { error: 'boom' }),
});
const plan = (explanation: string, ...steps: Array<[string, 'pending' | 'in_progress' | 'completed']>): AgentEvent => ({
  type: 'plan',
  explanation,
  plan: steps.map(([step, status]) => ({ step, status })),
});
const tick = { do: 'tick' } as const;
const finish = { do: 'finish' } as const;
const SUMMARY = '— done, 1 step(s), 0 in / 0 out tokens, $0.0000';

export const SCREEN_CASES: ScreenCase[] = [
  {
    name: 'a streamed answer stays',
    steps: [delta('The port '), delta('is 8080.'), text('The port is 8080.'), finish],
    screen: ['The port is 8080.', SUMMARY],
  },
  { name: 'an answer that was not streamed is printed once', steps: [text('Whole answer.'), finish], screen: ['Whole answer.', SUMMARY] },
  {
    name: 'a streamed answer ending in a newline gets no blank line',
    steps: [delta('line one\n'), text('line one\n'), finish],
    screen: ['line one', SUMMARY],
  },
  {
    name: 'the indicator while the model is asked, gone when the answer streams',
    steps: [{ do: 'start' }, tick, tick, delta('Hi'), tick, text('Hi'), finish],
    screen: ['Hi', SUMMARY],
  },
  {
    name: 'the indicator is never drawn in the middle of streamed text',
    steps: [{ do: 'start' }, delta('half a line'), tick, tick],
    screen: ['half a line'],
  },
  { name: 'the indicator names the running tool', steps: [{ do: 'start' }, start('1', 'bash'), tick], screen: ['/^⠙ bash \\d+\\.\\ds$/'] },
  {
    name: 'tool lines stay above the indicator',
    steps: [{ do: 'start' }, start('1', 'read_file'), tick, end('1', 'read_file'), tick],
    screen: ['✓ read_file {} (5 ms)', '/^. working \\d+\\.\\ds$/'],
  },
  {
    name: 'a failed tool line says why',
    steps: [start('1', 'bash'), end('1', 'bash', false), finish],
    screen: ['✗ bash {} (5 ms) — boom', SUMMARY],
  },
  {
    name: 'text, a tool, more text: all of it stays',
    steps: [
      delta('Looking.'),
      text('Looking.'),
      { do: 'start' },
      start('1', 'grep'),
      tick,
      end('1', 'grep'),
      delta('Found it.'),
      text('Found it.'),
      finish,
    ],
    screen: ['Looking.', '✓ grep {} (5 ms)', 'Found it.', SUMMARY],
  },
  {
    name: 'the plan sits under the indicator',
    steps: [{ do: 'start' }, plan('why', ['read', 'completed'], ['fix', 'in_progress']), tick],
    screen: ['/^. working \\d+\\.\\ds$/', '· plan — why', '  ✓ read', '  ▶ fix'],
  },
  {
    name: 'a plan change redraws in place (no second copy)',
    steps: [{ do: 'start' }, plan('a', ['one', 'in_progress']), tick, plan('b', ['one', 'completed'], ['two', 'in_progress']), tick],
    screen: ['/^. working/', '· plan — b', '  ✓ one', '  ▶ two'],
  },
  {
    name: 'the plan is cleared at the turn end; the text stays',
    steps: [{ do: 'start' }, plan('a', ['one', 'in_progress']), tick, delta('Done.'), text('Done.'), tick, finish],
    screen: ['Done.', SUMMARY],
  },
  {
    name: 'text streaming under a plan is not erased by it',
    steps: [{ do: 'start' }, plan('a', ['one', 'in_progress']), tick, delta('partial'), tick, tick],
    screen: ['partial'],
  },
  {
    name: 'a warning goes above the region',
    steps: [{ do: 'start' }, start('1', 'bash'), tick, { do: 'note', text: 'warn  slow disk\n' }, tick],
    screen: ['warn  slow disk', '/^. bash/'],
  },
  {
    name: 'a prompt pauses the region: nothing drawn until resumed',
    steps: [{ do: 'start' }, start('1', 'bash'), tick, { do: 'pause' }, tick, tick],
    screen: [],
  },
  {
    name: 'resumed after the prompt, the indicator returns',
    steps: [{ do: 'start' }, start('1', 'bash'), { do: 'pause' }, tick, { do: 'resume' }, tick],
    screen: ['/^. bash/'],
  },
  {
    name: 'a cancelled turn says so and clears the region',
    steps: [{ do: 'start' }, start('1', 'bash'), plan('a', ['x', 'in_progress']), tick, { do: 'cancelled' }],
    screen: ['— cancelled: stopped'],
  },
  {
    name: 'step limit and checkpoint lines',
    steps: [
      { type: 'step_limit', steps: 3 },
      { type: 'checkpoint', detail: 'all done' },
    ],
    screen: ['! step limit (3) reached; asking the model for a final answer without tools', '· checkpoint recorded: all done'],
  },
  {
    name: 'not a terminal: no indicator, the plan as a block per change',
    live: false,
    steps: [{ do: 'start' }, start('1', 'bash'), tick, plan('why', ['a', 'pending']), end('1', 'bash'), finish],
    screen: ['· plan — why', '  ○ a', '✓ bash {} (5 ms)', SUMMARY],
  },
];

/** A pino JSON line as the terminal shows it (no colour); anything else passes through whole. */
export const LOG_LINE_CASES: Array<[line: string, shown: string]> = [
  ['{"level":40,"time":1,"pid":2,"hostname":"h","name":"core-agent","msg":"slow disk"}', 'warn  slow disk\n'],
  ['{"level":50,"time":1,"name":"core-agent","tool":"bash","msg":"tool call not recorded"}', 'error tool call not recorded  tool=bash\n'],
  ['{"level":30,"msg":"tool call","tool":"grep","ok":true,"ms":12}', 'info  tool call  tool=grep ok=true ms=12\n'],
  ['{"level":20,"msg":"gate","detail":{"a":1}}', 'debug gate  detail={"a":1}\n'],
  ['{"level":60,"msg":"x","reason":"line one\\nline two"}', 'fatal x  reason=line one line two\n'],
  [`{"level":40,"msg":"big","v":"${'z'.repeat(300)}"}`, `warn  big  v=${'z'.repeat(197)}...\n`],
  ['{"level":40}', 'warn  \n'],
  ['not json at all', 'not json at all\n'],
  ['partial {"level"', 'partial {"level"\n'],
  ['"a string"', '"a string"\n'],
];

/** Whether colours are on: [env, stream is a TTY, the TTY reports colours, colour]. */
export const COLOR_CASES: Array<[env: Record<string, string>, tty: boolean, hasColors: boolean, color: boolean]> = [
  [{}, true, true, true],
  [{}, true, false, false],
  [{}, false, true, false],
  [{ NO_COLOR: '1' }, true, true, false],
  [{ NO_COLOR: '' }, true, true, true],
  [{ FORCE_COLOR: '1' }, false, false, true],
  [{ FORCE_COLOR: '3' }, false, false, true],
  [{ FORCE_COLOR: '0' }, true, true, false],
  [{ FORCE_COLOR: 'false' }, true, true, false],
  [{ FORCE_COLOR: '1', NO_COLOR: '1' }, true, true, true],
];
