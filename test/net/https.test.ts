import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { connectProxy } from '../helpers/http-servers.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';

/**
 * HTTPS through the bundle, as an operator runs it: a server with a certificate
 * from a test CA, trusted the standard Node way (NODE_EXTRA_CA_CERTS), so TLS is
 * verified for real — by name after the pinned connection, and inside a proxy tunnel.
 */
const fixtures = fileURLToPath(new URL('../fixtures/tls/', import.meta.url));
const CA = path.join(fixtures, 'ca.pem');
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function httpsServer(host: string) {
  const seen: Array<{ url: string; servername: string | false | null; host: string | undefined }> = [];
  const server = createHttpsServer(
    { key: readFileSync(path.join(fixtures, 'server.key')), cert: readFileSync(path.join(fixtures, 'server.pem')) },
    (req, res) => {
      seen.push({ url: req.url ?? '', servername: (req.socket as TLSSocket).servername, host: req.headers.host });
      res.setHeader('content-type', 'text/plain');
      res.end('secure hello');
    },
  );
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  closers.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { port: (server.address() as AddressInfo).port, seen };
}

async function call(recipe: string, url: string, env: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: CA }) {
  const dir = await tempDir();
  await writeTree(dir, { 'recipe.yaml': recipe });
  const r = await runCli(['tools', 'call', 'fetch_url', JSON.stringify({ url }), '-c', 'recipe.yaml'], dir, env);
  return { code: r.code, out: JSON.parse(r.stdout) as Record<string, unknown>, stderr: r.stderr };
}

describe('fetch_url over HTTPS (the bundle)', () => {
  it('verifies the certificate for the name, on the pinned connection', async () => {
    const server = await httpsServer('127.0.0.1');
    const byName = await call('permissions:\n  url_scope: { allow: [localhost] }\n', `https://localhost:${server.port}/a`);
    expect(byName.out).toMatchObject({ status: 200, body: 'secure hello' });
    expect(server.seen[0]).toEqual({ url: '/a', servername: 'localhost', host: `localhost:${server.port}` });
    const byAddress = await call('permissions:\n  url_scope: { allow: ["127.0.0.1"] }\n', `https://127.0.0.1:${server.port}/b`);
    expect(byAddress.out).toMatchObject({ status: 200, body: 'secure hello' });
    expect(server.seen).toHaveLength(2);
  });

  it('refuses a certificate it cannot verify', async () => {
    const server = await httpsServer('127.0.0.1');
    const r = await call('permissions:\n  url_scope: { allow: [localhost] }\n', `https://localhost:${server.port}/`, {});
    expect(r.code).toBe(1);
    expect(String(r.out.error)).toMatch(/fetch failed: .*(self-signed|unable to verify|certificate)/i);
    expect(server.seen).toHaveLength(0);
  });

  it('tunnels through a configured proxy to the checked address, with TLS to the name inside', async () => {
    const server = await httpsServer('127.0.0.1');
    const { url: proxyUrl, tunnels } = await connectProxy('127.0.0.5');
    const r = await call(`permissions:\n  url_scope: { allow: [localhost], proxy: "${proxyUrl}" }\n`, `https://localhost:${server.port}/t`);
    expect(r.out).toMatchObject({ status: 200, body: 'secure hello' });
    expect(tunnels).toEqual([`127.0.0.1:${server.port}`]);
    expect(server.seen[0]).toMatchObject({ url: '/t', servername: 'localhost' });
  });
});
