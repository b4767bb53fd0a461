// A minimal Kubernetes API on 127.0.0.1 for benchmarks that need `core-agent watch` idle but no
// cluster: it answers the list of a namespace's Events (empty, resourceVersion "1") and holds
// each watch of them open with nothing to say, which is all an informer at rest sees.
// Anything else is a 404 Status, as the API server says it. Plain HTTP by default; the
// kubeconfig it writes points at it with no credentials (and insecure-skip-tls-verify, which
// the client asks of a plain-HTTP server). With `tls`, HTTPS with the test CA's certificate
// (test/fixtures/tls), the CA in the kubeconfig and a bearer token, as a real cluster is reached.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';

const fixture = (name: string) => readFileSync(new URL(`../test/fixtures/tls/${name}`, import.meta.url), 'utf8');

export interface FakeKubeApi {
  kubeconfig: string;
  /** Every request's method and path (query included), in order. */
  requests: string[];
  close(): Promise<void>;
}

const EVENTS = /^\/api\/v1\/(?:namespaces\/[a-z0-9-]+\/)?events$/;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Starts the API and writes a kubeconfig for it to `kubeconfigPath`. */
export async function startFakeKubeApi(kubeconfigPath: string, opts: { tls?: boolean } = {}): Promise<FakeKubeApi> {
  const requests: string[] = [];
  const open = new Set<ServerResponse>();
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method} ${req.url}`);
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method === 'GET' && EVENTS.test(url.pathname)) {
      if (url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1') {
        // A watch at rest: headers, then silence until the client or the server closes.
        res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
        res.flushHeaders();
        open.add(res);
        res.on('close', () => open.delete(res));
        return;
      }
      return json(res, 200, { kind: 'EventList', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items: [] });
    }
    json(res, 404, {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'NotFound',
      code: 404,
      message: `${url.pathname} not found`,
    });
  };
  const server = opts.tls ? createTlsServer({ key: fixture('server.key'), cert: fixture('server.pem') }, handle) : createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await writeFile(
    kubeconfigPath,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'fake',
          cluster: opts.tls
            ? { server: `https://127.0.0.1:${port}`, 'certificate-authority-data': Buffer.from(fixture('ca.pem')).toString('base64') }
            : { server: `http://127.0.0.1:${port}`, 'insecure-skip-tls-verify': true },
        },
      ],
      users: [{ name: 'fake', user: opts.tls ? { token: 'bench-token' } : {} }],
      contexts: [{ name: 'fake', context: { cluster: 'fake', user: 'fake', namespace: 'default' } }],
      'current-context': 'fake',
    }),
  );
  return {
    kubeconfig: kubeconfigPath,
    requests,
    close: () =>
      new Promise((resolve) => {
        for (const res of open) res.destroy();
        server.close(() => resolve());
      }),
  };
}
