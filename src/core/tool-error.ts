import type { FailureKind } from './failure.ts';

/**
 * Refusals and failures the model should see. Thrown by a tool's `run`; the
 * dispatcher turns it into `{ok: false, error: message, kind}` and never into a crash.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';

  constructor(
    message: string,
    /** What kind of failure this is (default tool_error); not_found when the thing named is missing. */
    readonly kind: FailureKind = 'tool_error',
  ) {
    super(message);
  }
}
