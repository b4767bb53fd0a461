import { principal as makePrincipal } from '../../src/core/principal.ts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { peersRoute } from '../../src/attach/peers-route.ts';
import type { PeerRegistry } from '../../src/attach/peers-registry.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/**
 * A hub on 127.0.0.1 serving only the peers route, behind a stand-in for the
 * daemon's authentication: `Authorization: Bearer <principal>` is the caller,
 * no header is 401 (what the real server does before any route runs).
 */
export async function startHub(registry: PeerRegistry): Promise<{ url: string; requests: string[] }> {
  const route = peersRoute(registry);
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(`${req.method} ${url.pathname}`);
    const principal = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!principal) {
      res.writeHead(401).end();
      return;
    }
    route(req, res, url, { principal, who: makePrincipal(principal) }).then(
      (handled) => {
        if (!handled) res.writeHead(404).end();
      },
      (err: Error) => {
        res.writeHead(500).end(err.message);
      },
    );
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}
