import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach } from 'vitest';

export interface CountingServer {
  readonly host: string;
  readonly port: number;
  /** `http://host:port` */
  readonly origin: string;
  /** Every request that reached this server, in order. */
  readonly requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;
}

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

/**
 * An HTTP server on a loopback address (any of 127.0.0.0/8 works on Linux) that
 * records every request it receives: the SSRF tests count hits server-side.
 */
export async function countingServer(
  host: string,
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void = (_q, res) => res.end('ok'),
): Promise<CountingServer> {
  const requests: CountingServer['requests'] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  open.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const origin = host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
  return { host, port, origin, requests };
}

/**
 * An HTTP proxy that only tunnels (CONNECT), recording each tunnel's target.
 * With `auth`, a tunnel without that Proxy-Authorization is answered 407.
 */
export async function connectProxy(host: string, auth?: string): Promise<{ url: string; tunnels: string[] }> {
  const tunnels: string[] = [];
  const proxy = createServer();
  proxy.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    if (auth !== undefined && req.headers['proxy-authorization'] !== auth) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
      return;
    }
    const [target, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), target!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, host, resolve));
  open.push(
    () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  );
  return { url: `http://${host}:${(proxy.address() as AddressInfo).port}`, tunnels };
}

/**
 * A proxy that tunnels nothing: it records each CONNECT target and refuses it. A
 * fetch configured through it can never reach an address off this machine, even
 * when the guard under test wrongly lets it through — the tunnel list shows it.
 */
export async function sinkholeProxy(): Promise<{ url: string; tunnels: string[] }> {
  const tunnels: string[] = [];
  const proxy = createServer();
  proxy.on('connect', (req: IncomingMessage, client: Socket) => {
    tunnels.push(req.url ?? '');
    client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  open.push(
    () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, tunnels };
}
