// The chart's `helm test` script (helm/core-agent/files/helm-test.mjs), run by Node as
// the test pod runs it, against a fake API server and a fake /readyz on 127.0.0.1.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, '..', '..', 'helm', 'core-agent', 'files', 'helm-test.mjs');
const TOKEN = 'sa-token-for-the-test';
// A test CA and a server certificate for 127.0.0.1 (test/fixtures/tls/README.md).
const tls = join(import.meta.dirname, '..', 'fixtures', 'tls');

interface Fake {
  readyz: number;
  /** "verb resource namespace" → allowed; absent → denied. */
  grants: Set<string>;
  reviewStatus?: number;
}

let server: Server | undefined;
afterEach(() => server?.close());

async function start(fake: Fake, https = false): Promise<{ url: string; port: number; reviews: unknown[] }> {
  const reviews: unknown[] = [];
  const handler: RequestListener = (req, res) => {
    if (req.url === '/readyz') return void res.writeHead(fake.readyz).end(fake.readyz === 200 ? 'ok' : 'informer not synced');
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews')
        return void res.writeHead(404).end();
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end('{"reason":"Unauthorized"}');
      if (fake.reviewStatus) return void res.writeHead(fake.reviewStatus).end('{"reason":"Forbidden"}');
      const review = JSON.parse(body) as { spec: { resourceAttributes: { verb: string; resource: string; namespace: string } } };
      reviews.push(review);
      const a = review.spec.resourceAttributes;
      const allowed = fake.grants.has(`${a.verb} ${a.resource} ${a.namespace}`);
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ ...review, status: { allowed } }));
    });
  };
  server = https
    ? createHttpsServer({ key: readFileSync(join(tls, 'server.key')), cert: readFileSync(join(tls, 'server.pem')) }, handler)
    : createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const port = (server!.address() as AddressInfo).port;
  return { url: `${https ? 'https' : 'http'}://127.0.0.1:${port}`, port, reviews };
}

function runScript(env: Record<string, string>): Promise<{ code: number; stdout: string }> {
  const saDir = mkdtempSync(join(tmpdir(), 'core-agent-sa-'));
  writeFileSync(join(saDir, 'token'), `${TOKEN}\n`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], {
      env: { PATH: process.env.PATH ?? '', SERVICE_ACCOUNT_DIR: saDir, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout }));
  });
}

const CHECKS = [
  { verb: 'list', resource: 'pods', allowed: true },
  { verb: 'get', resource: 'pods', subresource: 'log', namespace: 'ns', allowed: true },
  { verb: 'get', resource: 'secrets', allowed: false },
];
const GRANTS = ['list pods ', 'get pods ns'];

describe('helm test script: readiness through the Service, RBAC through SelfSubjectAccessReview', () => {
  it('passes when /readyz is 200 and every review answers as expected', async () => {
    const { url, reviews } = await start({ readyz: 200, grants: new Set(GRANTS) });
    const r = await runScript({ READYZ_URL: `${url}/readyz`, KUBE_API_URL: url, ACCESS_CHECKS: JSON.stringify(CHECKS) });
    expect(r.stdout).toContain('all checks passed');
    expect(r.code).toBe(0);
    expect(reviews).toHaveLength(3);
    expect(reviews[1]).toMatchObject({
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { verb: 'get', resource: 'pods', subresource: 'log', namespace: 'ns', group: '' } },
    });
  });

  it('in a pod: the API server from KUBERNETES_SERVICE_*, trusted through NODE_EXTRA_CA_CERTS', async () => {
    const { port, reviews } = await start({ readyz: 200, grants: new Set(GRANTS) }, true);
    const inPod = { KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: String(port), ACCESS_CHECKS: JSON.stringify(CHECKS) };
    const r = await runScript({ ...inPod, NODE_EXTRA_CA_CERTS: join(tls, 'ca.pem') });
    expect(r.stdout).toContain('all checks passed');
    expect(r.code).toBe(0);
    expect(reviews).toHaveLength(3);
    // Without the CA the API server is not trusted, and every check says so.
    const untrusted = await runScript(inPod);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stdout).toMatch(/FAIL list pods cluster-wide: fetch failed: UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
  });

  it('fails when the pod is not ready', async () => {
    const { url } = await start({ readyz: 503, grants: new Set(GRANTS) });
    const r = await runScript({ READYZ_URL: `${url}/readyz`, KUBE_API_URL: url, ACCESS_CHECKS: JSON.stringify(CHECKS) });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL GET .*\/readyz → 503/);
  });

  it('fails when the ServiceAccount may read Secrets (RBAC too wide)', async () => {
    const { url } = await start({ readyz: 200, grants: new Set([...GRANTS, 'get secrets ']) });
    const r = await runScript({ KUBE_API_URL: url, ACCESS_CHECKS: JSON.stringify(CHECKS) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL get secrets cluster-wide: allowed (want denied)');
  });

  it('fails when the ServiceAccount lacks a read the agent needs', async () => {
    const { url } = await start({ readyz: 200, grants: new Set(['list pods ']) });
    const r = await runScript({ KUBE_API_URL: url, ACCESS_CHECKS: JSON.stringify(CHECKS) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL get pods/log in ns: denied (want allowed)');
  });

  it('fails, saying so, when the API server refuses the review', async () => {
    const { url } = await start({ readyz: 200, grants: new Set(GRANTS), reviewStatus: 403 });
    const r = await runScript({ KUBE_API_URL: url, ACCESS_CHECKS: JSON.stringify(CHECKS.slice(0, 1)) });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL list pods cluster-wide: the API server answered 403/);
  });

  it('fails, without a stack trace, outside a pod (no API address)', async () => {
    const r = await runScript({ ACCESS_CHECKS: JSON.stringify(CHECKS.slice(0, 1)) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('KUBERNETES_SERVICE_HOST is not set');
    expect(r.stdout).not.toMatch(/at .*\.mjs:\d+/);
  });

  it('fails when /readyz does not answer', async () => {
    // A port that was just free: nothing listens there now.
    const { port } = await start({ readyz: 200, grants: new Set() });
    await new Promise((resolve) => server!.close(resolve));
    const r = await runScript({ READYZ_URL: `http://127.0.0.1:${port}/readyz` });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL GET http:\/\/127\.0\.0\.1:\d+\/readyz: fetch failed: ECONNREFUSED/);
  });
});
