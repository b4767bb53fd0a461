// Vertex AI with a service-account key file (GOOGLE_APPLICATION_CREDENTIALS), end to end
// through the bundle: google-auth-library signs a JWT with the file's key and exchanges it
// at https://oauth2.googleapis.com/token, and the call carries the token it got. No
// network: the exchange goes through an HTTPS proxy (HTTPS_PROXY, which the Google client
// honours) that tunnels every CONNECT to a local TLS server holding a certificate for
// oauth2.googleapis.com from a throwaway CA made here with openssl and trusted through
// NODE_EXTRA_CA_CERTS. The token server checks the JWT's signature with the key's public half.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, verify } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { fakeProvider, type FakeServer } from '../helpers/fake-providers.ts';
import { tempDir } from '../helpers/workspace.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** A CA and a certificate for oauth2.googleapis.com it signed, made with openssl in `dir`. */
function certificates(dir: string): { ca: string; key: string; cert: string } {
  const p = (f: string) => path.join(dir, f);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  try {
    ssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      p('ca.key'),
      '-out',
      p('ca.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=core-agent test CA',
    );
    ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', p('leaf.key'), '-out', p('leaf.csr'), '-subj', '/CN=oauth2.googleapis.com');
    execFileSync('bash', ['-c', `printf 'subjectAltName=DNS:oauth2.googleapis.com\\n' > ${p('ext.cnf')}`]);
    ssl(
      'x509',
      '-req',
      '-in',
      p('leaf.csr'),
      '-CA',
      p('ca.pem'),
      '-CAkey',
      p('ca.key'),
      '-CAcreateserial',
      '-out',
      p('leaf.pem'),
      '-days',
      '2',
      '-extfile',
      p('ext.cnf'),
    );
  } catch (err) {
    throw new Error(`this test makes its certificates with openssl, which failed: ${(err as Error).message}`);
  }
  return { ca: p('ca.pem'), key: p('leaf.key'), cert: p('leaf.pem') };
}

const b64url = (s: string) => Buffer.from(s, 'base64url');

describe('vertex with a service-account key file', () => {
  it('signs a JWT with the key, exchanges it for a token, and sends that token on the call', async () => {
    const dir = await tempDir();
    const { ca, key, cert } = certificates(dir);
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const email = 'core-agent@test-project.iam.gserviceaccount.com';
    const keyFile = path.join(dir, 'sa.json');
    await writeFile(
      keyFile,
      JSON.stringify({
        type: 'service_account',
        project_id: 'test-project',
        private_key_id: 'k1',
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
        client_email: email,
        client_id: '1',
        token_uri: 'https://oauth2.googleapis.com/token',
      }),
    );

    // The token endpoint, on TLS with the oauth2.googleapis.com certificate.
    const exchanges: Array<{ header: Record<string, unknown>; claims: Record<string, unknown>; signed: boolean }> = [];
    const { readFileSync } = await import('node:fs');
    const tokenServer = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const [h, c, s] = (form.get('assertion') ?? '..').split('.');
        const signed = verify('RSA-SHA256', Buffer.from(`${h}.${c}`), publicKey, b64url(s!));
        exchanges.push({ header: JSON.parse(b64url(h!).toString()), claims: JSON.parse(b64url(c!).toString()), signed });
        if (req.url !== '/token' || form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' || !signed) {
          res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: 'ya29.service-account-token', expires_in: 3600, token_type: 'Bearer' }));
      });
    });
    await new Promise<void>((r) => tokenServer.listen(0, '127.0.0.1', r));
    closers.push(
      () =>
        new Promise((r) => {
          tokenServer.closeAllConnections();
          tokenServer.close(() => r());
        }),
    );
    const tokenPort = (tokenServer.address() as AddressInfo).port;

    // The proxy: every tunnel, whatever it asks for, ends at the token server.
    const tunnels: string[] = [];
    const sockets = new Set<Socket>(); // tunnels are not the server's connections: closed by hand
    const proxy = http.createServer();
    proxy.on('connect', (req: http.IncomingMessage, client: Socket, head: Buffer) => {
      tunnels.push(req.url ?? '');
      sockets.add(client);
      const upstream = connect(tokenPort, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    closers.push(
      () =>
        new Promise((r) => {
          for (const socket of sockets) socket.destroy();
          proxy.closeAllConnections();
          proxy.close(() => r());
        }),
    );

    const gemini: FakeServer = await fakeProvider('google', [{ text: 'Hello from Vertex.' }]);
    closers.push(() => gemini.close());
    const ws = await tempDir();
    const r = await runCli(['run', '-m', 'vertex:gemini-2.5-flash', '--session-db', ':memory:', 'hi'], ws, {
      GOOGLE_APPLICATION_CREDENTIALS: keyFile,
      GOOGLE_CLOUD_PROJECT: 'test-project',
      GOOGLE_VERTEX_BASE_URL: gemini.url,
      HTTPS_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      NO_PROXY: '127.0.0.1',
      NODE_EXTRA_CA_CERTS: ca,
      // Never the metadata server: the key file must be what is used.
      GCE_METADATA_HOST: '127.0.0.1:9',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('Hello from Vertex.\n');
    expect(tunnels).toEqual(['oauth2.googleapis.com:443']);
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]!.signed).toBe(true);
    expect(exchanges[0]!.header).toMatchObject({ alg: 'RS256' });
    expect(exchanges[0]!.claims).toMatchObject({ iss: email, aud: 'https://oauth2.googleapis.com/token' });
    expect(String(exchanges[0]!.claims.scope)).toContain('https://www.googleapis.com/auth/cloud-platform');
    expect(gemini.requests[0]!.headers.authorization).toBe('Bearer ya29.service-account-token');
  });
});
