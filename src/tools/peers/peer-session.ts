import { FetchRefused } from '../../net/guarded-fetch.ts';
import { outboundFetch, ResponseTooLarge, type OutboundPolicy } from '../../net/outbound-fetch.ts';
import { failureText } from '../../net/undici.ts';
import { ToolError } from '../framework/tool.ts';

/**
 * One delegated turn on a peer's attach API, as the Go original's call_peer does
 * it: open a fresh session (POST /sessions), subscribe to its events before the
 * prompt goes in (a turn-complete frame is live, not replayed, so a stream
 * opened after the inject can miss the end), inject the prompt, and read
 * frames until the turn ends. The caller's signal is the one deadline over all
 * of it; `maxBytes` caps the answer, after which reading stops.
 *
 * The frames read (the Go wire shapes): `turn-complete` ends the turn;
 * `turn-error` `{kind, message}` fails it with the peer's own words; `agent`
 * (or an untyped frame) carries an event `{author, partial, turnComplete,
 * content: {parts: [{text} | {functionCall} | {functionResponse}]}}` whose text,
 * from a non-partial event the model authored, is the answer; a final such
 * event with text and no tool call also ends the turn. Anything else
 * (capabilities, status-update, inbox, …) is not this tool's business.
 *
 * The endpoint is a registration's say-so, not the operator's: every request
 * takes the address policy (outbound-fetch.ts) — metadata never, loopback and
 * private addresses only for hosts the operator named (`destinations`) — and
 * every body is capped (a response at MAX_FRAME, an event stream per event).
 */

export interface PeerTurn {
  sessionId: string;
  response: string;
  truncated: boolean;
}

export interface PeerTurnRequest {
  peer: string;
  endpoint: string;
  token: string | undefined;
  prompt: string;
  maxBytes: number;
  signal: AbortSignal;
  /** Which hosts may be loopback or private, and the setting that names them. */
  destinations: Pick<OutboundPolicy, 'namedHosts' | 'setting' | 'resolve'>;
}

/** The most an SSE frame may grow to before the peer is treated as broken (an answer is cut at maxBytes anyway). */
const MAX_FRAME = 1024 * 1024;

export async function runPeerTurn(o: PeerTurnRequest): Promise<PeerTurn> {
  const fetch = outboundFetch({ ...o.destinations, what: 'answers from peers', maxBodyBytes: MAX_FRAME });
  const base = o.endpoint.replace(/\/+$/, '');
  const auth: Record<string, string> = o.token ? { Authorization: `Bearer ${o.token}` } : {};
  // Whatever a peer says back is shown to the model: never with the token in it.
  const clean = (text: string, max = 300) =>
    (o.token ? text.split(o.token).join('[redacted]') : text).replace(/\s+/g, ' ').trim().slice(0, max);
  const request = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    try {
      return await fetch(`${base}${path}`, {
        method,
        headers: { ...auth, ...(method === 'POST' ? { 'Content-Type': 'application/json' } : { Accept: 'text/event-stream' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: 'error',
        signal: o.signal,
      });
    } catch (err) {
      if (o.signal.aborted) throw o.signal.reason;
      // Refused before a byte was sent: the registered endpoint is where the policy does not go.
      if (err instanceof FetchRefused) throw new ToolError(`peer "${o.peer}" was not called: ${clean(err.message, 600)}`, 'denied');
      throw new ToolError(`peer "${o.peer}" is unreachable at ${base}: ${clean(failureText(err))}`);
    }
  };
  const said = async (res: { text(): Promise<string> }) => {
    const text = await res.text().catch((err: unknown) => (err instanceof ResponseTooLarge ? err.message : ''));
    try {
      const e = (JSON.parse(text) as { error?: unknown }).error;
      if (typeof e === 'string') return clean(e);
    } catch {
      // not JSON
    }
    return clean(text);
  };

  try {
    const created = await request('POST', '/sessions', {});
    if (created.status === 501) {
      await created.body?.cancel();
      throw new ToolError(
        `peer "${o.peer}" has no multi-session: it answered 501 to POST /sessions, so it cannot open a fresh session for this call (start the peer with multi-session on)`,
      );
    }
    if (created.status !== 201 && created.status !== 200) {
      throw new ToolError(`peer "${o.peer}" refused to open a session: HTTP ${created.status} ${await said(created)}`.trim());
    }
    const session = (await created.json().catch((err: unknown) => {
      if (err instanceof ResponseTooLarge) throw err;
      return {};
    })) as { app?: unknown; sessionID?: unknown };
    if (typeof session.sessionID !== 'string' || session.sessionID === '') {
      throw new ToolError(`peer "${o.peer}" opened a session without a sessionID (not an attach API?)`);
    }
    const sessionId = session.sessionID;
    const path =
      typeof session.app === 'string' && session.app !== ''
        ? `/sessions/${encodeURIComponent(session.app)}/${encodeURIComponent(sessionId)}`
        : `/sessions/${encodeURIComponent(sessionId)}`;

    const events = await request('GET', `${path}/events`);
    if (events.status !== 200 || !events.body) {
      throw new ToolError(`peer "${o.peer}" (session ${sessionId}) refused its event stream: HTTP ${events.status} ${await said(events)}`);
    }
    const frames = sseFrames(events.body);
    const injected = await request('POST', `${path}/inject`, { message: o.prompt });
    if (injected.status < 200 || injected.status >= 300) {
      throw new ToolError(`peer "${o.peer}" (session ${sessionId}) refused the prompt: HTTP ${injected.status} ${await said(injected)}`);
    }
    await injected.body?.cancel();
    const answer = await collect(frames, o.maxBytes, (m) => `peer "${o.peer}" (session ${sessionId}): ${clean(m)}`);
    return { sessionId, ...answer };
  } catch (err) {
    if (err instanceof ResponseTooLarge) throw new ToolError(`peer "${o.peer}": ${err.message}`);
    throw err;
  }
}

interface Frame {
  event: string;
  data: string;
}

/** Accumulate the model's text until the turn ends; stop reading at the cap. */
async function collect(frames: AsyncGenerator<Frame>, maxBytes: number, fail: (m: string) => string): Promise<Omit<PeerTurn, 'sessionId'>> {
  let answer = Buffer.alloc(0);
  try {
    for await (const f of frames) {
      if (f.event === 'turn-complete') return { response: answer.toString('utf8').trim(), truncated: false };
      if (f.event === 'turn-error') throw new ToolError(fail(turnErrorText(f.data)));
      if (f.event !== 'agent' && f.event !== 'message') continue;
      const ev = parseEvent(f.data);
      if (!ev || ev.partial || !ev.author || ev.author === 'user') continue;
      if (ev.text !== '') {
        const piece = Buffer.from(answer.length > 0 ? `\n\n${ev.text}` : ev.text, 'utf8');
        if (answer.length + piece.length > maxBytes) {
          const cut = Buffer.concat([answer, piece]).subarray(0, maxBytes);
          // A cut inside a multi-byte character leaves a replacement character: drop it.
          return { response: cut.toString('utf8').replace(/\uFFFD+$/, ''), truncated: true };
        }
        answer = Buffer.concat([answer, piece]);
      }
      if (ev.turnComplete || (ev.text !== '' && !ev.hasCall)) return { response: answer.toString('utf8').trim(), truncated: false };
    }
  } finally {
    await frames.return(undefined);
  }
  throw new ToolError(fail('the event stream ended before the turn completed'));
}

function parseEvent(data: string): { author: string; partial: boolean; turnComplete: boolean; text: string; hasCall: boolean } | null {
  let ev: unknown;
  try {
    ev = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof ev !== 'object' || ev === null) return null;
  const e = ev as { author?: unknown; partial?: unknown; turnComplete?: unknown; content?: { parts?: unknown } };
  const parts = Array.isArray(e.content?.parts) ? (e.content.parts as Array<Record<string, unknown> | null>) : [];
  let text = '';
  let hasCall = false;
  for (const p of parts) {
    if (!p) continue;
    if (typeof p.text === 'string') text += p.text;
    if (p.functionCall || p.functionResponse) hasCall = true;
  }
  return {
    author: typeof e.author === 'string' ? e.author : '',
    partial: e.partial === true,
    turnComplete: e.turnComplete === true,
    text,
    hasCall,
  };
}

function turnErrorText(data: string): string {
  try {
    const e = JSON.parse(data) as { kind?: unknown; message?: unknown };
    const kind = typeof e.kind === 'string' && e.kind !== '' ? e.kind : 'unknown';
    return typeof e.message === 'string' && e.message !== ''
      ? `the turn failed on the peer (${kind}): ${e.message}`
      : `the turn failed on the peer (${kind})`;
  } catch {
    return 'the turn failed on the peer (no detail)';
  }
}

/** Server-sent events, frame by frame (`event:` defaults to "message"; multi-line `data:` joined). */
async function* sseFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<Frame> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buf += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      for (let end = buf.indexOf('\n\n'); end !== -1; end = buf.indexOf('\n\n')) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon === -1 ? line : line.slice(0, colon);
          const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
        }
        if (data.length > 0) yield { event, data: data.join('\n') };
      }
      if (buf.length > MAX_FRAME) throw new ToolError('the peer sent an event over 1 MiB; stopped reading');
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
