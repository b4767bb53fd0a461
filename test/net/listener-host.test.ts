// The Host/Origin matrix (listener-host.cases.ts) against every HTTP listener core-agent
// opens, each a real server on 127.0.0.1, each line as GET and as POST over a raw socket
// (fetch would drop a forged Host). Then what the matrix cannot say: every createServer
// in src/ is one of these listeners, a pod's own address on a wildcard bind, and "*".
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionHub } from '../../src/attach/hub.ts';
import { startAttachServer } from '../../src/attach/server.ts';
import { sessionRoutes } from '../../src/attach/session-routes.ts';
import { parseTokens } from '../../src/attach/tokens.ts';
import { silentLogger } from '../../src/log.ts';
import { LoopbackRedirect } from '../../src/mcp/oauth-redirect.ts';
import { serveHttp } from '../../src/mcp/serve.ts';
import { parseAllowedHosts } from '../../src/net/allowed-hosts.ts';
import { EventLog } from '../../src/store/event-log.ts';
import { startHealthServer } from '../../src/watch/health-server.ts';
import { startDaemon, workspace } from '../attach/daemon.ts';
import { setup } from '../helpers/workspace.ts';
import { ALLOWED, LISTENER_HOST_CASES, type ListenerHostCase, type Verdict } from './listener-host.cases.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
type Method = 'GET' | 'POST';

interface Running {
  port: number;
  /** Before each request (the OAuth redirect needs a login waiting). */
  before?: () => void;
  stop(): Promise<void>;
}

interface Listener {
  name: string;
  /** The source file that calls createServer. */
  file: string;
  /** Whether it takes the operator's names (ALLOWED). */
  configurable: boolean;
  path: string;
  /** Its answer to an admitted request. */
  admitted: Record<Method, number>;
  headers?: Record<string, string>;
  body?: string;
  /** Refusals are JSON with the field named. */
  json: boolean;
  start(): Promise<Running>;
}

const portOf = (address: string) => Number(address.slice(address.lastIndexOf(':') + 1));
const allowed = () => parseAllowedHosts(ALLOWED);
const TOKEN = 'listener-token-0123456789';

const LISTENERS: Listener[] = [
  {
    name: 'attach daemon (serve, no token)',
    file: 'src/attach/server.ts',
    configurable: true,
    path: '/sessions',
    admitted: { GET: 200, POST: 201 },
    json: true,
    start: async () => {
      // The real daemon with the real root building its sessions: POST /sessions creates one.
      const d = await startDaemon({ ws: workspace([]), tokens: null, allowedHosts: allowed() });
      return { port: d.server.port, stop: () => d.stop() };
    },
  },
  {
    name: "attach daemon (watch's, with tokens)",
    file: 'src/attach/server.ts',
    configurable: true,
    path: '/sessions',
    // watch's hub runs no sessions of its own: an admitted POST /sessions is 501.
    admitted: { GET: 200, POST: 501 },
    headers: { authorization: `Bearer ${TOKEN}` },
    json: true,
    start: async () => {
      const ws = workspace([]);
      const log = EventLog.open(ws.db);
      const hub = new SessionHub({ log, startSession: undefined, logger: silentLogger, promptTimeoutMs: 1000 });
      const server = await startAttachServer({
        host: '127.0.0.1',
        port: 0,
        tokens: parseTokens(`ops=${TOKEN}`, 'T'),
        routes: [sessionRoutes(hub, log)],
        logger: silentLogger,
        allowedHosts: allowed(),
      });
      return {
        port: server.port,
        stop: async () => {
          await server.close();
          await hub.close();
          log.close();
        },
      };
    },
  },
  {
    name: "watch's health and metrics",
    file: 'src/watch/health-server.ts',
    configurable: true,
    path: '/metrics',
    admitted: { GET: 200, POST: 405 },
    json: true,
    start: async () => {
      const s = await startHealthServer(
        { host: '127.0.0.1', port: 0 },
        { ready: () => ({ ok: true, detail: {} }) },
        new Registry(),
        allowed(),
      );
      return { port: portOf(s.address), stop: () => s.close() };
    },
  },
  ...[undefined, TOKEN].map((token): Listener => ({
    name: `mcp serve --http (${token ? 'with a token' : 'no token'})`,
    file: 'src/mcp/serve.ts',
    configurable: true,
    path: '/mcp',
    admitted: { GET: 405, POST: 200 },
    headers: { accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    json: false,
    start: async () => {
      const rt = await setup({ tree: { 'a.txt': 'a\n' } });
      const http = await serveHttp(rt.catalog, rt.dispatcher, {
        host: '127.0.0.1',
        port: 0,
        token,
        allowedHosts: allowed(),
        logger: silentLogger,
      });
      const addr = http.address();
      return {
        port: typeof addr === 'object' && addr ? addr.port : 0,
        stop: () =>
          new Promise<void>((resolve) => {
            http.close(() => resolve());
            http.closeAllConnections();
          }),
      };
    },
  })),
  {
    name: "an MCP OAuth login's loopback redirect",
    file: 'src/mcp/oauth-redirect.ts',
    configurable: false,
    path: '/oauth/callback?state=st-1&code=c-1',
    admitted: { GET: 200, POST: 200 },
    json: false,
    start: async () => {
      const r = new LoopbackRedirect();
      await r.listen();
      return {
        port: Number(new URL(r.url).port),
        // A login waits for each request (a newer one replaces the last, which is fine here).
        before: () => void r.waitForCode('st-1').catch(() => undefined),
        stop: async () => r.close(),
      };
    },
  },
];

interface Answer {
  status: number;
  body: string;
}

/** One request written by hand: any Host (or none, or two), any target. */
function rawRequest(
  port: number,
  o: {
    method: Method;
    target: string;
    host: string | null | readonly string[];
    headers: Record<string, string>;
    origins?: string[];
    body: string;
  },
): Promise<Answer> {
  const lines = [`${o.method} ${o.target} HTTP/${o.host === null ? '1.0' : '1.1'}`];
  for (const h of o.host === null ? [] : typeof o.host === 'string' ? [o.host] : o.host) lines.push(`Host: ${h}`);
  for (const [k, v] of Object.entries(o.headers)) lines.push(`${k}: ${v}`);
  for (const origin of o.origins ?? []) lines.push(`Origin: ${origin}`);
  lines.push(`Content-Length: ${Buffer.byteLength(o.body)}`, 'Connection: close');
  return new Promise((resolve, reject) => {
    // Written, not ended: a client's half-close may end the connection before a slow answer (POST /sessions).
    const socket = connect(port, '127.0.0.1', () => socket.write(`${lines.join('\r\n')}\r\n\r\n${o.body}`));
    const chunks: Buffer[] = [];
    const answer = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const head = text.slice(0, end);
      let body = text.slice(head.length + 4);
      if (/^transfer-encoding:\s*chunked/im.test(head)) body = dechunk(body);
      return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), head, body, complete: end >= 0 };
    };
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      // The MCP SDK answers "connection: keep-alive" over our "close": a body of known length
      // is whole when its bytes are in, rather than when the server's idle timeout (5 s) ends it.
      const a = answer();
      const length = /^content-length:\s*(\d+)/im.exec(a.head)?.[1];
      if (a.complete && length !== undefined && Buffer.byteLength(a.body) >= Number(length)) socket.destroy();
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const { status, body } = answer();
      resolve({ status, body });
    });
  });
}

function dechunk(text: string): string {
  let out = '';
  for (let rest = text; ;) {
    const eol = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, eol), 16);
    if (!(size > 0)) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

const REFUSAL: Record<Exclude<Verdict, 'admit'>, { status: number; says: RegExp; field: string }> = {
  'foreign-host': { status: 403, says: /does not answer to the host/, field: 'Host' },
  'bad-host': { status: 400, says: /Host header/, field: 'Host' },
  origin: { status: 403, says: /[Oo]rigin/, field: 'Origin' },
  'bad-target': { status: 400, says: /request target/, field: 'path' },
};

const fill = (text: string, port: number, p: string) =>
  text
    .replaceAll('{path}', p)
    .replaceAll('{P}', String(port))
    .replaceAll('{Q}', String(port === 65_535 ? port - 1 : port + 1));

describe.each(LISTENERS.map((l) => [l.name, l] as const))('%s', (_, listener) => {
  let running: Running;
  beforeAll(async () => {
    running = await listener.start();
  });
  afterAll(() => running?.stop());

  it.each(LISTENER_HOST_CASES.map((c) => [c.name, c] as const))('%s', async (_, c: ListenerHostCase) => {
    const want = listener.configurable ? c.want : (c.unconfigured ?? c.want);
    const f = (t: string) => fill(t, running.port, listener.path);
    for (const method of ['GET', 'POST'] as const) {
      running.before?.();
      const origins = c.origin === undefined ? [] : typeof c.origin === 'string' ? [c.origin] : c.origin;
      const headers: Record<string, string> = { ...listener.headers, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) };
      const answer = await rawRequest(running.port, {
        method,
        target: f(c.target ?? '{path}'),
        host: c.host === null ? null : typeof c.host === 'string' ? f(c.host) : c.host.map(f),
        headers,
        origins: origins.map(f),
        body: method === 'POST' ? (listener.body ?? '') : '',
      });
      const where = `${method}: ${answer.status} ${answer.body.slice(0, 300)}`;
      if (want === 'admit') {
        expect(answer.status, where).toBe(listener.admitted[method]);
        continue;
      }
      const r = REFUSAL[want];
      expect(answer.status, where).toBe(r.status);
      expect(answer.body, where).toMatch(r.says);
      if (listener.json) expect(JSON.parse(answer.body), where).toMatchObject({ field: r.field });
    }
  });
});

describe('every listener is in the matrix', () => {
  it('each file of src/ that calls createServer is one of the listeners above', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.ts') && /\bcreateServer\s*\(/.test(readFileSync(p, 'utf8'))) files.push(path.relative(repoRoot, p));
      }
    };
    walk(path.join(repoRoot, 'src'));
    expect(files.length).toBeGreaterThanOrEqual(4);
    // A new listener (publish links, a web console) joins LISTENERS, and with it this matrix.
    expect(files.sort()).toEqual([...new Set(LISTENERS.map((l) => l.file))].sort());
  });
});

/** A non-loopback address of this machine (a pod's IP, in a cluster), or undefined. */
const podAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

describe('bound to every interface (the chart binds 0.0.0.0:8080)', () => {
  it.skipIf(podAddress === undefined)(
    "answers to the address a request arrived at (the kubelet's probe: Host podIP:port), not to others",
    async () => {
      const s = await startHealthServer({ host: '0.0.0.0', port: 0 }, { ready: () => ({ ok: true, detail: {} }) }, new Registry());
      try {
        const port = portOf(s.address);
        const get = (connectTo: string, host: string) =>
          new Promise<number>((resolve, reject) => {
            const socket = connect(port, connectTo, () =>
              socket.write(`GET /readyz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
            );
            let text = '';
            socket.on('data', (d: Buffer) => (text += d.toString()));
            socket.on('error', reject);
            socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
          });
        expect(await get(podAddress!, `${podAddress}:${port}`)).toBe(200);
        expect(await get('127.0.0.1', `localhost:${port}`)).toBe(200);
        // The pod's address, but the request came in on loopback: not the address it arrived at.
        expect(await get('127.0.0.1', `${podAddress}:${port}`)).toBe(403);
        expect(await get(podAddress!, `10.255.255.254:${port}`)).toBe(403);
        expect(await get(podAddress!, `${podAddress}:${port === 65_535 ? 1 : port + 1}`)).toBe(403);
      } finally {
        await s.close();
      }
    },
  );
});

describe('"*": any Host, by explicit choice', () => {
  it('with tokens, a daemon answers to any Host, but still refuses a foreign Origin', async () => {
    const ws = workspace([]);
    const log = EventLog.open(ws.db);
    const hub = new SessionHub({ log, startSession: undefined, logger: silentLogger, promptTimeoutMs: 1000 });
    const server = await startAttachServer({
      host: '127.0.0.1',
      port: 0,
      tokens: parseTokens(TOKEN, 'T'),
      routes: [sessionRoutes(hub, log)],
      logger: silentLogger,
      allowedHosts: parseAllowedHosts(['*']),
    });
    try {
      const send = (host: string, headers: Record<string, string> = {}) =>
        rawRequest(server.port, {
          method: 'GET',
          target: '/sessions',
          host,
          headers: { authorization: `Bearer ${TOKEN}`, ...headers },
          body: '',
        });
      expect((await send('public.example.com')).status).toBe(200);
      expect((await send('rebind.evil.example:1')).status).toBe(200);
      const foreign = await send('public.example.com', { origin: 'https://public.example.com' });
      expect(foreign.status).toBe(403);
      expect(JSON.parse(foreign.body)).toMatchObject({ field: 'Origin' });
      // Still no token, still nothing.
      expect((await rawRequest(server.port, { method: 'GET', target: '/sessions', host: 'x.example', headers: {}, body: '' })).status).toBe(
        401,
      );
    } finally {
      await server.close();
      await hub.close();
      log.close();
    }
  });

  it('without tokens, "*" refuses to start', async () => {
    await expect(
      startAttachServer({
        host: '127.0.0.1',
        port: 0,
        tokens: [],
        routes: [],
        logger: silentLogger,
        allowedHosts: parseAllowedHosts(['*']),
      }),
    ).rejects.toThrow(/"\*" needs a bearer token/);
  });
});
