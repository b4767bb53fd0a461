/**
 * Why a tool call failed, as data: callers (wait_and_verify, `tools call`'s exit
 * status, the event log) branch on the kind, never on the message text.
 */
export const FAILURE_KINDS = [
  /** No tool by that name is registered. */
  'unknown_tool',
  /** The arguments are not JSON, not an object, or fail the tool's schema. */
  'invalid_args',
  /** The permission gate, path_scope, a deny rule, plan-first or a precheck refused the call. */
  'denied',
  /** The path, resource or thing the call names does not exist. */
  'not_found',
  /** The call ran past its deadline and was aborted. */
  'deadline',
  /** The caller cancelled the call (its signal aborted). */
  'canceled',
  /** The tool ran and refused or failed with a message for the model. */
  'tool_error',
  /** Anything else: a bug or an unexpected system error. */
  'internal',
] as const;

export type FailureKind = (typeof FAILURE_KINDS)[number];
