// The hook events, the envelopes and the default timeout: plain values, kept apart from
// hooks-schema.ts so the modules that fire hooks never evaluate zod (the schema is read only
// when a file has hooks:).

/**
 * Every harness event of Scion's contract (the normalized names of sciontool's
 * pkg/sciontool/hooks/types.go, less pre-start, post-start and pre-stop, which
 * sciontool's own init fires), in the order a session meets them. core-agent
 * fires each one; docs/scion.md says when.
 */
export const HOOK_EVENTS = [
  'session-start',
  'prompt-submit',
  'agent-start',
  'model-start',
  'model-end',
  'tool-start',
  'tool-end',
  'notification',
  'response-complete',
  'agent-end',
  'session-end',
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/**
 * How a hook's stdin is written. `core-agent`: our event names (Scion's
 * canonical ones) and fields, read by a `--dialect=core-agent` that a Scion with
 * custom dialects loads from dialect.yaml. `claude`: Claude Code's hook input,
 * which every sciontool reads with its built-in (and default) `--dialect=claude`.
 */
export const HOOK_ENVELOPES = ['core-agent', 'claude'] as const;
export type HookEnvelope = (typeof HOOK_ENVELOPES)[number];

/**
 * Our events as Claude Code names them (its hooks' `hook_event_name`), which
 * sciontool's claude dialect normalizes back. Claude Code has no event for a
 * turn starting nor for a finished response: for those the canonical name is
 * sent, which that dialect passes through unchanged (its default branch).
 * BeforeModel/AfterModel are not Claude Code's but the claude dialect maps them.
 */
export const CLAUDE_EVENT_NAMES: Readonly<Record<HookEvent, string>> = {
  'session-start': 'SessionStart',
  'prompt-submit': 'UserPromptSubmit',
  'agent-start': 'agent-start',
  'model-start': 'BeforeModel',
  'model-end': 'AfterModel',
  'tool-start': 'PreToolUse',
  'tool-end': 'PostToolUse',
  notification: 'Notification',
  'response-complete': 'response-complete',
  'agent-end': 'Stop',
  'session-end': 'SessionEnd',
};

export const HOOK_DEFAULT_TIMEOUT_SECONDS = 10;
