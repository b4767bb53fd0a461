// The Go wire's typed frames on /events for each sequence of log events, one case a line:
// the events (kind, data; `live` when they happened while the stream was open) and the
// typed frames the stream adds (event and a subset of its data), in order. What a client
// written against the Go daemon (core-tui, call_peer) reads to follow a turn and see it end.

export interface TurnFramesCase {
  name: string;
  events: ReadonlyArray<{ kind: string; data: Record<string, unknown>; at?: string }>;
  live: boolean;
  frames: ReadonlyArray<{ event: string; data?: Record<string, unknown> }>;
}

const INJECT = { kind: 'operator', data: { action: 'inject', principal: 'hub', prompt_id: 'p-1', queued: false } };
const USER = { kind: 'user', data: { text: 'how many nodes?' }, at: '2026-12-01T10:00:00.000Z' };
const say = (text: string) => ({ kind: 'response', data: { step: 1, content: [{ type: 'text', text }], model: 'replay:s.jsonl' } });
const callTool = {
  kind: 'response',
  data: {
    step: 1,
    content: [
      { type: 'text', text: 'Checking.' },
      { type: 'tool-call', toolCallId: 'c-1', toolName: 'bash', input: '{"command":"ls"}' },
    ],
  },
};
const result = (extra: Record<string, unknown>) => ({
  kind: 'tool_result',
  data: { call_id: 'c-1', name: 'bash', ok: true, shown: 'a.txt', source: 'model', ...extra },
});
const END = {
  kind: 'turn_end',
  data: { status: 'done', text: 'done', steps: 1, usage: { inputTokens: 12, outputTokens: 3, costUsd: 0.5 } },
  at: '2026-12-01T10:00:01.250Z',
};
const userFrame = {
  event: 'agent',
  data: { author: 'user', partial: false, content: { role: 'user', parts: [{ text: 'how many nodes?' }] } },
};

export const TURN_FRAMES_CASES: readonly TurnFramesCase[] = [
  {
    name: 'a text answer, live: the answer then turn-complete with the prompt id, model, usage and latency',
    events: [INJECT, USER, say('12 nodes'), END],
    live: true,
    frames: [
      userFrame,
      { event: 'agent', data: { author: 'core-agent', partial: false, content: { role: 'model', parts: [{ text: '12 nodes' }] } } },
      {
        event: 'turn-complete',
        data: { prompt_id: 'p-1', model: 'replay:s.jsonl', tokens_in: 12, tokens_out: 3, cost_usd: 0.5, latency_ms: 1250 },
      },
    ],
  },
  {
    name: 'the same turn replayed: the agent frames, no turn-complete',
    events: [INJECT, USER, say('12 nodes'), END],
    live: false,
    frames: [userFrame, { event: 'agent' }],
  },
  {
    name: 'a tool call: text and functionCall parts, the args parsed',
    events: [USER, callTool],
    live: true,
    frames: [
      userFrame,
      {
        event: 'agent',
        data: {
          content: {
            role: 'model',
            parts: [{ text: 'Checking.' }, { functionCall: { id: 'c-1', name: 'bash', args: { command: 'ls' } } }],
          },
        },
      },
    ],
  },
  {
    name: "the model's tool result: a functionResponse",
    events: [result({})],
    live: true,
    frames: [
      {
        event: 'agent',
        data: {
          author: 'core-agent',
          content: { role: 'user', parts: [{ functionResponse: { id: 'c-1', name: 'bash', response: { output: 'a.txt' } } }] },
        },
      },
    ],
  },
  {
    name: 'a failed tool result: the error',
    events: [result({ ok: false, shown: { error: 'bash: exit 1' } })],
    live: true,
    frames: [
      {
        event: 'agent',
        data: {
          content: { role: 'user', parts: [{ functionResponse: { id: 'c-1', name: 'bash', response: { error: 'bash: exit 1' } } }] },
        },
      },
    ],
  },
  { name: "a call that was not the model's (tools call, a poll): no frame", events: [result({ source: 'cli' })], live: true, frames: [] },
  {
    name: 'a response with no content (the script ended): no agent frame, the turn still completes',
    events: [USER, { kind: 'response', data: { step: 1, content: [] } }, END],
    live: true,
    frames: [userFrame, { event: 'turn-complete' }],
  },
  {
    name: 'a failed turn, live: turn-error unknown, not retryable',
    events: [USER, { kind: 'error', data: { message: 'the turn failed: boom', cancelled: false } }],
    live: true,
    frames: [userFrame, { event: 'turn-error', data: { kind: 'unknown', message: 'the turn failed: boom', retryable: false } }],
  },
  {
    name: 'an interrupted turn, live: turn-error canceled',
    events: [{ kind: 'error', data: { message: 'the turn was stopped: interrupted by alice (attach)', cancelled: true } }],
    live: true,
    frames: [{ event: 'turn-error', data: { kind: 'canceled', retryable: false } }],
  },
  {
    name: 'a halted agent, live: turn-error watchdog',
    events: [{ kind: 'error', data: { message: 'the agent is halted by its watchdog: 3 turns cut', halted: true } }],
    live: true,
    frames: [{ event: 'turn-error', data: { kind: 'watchdog', message: 'the agent is halted by its watchdog: 3 turns cut' } }],
  },
  {
    name: 'a failure replayed: no turn-error',
    events: [{ kind: 'error', data: { message: 'x', cancelled: false } }],
    live: false,
    frames: [],
  },
  {
    name: 'a watchdog cut, live: turn-error watchdog, no turn-complete',
    events: [{ kind: 'turn_end', data: { status: 'cut', text: 'watchdog cut the turn: loop — same call 5 times', steps: 3 } }],
    live: true,
    frames: [{ event: 'turn-error', data: { kind: 'watchdog', message: 'watchdog cut the turn: loop — same call 5 times' } }],
  },
  {
    name: 'queued prompts: each turn-complete names its own prompt',
    events: [INJECT, { ...INJECT, data: { ...INJECT.data, prompt_id: 'p-2', queued: true } }, USER, END, USER, END],
    live: true,
    frames: [
      userFrame,
      { event: 'turn-complete', data: { prompt_id: 'p-1' } },
      userFrame,
      { event: 'turn-complete', data: { prompt_id: 'p-2' } },
    ],
  },
  {
    name: 'a turn with no inject seen (the stream opened mid-session): an empty prompt id, no model',
    events: [USER, END],
    live: true,
    frames: [userFrame, { event: 'turn-complete', data: { prompt_id: '', model: '' } }],
  },
  {
    name: 'other log events (request, checkpoint, watchdog, operator): nothing typed',
    events: [
      { kind: 'request', data: { step: 1 } },
      { kind: 'checkpoint', data: {} },
      { kind: 'watchdog', data: {} },
      { kind: 'operator', data: { action: 'wake' } },
    ],
    live: true,
    frames: [],
  },
];
