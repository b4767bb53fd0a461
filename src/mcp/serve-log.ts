import type { LoggingLevel, ServerNotification } from '@modelcontextprotocol/sdk/types.js';

/** The MCP logging levels, least severe first (RFC 5424's, as the spec orders them). */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

/** Until a client sets a level it hears of failures only: a client that never asked is not flooded. */
export const DEFAULT_LOG_LEVEL: LoggingLevel = 'warning';

/** Failure texts sent as log data are cut here: the tool's own error already reached the caller whole. */
export const LOG_ERROR_CHARS = 500;

type Send = (n: ServerNotification) => Promise<void>;

/**
 * `mcp serve`'s log to its clients (`notifications/message`), at or above the level
 * the client set with `logging/setLevel`. One per process: over stdio that is the
 * one client; the HTTP server is stateless (no session to keep a level in), so the
 * last setLevel from any authorised client sets it for all of them — said in the docs.
 *
 * What is sent: a call's start (info: the tool and its argument names and size —
 * never the values, which may hold a secret or a file), its end (debug: time taken),
 * and its failure (warning: the failure's kind and its text, capped).
 */
export class ServeLog {
  private level: LoggingLevel = DEFAULT_LOG_LEVEL;

  setLevel(level: LoggingLevel): void {
    this.level = level;
  }

  get current(): LoggingLevel {
    return this.level;
  }

  /** Sent on the request's own stream (`extra.sendNotification`), so over HTTP it reaches the client that made the call. */
  async emit(send: Send, level: LoggingLevel, data: Record<string, unknown>): Promise<void> {
    if (LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(this.level)) return;
    // A client that went away while the call ran must not turn the call into a failure.
    await send({ method: 'notifications/message', params: { level, logger: 'core-agent', data } }).catch(() => {});
  }

  callStarted(send: Send, tool: string, args: Record<string, unknown>): Promise<void> {
    return this.emit(send, 'info', { event: 'tool_call', tool, arg_names: Object.keys(args).slice(0, 50), arg_bytes: jsonBytes(args) });
  }

  callDone(send: Send, tool: string, ms: number): Promise<void> {
    return this.emit(send, 'debug', { event: 'tool_done', tool, ms });
  }

  callFailed(send: Send, tool: string, kind: string, error: string): Promise<void> {
    const text = error.length > LOG_ERROR_CHARS ? `${error.slice(0, LOG_ERROR_CHARS)}… (${error.length} characters)` : error;
    return this.emit(send, 'warning', { event: 'tool_failed', tool, kind, error: text });
  }
}

function jsonBytes(v: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(v));
  } catch {
    return -1;
  }
}
