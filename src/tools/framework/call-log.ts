import type { FailureKind } from '../../core/failure.ts';
import type { JsonObject } from '../../core/json.ts';

/** Who made a tool call: the model, `tools call`, an `mcp serve` client, or a tool polling another. */
export type CallSource = 'model' | 'tools_call' | 'mcp_serve' | 'poll' | 'operator';

/** One finished call, as the dispatcher saw it. */
export interface CallRecord {
  /** The model's call id, or one the dispatcher made up. */
  readonly callId: string;
  /** The name as the caller used it (an MCP tool's model-facing one): what the model's response names. */
  readonly name: string;
  readonly args: unknown;
  readonly source: CallSource;
  /** The call that made this one (a wait_and_verify poll's own call). */
  readonly parentCallId?: string | undefined;
  readonly ok: boolean;
  /** What the caller was shown. */
  readonly shown?: JsonObject | undefined;
  /** The tool's own result, when the caps or the digest changed what was shown. */
  readonly raw?: JsonObject | undefined;
  /** The digested result's raw payload is in the store under this call_id (retrieve_raw). */
  readonly rawRef?: string | undefined;
  readonly error?: string | undefined;
  readonly kind?: FailureKind | undefined;
  readonly ms: number;
}

/** Where the dispatcher writes every call when a store is wired (the session's event log). */
export interface CallLog {
  record(call: CallRecord): void;
}
