import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
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

async function httpsServer(host: string, cert = 'server') {
  const seen: Array<{ url: string; servername: string | false | null; host: string | undefined }> = [];
  const server = createHttpsServer(
    { key: readFileSync(path.join(fixtures, `${cert}.key`)), cert: readFileSync(path.join(fixtures, `${cert}.pem`)) },
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

  it("refuses a certificate it cannot verify, saying why in a sentence rather than in OpenSSL's words", async () => {
    const server = await httpsServer('127.0.0.1');
    const r = await call('permissions:\n  url_scope: { allow: [localhost] }\n', `https://localhost:${server.port}/`, {});
    expect(r.code).toBe(1);
    expect(String(r.out.error)).toBe(
      `fetch_url: fetch failed: https://localhost:${server.port}/: the server's TLS certificate is signed by a CA that is not trusted, or the server does not send its intermediate certificates; if the operator trusts this server, they can add its CA certificate with NODE_EXTRA_CA_CERTS; there is nothing to change in the call (UNABLE_TO_VERIFY_LEAF_SIGNATURE)`,
    );
    expect(server.seen).toHaveLength(0);
  });

  /** TLS failures as the model reads them: [the server's certificate, the host it listens on, the URL's host, trust the test CA?, expected]. */
  const TLS_FAILURES: Array<[cert: string, listen: string, host: string, trustCa: boolean, expected: RegExp]> = [
    [
      'self-signed',
      '127.0.0.1',
      'localhost',
      false,
      /: the server presented a self-signed TLS certificate, which is not trusted; .*\(DEPTH_ZERO_SELF_SIGNED_CERT\)$/,
    ],
    [
      'expired',
      '127.0.0.1',
      'localhost',
      false,
      /: the server's TLS certificate has expired, so the connection was refused; .*\(CERT_HAS_EXPIRED\)$/,
    ],
    // The test CA signed the certificate for localhost, svc.test, 127.0.0.1 and 127.0.0.2 — not 127.0.0.3.
    [
      'server',
      '127.0.0.3',
      '127.0.0.3',
      true,
      /: the server's TLS certificate is issued for other host names, not this one; .*\(ERR_TLS_CERT_ALTNAME_INVALID\)$/,
    ],
  ];
  it.each(TLS_FAILURES)('%s certificate on %s, fetched as %s', async (cert, listen, host, trustCa, expected) => {
    const server = await httpsServer(listen, cert);
    const r = await call(
      `permissions:\n  url_scope: { allow: ["${host}"] }\n`,
      `https://${host}:${server.port}/`,
      trustCa ? { NODE_EXTRA_CA_CERTS: CA } : {},
    );
    expect(r.code).toBe(1);
    expect(String(r.out.error)).toMatch(expected);
    expect(String(r.out.error)).not.toMatch(/self-signed certificate;|certificate has expired$|Hostname\/IP does not match/);
    expect(server.seen).toHaveLength(0);
  });

  it('an MCP server behind a certificate it cannot verify: the log says why in a sentence', async () => {
    const server = await httpsServer('127.0.0.1', 'self-signed');
    const dir = await tempDir();
    await writeTree(dir, { 'recipe.yaml': `mcp:\n  servers:\n    remote:\n      url: https://localhost:${server.port}/mcp\n` });
    const r = await runCli(['tools', 'list', '-c', 'recipe.yaml', '--log-level', 'warn'], dir);
    expect(r.stderr).toMatch(/the server presented a self-signed TLS certificate, which is not trusted; .*\(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
    expect(r.stderr).not.toMatch(/self-signed certificate["; ]/);
  });

  it('https:// to a port that speaks plain HTTP says so, and what to do', async () => {
    const plain = createHttpServer((_req, res) => res.end('plain'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => (plain.closeAllConnections(), plain.close(() => resolve()))));
    const port = (plain.address() as AddressInfo).port;
    const r = await call('permissions:\n  url_scope: { allow: ["127.0.0.1"] }\n', `https://127.0.0.1:${port}/`);
    expect(String(r.out.error)).toMatch(
      /: the server did not answer in TLS: this port probably serves plain HTTP; use its HTTPS port, or an http:\/\/ URL where plain HTTP is allowed for this host \(ERR_SSL_(WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST)\)$/,
    );
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
