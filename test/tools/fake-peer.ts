import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/**
 * A peer daemon's attach API on 127.0.0.1, as call_peer uses it (the Go wire
 * shapes): POST /sessions → 201 {app, user, sessionID, url}; GET
 * /sessions/{app}/{sid}/events → SSE; POST …/inject {message} → {injected,
 * session}. The first path segment picks the peer's behaviour, so one server
 * stands in for a whole roster: http://127.0.0.1:PORT/<mode>.
 */
export type PeerMode = 'ok' | 'no-multi' | 'slow' | 'huge' | 'tools' | 'fail' | 'deny-401' | 'hangup';

export interface FakePeer {
  url: string;
  /** Every request: method, path, its Authorization header and body. */
  readonly seen: Array<{ method: string; path: string; auth: string | undefined; body: string }>;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const frame = (res: ServerResponse, event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
const say = (text: string, extra: Record<string, unknown> = {}) => ({
  author: 'model',
  content: { role: 'model', parts: [{ text }] },
  ...extra,
});

export async function startFakePeer(): Promise<FakePeer> {
  const seen: FakePeer['seen'] = [];
  const streams = new Map<string, ServerResponse>();
  let n = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push({ method: req.method ?? '', path: url.pathname, auth: req.headers.authorization, body });
      const [mode, ...rest] = url.pathname.split('/').filter(Boolean) as [PeerMode, ...string[]];
      if (mode === 'deny-401')
        return void res
          .writeHead(401, { 'Content-Type': 'application/json' })
          // Echoes what it was sent, as a careless server might: the tool must cut the token out.
          .end(JSON.stringify({ error: `unauthorized: ${req.headers.authorization ?? 'no token'}` }));
      if (req.method === 'POST' && rest.join('/') === 'sessions') {
        if (mode === 'no-multi')
          return void res.writeHead(501, { 'Content-Type': 'application/json' }).end('{"error":"no session factory"}');
        const sid = `s-${++n}`;
        res.writeHead(201, { 'Content-Type': 'application/json' });
        return void res.end(JSON.stringify({ app: 'core-agent', user: 'hub', sessionID: sid, url: `http://x/sessions/core-agent/${sid}` }));
      }
      const sid = rest[2];
      if (req.method === 'GET' && rest[0] === 'sessions' && rest[3] === 'events' && sid) {
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
        frame(res, 'capabilities', { protocol_version: '1.8.0' });
        streams.set(sid, res);
        return;
      }
      if (req.method === 'POST' && rest[3] === 'inject' && sid) {
        const stream = streams.get(sid);
        const message = (JSON.parse(body) as { message: string }).message;
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ injected: message, session: sid }));
        if (!stream) return;
        frame(stream, 'agent', { author: 'user', content: { role: 'user', parts: [{ text: message }] } });
        if (mode === 'ok') {
          frame(stream, 'agent', say('prod-1 has', { partial: true }));
          frame(stream, 'agent', say(`prod-1 has 12 nodes, all Ready. (asked: ${message.slice(0, 40)})`));
          frame(stream, 'turn-complete', {});
        } else if (mode === 'tools') {
          frame(stream, 'agent', {
            author: 'model',
            content: { parts: [{ text: 'Checking the nodes.' }, { functionCall: { name: 'k8s_list', args: {} } }] },
          });
          frame(stream, 'agent', {
            author: 'model',
            content: { parts: [{ functionResponse: { name: 'k8s_list', response: { items: 12 } } }] },
          });
          frame(stream, 'status-update', { state: 'running' });
          frame(stream, 'agent', say('12 nodes.'));
          frame(stream, 'turn-complete', {});
        } else if (mode === 'huge') {
          frame(stream, 'agent', say('é'.repeat(100_000), { partial: false, turnComplete: false }));
          frame(stream, 'turn-complete', {});
        } else if (mode === 'fail') {
          frame(stream, 'turn-error', { kind: 'rate_limited', message: 'quota exhausted on the peer', retryable: true });
        } else if (mode === 'hangup') {
          stream.end();
        } else if (mode === 'slow') {
          // Streams forever and never ends the turn: only the caller's deadline stops it.
          const beat = setInterval(() => frame(stream, 'agent', say('still thinking', { partial: true })), 20);
          stream.on('close', () => clearInterval(beat));
        }
        return;
      }
      res.writeHead(404).end();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}
