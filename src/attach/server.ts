import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { principal as makePrincipal } from '../core/principal.ts';
import type { Logger } from '../log.ts';
import { anyHostProblem, type AllowedHostEntry } from '../net/allowed-hosts.ts';
import { isLoopbackBind, ListenerHostPolicy } from '../net/listener-host.ts';
import { HttpError, sendError, sendJson } from './http.ts';
import type { Caller, Route } from './route.ts';
import { principalOf, type TokenEntry } from './tokens.ts';

/** The principal of every request to a tokenless loopback daemon. */
export const ANONYMOUS = 'anonymous';

export interface AttachServerOptions {
  host: string;
  port: number;
  /** Bearer tokens and their principals; empty: no token (loopback only). */
  tokens: readonly TokenEntry[];
  /** Asked in order after authentication: the session API, then what the caller mounts (the peer registry). */
  routes: readonly Route[];
  logger: Logger;
  /** Host names it answers to besides its own address (attach.allowed_hosts, --allowed-host). */
  allowedHosts?: readonly AllowedHostEntry[];
}

/** Where an operator adds a host name the daemon answers to (named in a refusal). */
export const ATTACH_HOSTS_SETTING = 'attach.allowed_hosts (or serve --allowed-host)';

export interface AttachServer {
  /** HOST:PORT as bound (port 0 resolved). */
  readonly address: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The attach daemon's HTTP server. Every request first passes the listeners'
 * Host/Origin policy (src/net/listener-host.ts: a host it answers to, a page
 * served from one), then is authenticated — a token in `X-Attach-Token` (which
 * wins, even when wrong) or `Authorization: Bearer`, compared in constant time —
 * then a write must say `Content-Type: application/json`, then each route is
 * asked in turn. Without tokens it listens only on a loopback address: anything
 * else refuses to start.
 */
export async function startAttachServer(o: AttachServerOptions): Promise<AttachServer> {
  if (o.tokens.length === 0 && !isLoopbackBind(o.host)) {
    throw new Error(`listening on ${o.host} (not loopback) needs bearer tokens: anyone who can reach it could drive the agent`);
  }
  const anyHost = anyHostProblem(o.allowedHosts ?? [], o.tokens.length > 0, 'attach.allowed_hosts');
  if (anyHost) throw new Error(anyHost);
  const policy = new ListenerHostPolicy({ bind: o.host, allowed: o.allowedHosts ?? [], setting: ATTACH_HOSTS_SETTING });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const admitted = policy.check(req);
    if (!admitted.ok) return sendError(res, new HttpError(admitted.status, admitted.error, admitted.field));
    const url = admitted.url;
    try {
      const caller = authenticate(req, o.tokens);
      checkWrite(req);
      for (const route of o.routes) if (await route(req, res, url, caller)) return;
      throw new HttpError(404, `no such endpoint: ${req.method} ${url.pathname.slice(0, 200)}`);
    } catch (err) {
      if (res.headersSent) {
        res.end();
        return;
      }
      if (err instanceof HttpError) return sendError(res, err);
      o.logger.error({ err: (err as Error).message, path: url.pathname }, 'attach request failed');
      sendJson(res, 500, { error: 'internal error (the daemon log has the cause)' });
    }
  };
  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    address: `${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // SSE streams never end by themselves.
        server.closeAllConnections();
      }),
  };
}

function authenticate(req: IncomingMessage, tokens: readonly TokenEntry[]): Caller {
  if (tokens.length === 0) return { principal: ANONYMOUS, who: makePrincipal(ANONYMOUS), source: 'anonymous' };
  const header = req.headers['x-attach-token'];
  const auth = req.headers.authorization;
  let presented: string | undefined;
  if (typeof header === 'string') presented = header;
  else if (typeof auth === 'string' && /^bearer /i.test(auth)) presented = auth.slice(7).trim();
  const who = presented === undefined ? null : principalOf(presented, tokens);
  if (who === null) {
    const why = presented === undefined ? 'no bearer token (Authorization: Bearer TOKEN or X-Attach-Token)' : 'the token is not valid';
    throw new HttpError(401, why, undefined, { 'www-authenticate': 'Bearer realm="attach"' });
  }
  return { principal: who.name, who, source: 'bearer' };
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF: a browser may send a cross-site POST without asking first only as a
 * "simple request" (text/plain, a form), so writes must be JSON. (The page's
 * Origin was checked with the Host, for reads too.)
 */
function checkWrite(req: IncomingMessage): void {
  if (READS.has(req.method ?? 'GET')) return;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError(415, 'a write needs Content-Type: application/json (even without a body)');
}
