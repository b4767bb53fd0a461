/** One Server-Sent Events frame as the attach API sends it: an optional id, a type, one JSON line. */
export interface SseFrame {
  id: number | undefined;
  event: string;
  data: unknown;
}

/** The largest frame a client buffers: a frame past it means the other end is not an attach daemon. */
const MAX_FRAME_CHARS = 4 * 1024 * 1024;

/**
 * The frames of an SSE response body, in order, until the stream ends or the
 * signal aborts. Comment lines (keepalives) are skipped; a frame whose data is
 * not JSON is given as the text.
 */
export async function* sseFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<SseFrame> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += value.replace(/\r\n/g, '\n');
      if (buf.length > MAX_FRAME_CHARS) throw new Error(`an SSE frame over ${MAX_FRAME_CHARS} characters`);
      let end;
      while ((end = buf.indexOf('\n\n')) >= 0) {
        const frame = parseFrame(buf.slice(0, end));
        buf = buf.slice(end + 2);
        if (frame) yield frame;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

function parseFrame(block: string): SseFrame | null {
  let id: number | undefined;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = Number(value);
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return null;
  const text = data.join('\n');
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the text as it is
  }
  return { id: Number.isFinite(id) ? id : undefined, event, data: parsed };
}
