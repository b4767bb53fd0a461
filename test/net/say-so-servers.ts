import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Resolver } from '../../src/net/guarded-fetch.ts';
import type { Destination } from './say-so.cases.ts';

/**
 * The servers behind the say-so matrix's destinations, each recording every
 * request it receives (and how many body bytes it managed to write).
 *
 * Outside a network namespace only loopback addresses can carry a server, and
 * the resolver seam maps the test names onto them; destinations that need a
 * real metadata or RFC 1918 address (`netnsOnly`) run only inside the private
 * namespace say-so.test.ts makes, where those addresses sit on its loopback
 * interface and /etc/hosts (bind-mounted) maps the names. Nothing in there can
 * reach this machine's real network, so a regression sends nothing anywhere.
 */
export type ServerKey = 'origin' | 'loopback' | 'metadata' | 'metaName' | 'private' | 'internal' | 'named';

interface Place {
  /** Where it listens outside a namespace; null: nowhere (its rows run only in the namespace). */
  outer: string | null;
  netns: string;
  /** The name that resolves to it, if any. */
  name?: string;
}

const PLACES: Record<ServerKey, Place> = {
  // The MCP server (with its authorization server), the hub: hosts the operator named.
  origin: { outer: '127.0.0.2', netns: '127.0.0.2', name: 'origin.test' },
  loopback: { outer: '127.0.0.1', netns: '127.0.0.1' },
  metadata: { outer: null, netns: '169.254.169.254' },
  metaName: { outer: '127.0.0.14', netns: '10.11.12.14', name: 'metadata.google.internal' },
  private: { outer: null, netns: '10.11.12.13' },
  internal: { outer: '127.0.0.3', netns: '10.11.12.16', name: 'internal.test' },
  // auth.test: in every path's private_hosts.
  named: { outer: '127.0.0.4', netns: '10.11.12.15', name: 'auth.test' },
};

/** In the namespace only: a name resolving to the metadata address. */
const EXTRA_NAMES: Record<string, string> = { 'meta.test': '169.254.169.254' };

/** The addresses the namespace's loopback interface carries, and its /etc/hosts. */
export const NETNS_ADDRESSES = ['169.254.169.254', '10.11.12.13', '10.11.12.14', '10.11.12.15', '10.11.12.16'];
export const NETNS_HOSTS = [
  '127.0.0.1 localhost',
  ...Object.values(PLACES)
    .filter((p) => p.name)
    .map((p) => `${p.netns} ${p.name}`),
  ...Object.entries(EXTRA_NAMES).map(([name, address]) => `${address} ${name}`),
].join('\n');

export interface DestinationSpec {
  /** The host as the say-so writes it. */
  host: string;
  /** The server it reaches if nothing stops it. */
  server: ServerKey;
  /** A named host answering with a redirect to this destination's server. */
  redirectTo?: ServerKey;
  huge?: boolean;
  /** Needs an address or a name only the namespace has. */
  netnsOnly?: boolean;
}

export const DESTINATIONS: Record<Destination, DestinationSpec> = {
  metadata: { host: '169.254.169.254', server: 'metadata', netnsOnly: true },
  'metadata-decimal': { host: '2852039166', server: 'metadata', netnsOnly: true },
  'metadata-hex': { host: '0xa9fea9fe', server: 'metadata', netnsOnly: true },
  'metadata-mapped': { host: '[::ffff:169.254.169.254]', server: 'metadata', netnsOnly: true },
  'metadata-name': { host: 'metadata.google.internal', server: 'metaName' },
  'name-to-metadata': { host: 'meta.test', server: 'metadata', netnsOnly: true },
  loopback: { host: '127.0.0.1', server: 'loopback' },
  'loopback-mapped': { host: '[::ffff:127.0.0.1]', server: 'loopback' },
  'loopback-decimal': { host: '2130706433', server: 'loopback' },
  'loopback-hex': { host: '0x7f000001', server: 'loopback' },
  private: { host: '10.11.12.13', server: 'private', netnsOnly: true },
  'name-to-private': { host: 'internal.test', server: 'internal' },
  'redirect-to-metadata': { host: 'auth.test', server: 'named', redirectTo: 'metadata', netnsOnly: true },
  'redirect-to-loopback': { host: 'auth.test', server: 'named', redirectTo: 'loopback' },
  named: { host: 'auth.test', server: 'named' },
  huge: { host: 'auth.test', server: 'named', huge: true },
};

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** What a destination server answers in the current case. */
export type Reply = { kind: 'plain' } | { kind: 'huge' } | { kind: 'redirect'; to: string };

/** What the origin (an OAuth-protected MCP server and its authorization server) points at, per case. */
export interface OriginScenario {
  resourceMetadata?: string;
  authorizationServer?: string;
  tokenEndpoint?: string;
  registrationEndpoint?: string;
}

export interface Recorder {
  readonly key: ServerKey;
  readonly address: string;
  readonly port: number;
  readonly requests: Recorded[];
  /** Body bytes written by a huge reply before the client stopped reading. */
  written: number;
  reply: Reply;
}

export const HUGE_BYTES = 200 * 1024 * 1024;

export interface World {
  readonly inNetns: boolean;
  readonly servers: Record<ServerKey, Recorder | undefined>;
  scenario: OriginScenario;
  /** The resolver for core-agent: the seam outside the namespace, the system's (hosts file) inside. */
  readonly resolve: Resolver | undefined;
  /** `http://host:port` for a destination, or undefined when its server is not here. */
  urlOf(d: Destination): string | undefined;
  /** The origin's base URL, by name. */
  readonly origin: string;
  reset(): void;
  close(): Promise<void>;
}

export async function startWorld(inNetns: boolean): Promise<World> {
  const servers = {} as Record<ServerKey, Recorder | undefined>;
  const open: Server[] = [];
  const world: World = {
    inNetns,
    servers,
    scenario: {},
    resolve: inNetns
      ? undefined
      : async (host) => {
          const place = Object.values(PLACES).find((p) => p.name === host);
          if (!place?.outer) throw Object.assign(new Error(`no answer for ${host}`), { code: 'ENOTFOUND' });
          return [place.outer];
        },
    urlOf(d) {
      const spec = DESTINATIONS[d];
      const server = servers[spec.server];
      if (!server || (spec.netnsOnly && !inNetns)) return undefined;
      const target = spec.redirectTo ? servers[spec.redirectTo] : server;
      if (!target) return undefined;
      return `http://${spec.host}:${server.port}`;
    },
    get origin() {
      return `http://origin.test:${servers.origin!.port}`;
    },
    reset() {
      world.scenario = {};
      for (const s of Object.values(servers)) {
        if (!s) continue;
        s.requests.length = 0;
        s.written = 0;
        s.reply = { kind: 'plain' };
      }
    },
    async close() {
      for (const s of open) {
        s.closeAllConnections();
        await new Promise((r) => s.close(r));
      }
    },
  };
  for (const [key, place] of Object.entries(PLACES) as Array<[ServerKey, Place]>) {
    const address = inNetns ? place.netns : place.outer;
    if (address === null) continue;
    const rec: Recorder = { key, address, port: 0, requests: [], written: 0, reply: { kind: 'plain' } };
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        rec.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        if (key === 'origin') return serveOrigin(world, req, res);
        answer(rec, req, res);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, address, resolve);
    });
    (rec as { port: number }).port = (server.address() as AddressInfo).port;
    servers[key] = rec;
    open.push(server);
  }
  return world;
}

function answer(rec: Recorder, req: IncomingMessage, res: ServerResponse): void {
  const reply = rec.reply;
  if (reply.kind === 'redirect') {
    res.writeHead(302, { location: `${reply.to}${req.url ?? '/'}` }).end();
    return;
  }
  if (reply.kind === 'huge') {
    // Lazily, with backpressure: a client that stops reading stops the stream.
    res.writeHead(200, { 'content-type': /events$/.test(req.url ?? '') ? 'text/event-stream' : 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = () => {
      while (rec.written < HUGE_BYTES && !res.destroyed) {
        rec.written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
    return;
  }
  res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not here"}');
}

/** The MCP server behind OAuth, and its own authorization server, pointing where the case says. */
function serveOrigin(world: World, req: IncomingMessage, res: ServerResponse): void {
  const own = world.origin;
  const s = world.scenario;
  const json = (status: number, body: unknown, headers: Record<string, string> = {}): void =>
    void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  const path = new URL(req.url ?? '/', own).pathname;
  if (path === '/mcp')
    return json(
      401,
      { error: 'invalid_token' },
      { 'www-authenticate': `Bearer resource_metadata="${s.resourceMetadata ?? `${own}/.well-known/oauth-protected-resource/mcp`}"` },
    );
  if (path.startsWith('/.well-known/oauth-protected-resource'))
    return json(200, { resource: `${own}/mcp`, authorization_servers: [s.authorizationServer ?? own] });
  if (path.startsWith('/.well-known/oauth-authorization-server') || path.startsWith('/.well-known/openid-configuration'))
    return json(200, {
      issuer: own,
      authorization_endpoint: `${own}/authorize`,
      token_endpoint: s.tokenEndpoint ?? `${own}/token`,
      registration_endpoint: s.registrationEndpoint ?? `${own}/register`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    });
  return json(400, { error: 'invalid_request' });
}
