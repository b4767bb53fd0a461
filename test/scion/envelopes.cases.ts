/**
 * What a hook reads on stdin, per envelope: each event core-agent fires, with the
 * fields it carries, as ours (`core-agent`) and as Claude Code's hook input
 * (`claude`, for sciontool's built-in dialect). `session_id` is "s-1" and the
 * workspace "/" in every case. One case a line.
 */
import type { HookEnvelope, HookEvent } from '../../src/config/hook-events.ts';
import type { HookFields } from '../../src/tools/framework/hooks.ts';

export interface EnvelopeCase {
  readonly event: HookEvent;
  readonly envelope: HookEnvelope;
  readonly fields: HookFields;
  readonly expect: Record<string, unknown>;
}

const S = { session_id: 's-1' };
const C = { session_id: 's-1', cwd: '/' };
const USAGE = { input_tokens: 12, output_tokens: 3 };

export const ENVELOPE_CASES: readonly EnvelopeCase[] = [
  {
    event: 'session-start',
    envelope: 'core-agent',
    fields: { source: 'startup' },
    expect: { hook_event_name: 'session-start', ...S, source: 'startup' },
  },
  {
    event: 'session-start',
    envelope: 'claude',
    fields: { source: 'resume' },
    expect: { hook_event_name: 'SessionStart', ...C, source: 'resume' },
  },
  {
    event: 'prompt-submit',
    envelope: 'core-agent',
    fields: { prompt: 'fix it' },
    expect: { hook_event_name: 'prompt-submit', ...S, prompt: 'fix it' },
  },
  {
    event: 'prompt-submit',
    envelope: 'claude',
    fields: { prompt: 'fix it' },
    expect: { hook_event_name: 'UserPromptSubmit', ...C, prompt: 'fix it' },
  },
  { event: 'agent-start', envelope: 'core-agent', fields: {}, expect: { hook_event_name: 'agent-start', ...S } },
  // Claude Code has no such event: the canonical name, which sciontool's claude dialect passes through.
  { event: 'agent-start', envelope: 'claude', fields: {}, expect: { hook_event_name: 'agent-start', ...C } },
  {
    event: 'model-start',
    envelope: 'core-agent',
    fields: { purpose: 'step' },
    expect: { hook_event_name: 'model-start', ...S, purpose: 'step' },
  },
  {
    event: 'model-start',
    envelope: 'claude',
    fields: { purpose: 'compaction' },
    expect: { hook_event_name: 'BeforeModel', ...C, purpose: 'compaction' },
  },
  {
    event: 'model-end',
    envelope: 'core-agent',
    fields: { purpose: 'step', ok: true, usage: USAGE },
    expect: { hook_event_name: 'model-end', ...S, purpose: 'step', ok: true, usage: USAGE },
  },
  {
    event: 'model-end',
    envelope: 'claude',
    fields: { purpose: 'step', ok: true, usage: USAGE },
    expect: { hook_event_name: 'AfterModel', ...C, purpose: 'step', success: true, usage: USAGE },
  },
  {
    event: 'model-end',
    envelope: 'claude',
    fields: { purpose: 'step', ok: false, error: '503' },
    expect: { hook_event_name: 'AfterModel', ...C, purpose: 'step', success: false, error: '503' },
  },
  {
    event: 'tool-start',
    envelope: 'core-agent',
    fields: { tool_name: 'bash', tool_input: { command: 'ls' } },
    expect: { hook_event_name: 'tool-start', ...S, tool_name: 'bash', tool_input: { command: 'ls' } },
  },
  {
    event: 'tool-start',
    envelope: 'claude',
    fields: { tool_name: 'bash', tool_input: { command: 'ls' } },
    expect: { hook_event_name: 'PreToolUse', ...C, tool_name: 'bash', tool_input: { command: 'ls' } },
  },
  {
    event: 'tool-end',
    envelope: 'core-agent',
    fields: { tool_name: 'bash', tool_output: { exit_code: 0 } },
    expect: { hook_event_name: 'tool-end', ...S, tool_name: 'bash', tool_output: { exit_code: 0 } },
  },
  {
    event: 'tool-end',
    envelope: 'claude',
    fields: { tool_name: 'bash', tool_output: { exit_code: 0 } },
    expect: { hook_event_name: 'PostToolUse', ...C, tool_name: 'bash', tool_response: { exit_code: 0 } },
  },
  {
    event: 'tool-end',
    envelope: 'claude',
    fields: { tool_name: 'x', tool_output: { ok: false, error: 'no', kind: 'denied' } },
    expect: { hook_event_name: 'PostToolUse', ...C, tool_name: 'x', tool_response: { ok: false, error: 'no', kind: 'denied' } },
  },
  {
    event: 'notification',
    envelope: 'core-agent',
    fields: { message: 'Which file?' },
    expect: { hook_event_name: 'notification', ...S, message: 'Which file?' },
  },
  {
    event: 'notification',
    envelope: 'claude',
    fields: { message: 'Which file?' },
    expect: { hook_event_name: 'Notification', ...C, message: 'Which file?' },
  },
  {
    event: 'response-complete',
    envelope: 'core-agent',
    fields: { message: 'Done.' },
    expect: { hook_event_name: 'response-complete', ...S, message: 'Done.' },
  },
  {
    event: 'response-complete',
    envelope: 'claude',
    fields: { message: 'Done.' },
    expect: { hook_event_name: 'response-complete', ...C, message: 'Done.' },
  },
  {
    event: 'agent-end',
    envelope: 'core-agent',
    fields: { status: 'done', last_assistant_message: 'Done.' },
    expect: { hook_event_name: 'agent-end', ...S, status: 'done', last_assistant_message: 'Done.' },
  },
  {
    event: 'agent-end',
    envelope: 'claude',
    fields: { status: 'cancelled' },
    expect: { hook_event_name: 'Stop', ...C, status: 'cancelled' },
  },
  {
    event: 'session-end',
    envelope: 'core-agent',
    fields: { reason: 'exit' },
    expect: { hook_event_name: 'session-end', ...S, reason: 'exit' },
  },
  { event: 'session-end', envelope: 'claude', fields: { reason: 'exit' }, expect: { hook_event_name: 'SessionEnd', ...C, reason: 'exit' } },
];
