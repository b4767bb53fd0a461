import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { AllowedHostEntry } from '../net/allowed-hosts.ts';
import { ListenerHostPolicy } from '../net/listener-host.ts';

export interface HealthState {
  /** Ready: the event informer is in step with the API and the watcher is not shutting down. */
  ready(): { ok: boolean; detail: Record<string, unknown> };
}

/** Where an operator adds a host name the health port answers to (named in a refusal). */
export const HEALTH_HOSTS_SETTING = 'watch --allowed-host';

/**
 * One port for the kubelet and Prometheus: GET /healthz (alive: the event loop
 * answers), /readyz (200 once the informer has synced, 503 before and while
 * shutting down), /metrics (Prometheus text). Nothing else is served. Every
 * path takes the listeners' Host policy: /metrics names the namespaces and
 * reasons of incidents, which a rebinding page must not read. The kubelet's
 * probes and Prometheus name the pod's IP, the address they connect to, which
 * the policy allows; a Service name is an --allowed-host entry.
 */
export async function startHealthServer(
  listen: { host: string; port: number },
  state: HealthState,
  registry: Registry,
  allowedHosts: readonly AllowedHostEntry[] = [],
) {
  const policy = new ListenerHostPolicy({ bind: listen.host, allowed: allowedHosts, setting: HEALTH_HOSTS_SETTING });
  const server = http.createServer((req, res) => {
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    const admitted = policy.check(req);
    if (!admitted.ok) return json(admitted.status, { error: admitted.error, field: admitted.field });
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    switch (admitted.url.pathname) {
      case '/healthz':
        json(200, { status: 'ok' });
        return;
      case '/readyz': {
        const { ok, detail } = state.ready();
        json(ok ? 200 : 503, { status: ok ? 'ready' : 'not ready', ...detail });
        return;
      }
      case '/metrics':
        registry.metrics().then(
          (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
          (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${(err as Error).message}\n`),
        );
        return;
      default:
        json(404, { error: 'not found; try /healthz, /readyz or /metrics' });
    }
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    address: `${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // a Prometheus scraper's keep-alive must not hold shutdown
      }),
    server,
  };
}

export { parseListen } from './listen.ts';
