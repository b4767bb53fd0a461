import type { IncomingMessage, ServerResponse } from 'node:http';
import type * as z from 'zod/v4';

/** A request the daemon refuses: the status and the JSON body's error sentence (and the field at fault). */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * One `/`-separated segment of a request path, percent-decoded. A malformed
 * escape (`%zz`, a lone `%`, bytes that are not UTF-8) is the client's mistake,
 * a 400 naming the field; decodeURIComponent alone would throw a URIError.
 */
export function pathSegment(raw: string, field: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new HttpError(400, `${field}: the path segment "${raw.slice(0, 80)}" is not valid percent-encoding (UTF-8 bytes as %XX)`, field);
  }
}

/** The write endpoints' body cap (the Go original's operatorPostMaxBytes). */
export const MAX_BODY_BYTES = 8 * 1024;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendError(res: ServerResponse, err: HttpError): void {
  sendJson(res, err.status, { error: err.message, ...(err.field !== undefined ? { field: err.field } : {}) }, err.headers);
}

/**
 * The request's JSON body, validated: at most `maxBytes` (413 past it, read no
 * further), valid JSON (400), and the schema's shape (400 naming the first field
 * at fault). An empty body is `{}`, so endpoints whose body is optional take none.
 */
export async function readJson<T extends z.ZodType>(req: IncomingMessage, schema: T, maxBytes = MAX_BODY_BYTES): Promise<z.output<T>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new HttpError(413, `the request body is over ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  let value: unknown = {};
  if (text !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      throw new HttpError(400, 'the request body is not valid JSON');
    }
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.') || '(body)';
  throw new HttpError(400, `${field}: ${issue.message.slice(0, 200)}`, field);
}

/** Open a Server-Sent Events response (headers that keep proxies from buffering it). */
export function openSse(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
    ...headers,
  });
  res.flushHeaders();
}

/** One SSE frame. `data` is one JSON line (JSON.stringify never emits a newline). */
export function sseFrame(res: ServerResponse, event: string, data: unknown, id?: number): void {
  res.write(`${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}
