// The hook events and the default timeout: plain values, kept apart from hooks-schema.ts so the
// modules that fire hooks never evaluate zod (the schema is read only when a file has hooks:).

/** Scion's canonical event names, so its dialect is an identity mapping. */
export const HOOK_EVENTS = ['tool-start', 'tool-end', 'model-start', 'agent-end'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export const HOOK_DEFAULT_TIMEOUT_SECONDS = 10;
