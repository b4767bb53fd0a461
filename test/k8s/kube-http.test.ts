import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { Kube, WatchGone } from '../../src/k8s/cluster.ts';
import type { Connection } from '../../src/k8s/connection.ts';
import { connectLean } from '../../src/k8s/kube-http.ts';
import { KubeError } from '../../src/k8s/kube-error.ts';
import { inClusterContext, libraryOnly, loadKubeconfig } from '../../src/k8s/kubeconfig.ts';
import { writeKubeconfig } from '../helpers/kubeconfig.ts';
import { tempDir } from '../helpers/workspace.ts';
import { KUBECONFIG_CASES, type Fixtures, type KubeconfigCase, type SeenRequest } from './kubeconfig.cases.ts';

/**
 * The lean Kubernetes transport against fake APIs on 127.0.0.1, over real TLS with
 * the test CA (test/fixtures/tls): every way a kubeconfig authenticates, the GET's
 * answers, and the watch stream's framing, failures and limits. The same Kube the
 * tools and the watcher use is driven, so what is checked is what they get.
 */
const tls = fileURLToPath(new URL('../fixtures/tls/', import.meta.url));
const read = (f: string) => readFileSync(path.join(tls, f), 'utf8');
const b64 = (s: string) => Buffer.from(s).toString('base64');

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function fakeApi(kind: 'https' | 'self-signed' | 'http' = 'https', opts: { clientCerts?: boolean; handler?: Handler } = {}) {
  const seen: SeenRequest[] = [];
  const handler: Handler = (req, res) => {
    const socket = req.socket as TLSSocket;
    const peer = kind !== 'http' && socket.authorized ? socket.getPeerCertificate() : undefined;
    seen.push({
      authorization: req.headers.authorization,
      impersonate: req.headers['impersonate-user'] as string | undefined,
      userAgent: req.headers['user-agent'],
      servername: kind === 'http' ? undefined : (socket.servername ?? undefined),
      clientCn: peer?.subject?.CN as string | undefined,
    });
    if (opts.handler) return opts.handler(req, res);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ gitVersion: 'v1.33.0' }));
  };
  const cert = kind === 'self-signed' ? 'self-signed' : 'server';
  const server =
    kind === 'http'
      ? createHttpServer(handler)
      : createHttpsServer(
          {
            key: read(`${cert}.key`),
            cert: read(`${cert}.pem`),
            ...(opts.clientCerts ? { requestCert: true, rejectUnauthorized: false, ca: read('self-signed.pem') } : {}),
          },
          handler,
        );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  const scheme = kind === 'http' ? 'http' : 'https';
  return { url: `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function fixtures(dir: string): Promise<Fixtures> {
  const execPlugin = path.join(dir, 'plugin.mjs');
  // Prints an ExecCredential for argv[2]; argv[3] an expiry; argv[4] a file counting its runs.
  await writeFile(
    execPlugin,
    [
      "import { appendFileSync } from 'node:fs';",
      'const [token, expiry, count] = process.argv.slice(2);',
      "if (count) appendFileSync(count, 'x');",
      'const status = { token, ...(expiry ? { expirationTimestamp: expiry } : {}) };',
      "process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status }));",
    ].join('\n'),
  );
  return {
    ca: read('ca.pem'),
    caFile: path.join(tls, 'ca.pem'),
    caB64: b64(read('ca.pem')),
    clientCert: read('self-signed.pem'),
    clientKey: read('self-signed.key'),
    clientCertB64: b64(read('self-signed.pem')),
    clientKeyB64: b64(read('self-signed.key')),
    execPlugin,
  };
}

/** `<node>`, `<plugin>` and `<dir>` in a case's user, made real. */
function substitute(value: unknown, f: Fixtures, dir: string): unknown {
  if (typeof value === 'string') return value.replace('<node>', process.execPath).replace('<plugin>', f.execPlugin).replace('<dir>', dir);
  if (Array.isArray(value)) return value.map((v) => substitute(v, f, dir));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, f, dir)]));
  return value;
}

/** The shared helper's kubeconfig, in `dir`, namespace team-a. */
const writeConfig = (dir: string, cluster: Record<string, unknown>, user: Record<string, unknown> | null) =>
  writeKubeconfig(path.join(dir, 'config'), cluster, { user, namespace: 'team-a' });

async function caseKube(c: KubeconfigCase) {
  const api = await fakeApi(c.api, { clientCerts: c.clientCerts });
  const dir = await tempDir('core-agent-kube-http-');
  const f = await fixtures(dir);
  for (const [name, content] of Object.entries(c.files?.(f) ?? {})) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
  const user = substitute(typeof c.user === 'function' ? c.user(f) : (c.user ?? {}), f, dir) as Record<string, unknown>;
  const file = await writeConfig(dir, (c.cluster ?? ((s) => ({ server: s })))(api.url, f), user);
  return { api, dir, f, kube: new Kube({ kubeconfig: file }) };
}

describe('the lean transport authenticates as the kubeconfig says', () => {
  it.each(KUBECONFIG_CASES)('$what', async (c) => {
    const { api, kube } = await caseKube(c);
    const got = await kube.get('/version', {}, 'json', AbortSignal.timeout(10_000)).then(
      (v) => ({ ok: v }),
      (err: unknown) => ({ err: err as Error }),
    );
    if (c.fails) {
      expect('err' in got ? got.err.message : got).toMatch(c.fails);
      expect((got as { err: Error }).err).toBeInstanceOf(KubeError);
      return;
    }
    expect(got).toEqual({ ok: { gitVersion: 'v1.33.0' } });
    expect((await kube.conn()).transport).toBe('lean');
    expect(api.seen).toHaveLength(1);
    expect(api.seen[0]).toMatchObject(c.sees ?? {});
    expect(api.seen[0]!.userAgent).toMatch(/^core-agent\//);
  });

  it('an exec credential is reused until it expires, and fetched again after', async () => {
    const api = await fakeApi();
    const dir = await tempDir('core-agent-kube-http-');
    const f = await fixtures(dir);
    const counts = { lasting: path.join(dir, 'lasting.count'), expired: path.join(dir, 'expired.count') };
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const past = new Date(Date.now() - 1_000).toISOString();
    for (const [name, expiry] of [
      ['lasting', future],
      ['expired', past],
    ] as const) {
      const user = { exec: { command: process.execPath, args: [f.execPlugin, `tok-${name}`, expiry, counts[name]] } };
      const kube = new Kube({
        kubeconfig: await writeConfig(
          await tempDir('core-agent-kube-http-'),
          { server: api.url, 'certificate-authority-data': f.caB64 },
          user,
        ),
      });
      for (let i = 0; i < 3; i++) await kube.get('/version', {}, 'json');
    }
    expect(readFileSync(counts.lasting, 'utf8')).toBe('x');
    expect(readFileSync(counts.expired, 'utf8')).toBe('xxx');
    expect(api.seen.map((s) => s.authorization)).toEqual([...Array(3).fill('Bearer tok-lasting'), ...Array(3).fill('Bearer tok-expired')]);
  });

  it('concurrent first requests share one connection: the exec plugin runs once', async () => {
    const api = await fakeApi();
    const dir = await tempDir('core-agent-kube-http-');
    const f = await fixtures(dir);
    const count = path.join(dir, 'runs.count');
    const user = { exec: { command: process.execPath, args: [f.execPlugin, 'tok-shared', '', count] } };
    const kube = new Kube({ kubeconfig: await writeConfig(dir, { server: api.url, 'certificate-authority': f.caFile }, user) });
    await Promise.all(Array.from({ length: 5 }, () => kube.get('/version', {}, 'json')));
    expect(readFileSync(count, 'utf8')).toBe('x');
    expect(api.seen.map((s) => s.authorization)).toEqual(Array(5).fill('Bearer tok-shared'));
  });

  it('a kubeconfig that failed to load is read again once it is fixed', async () => {
    const api = await fakeApi();
    const dir = await tempDir('core-agent-kube-http-');
    const f = await fixtures(dir);
    const file = path.join(dir, 'config');
    await writeFile(file, 'clusters: [\n');
    const kube = new Kube({ kubeconfig: file });
    await expect(kube.get('/version', {}, 'json')).rejects.toThrow(/^cannot load the Kubernetes configuration: .*:\d+:\d+: not valid YAML/);
    await writeConfig(dir, { server: api.url, 'certificate-authority': f.caFile }, { token: 'fixed' });
    expect(await kube.get('/version', {}, 'json')).toEqual({ gitVersion: 'v1.33.0' });
    expect(api.seen[0]!.authorization).toBe('Bearer fixed');
  });

  it('the exec plugin gets its env entries on top of the process environment', async () => {
    const api = await fakeApi();
    const dir = await tempDir('core-agent-kube-http-');
    const f = await fixtures(dir);
    const user = {
      exec: {
        command: process.execPath,
        args: [
          '-e',
          "process.stdout.write(JSON.stringify({ status: { token: process.env.PLUGIN_TOKEN + '-' + (process.env.PATH ? 'path' : 'nopath') } }))",
        ],
        env: [{ name: 'PLUGIN_TOKEN', value: 'from-env' }],
      },
    };
    const kube = new Kube({ kubeconfig: await writeConfig(dir, { server: api.url, 'certificate-authority': f.caFile }, user) });
    await kube.get('/version', {}, 'json');
    expect(api.seen[0]!.authorization).toBe('Bearer from-env-path');
  });

  it('an exec plugin that never finishes is stopped at the deadline, with the processes it started', async () => {
    const dir = await tempDir('core-agent-kube-http-');
    const pidFile = path.join(dir, 'sleep.pid');
    // A shell that leaves a child holding the pipes: the whole group must go.
    const user = { exec: { command: 'sh', args: ['-c', `sleep 60 & echo $! > ${pidFile}; wait`] } };
    const k = await loadKubeconfig(await writeConfig(dir, { server: 'https://127.0.0.1:1' }, user));
    const conn = connectLean(k, { execTimeoutMs: 1_000 });
    await expect(conn.raw('/version', {}, 'json')).rejects.toThrow(/exec plugin "sh" failed: it did not finish within 1 s$/);
    const sleeper = Number(readFileSync(pidFile, 'utf8'));
    const alive = () => {
      try {
        process.kill(sleeper, 0);
        return !readFileSync(`/proc/${sleeper}/stat`, 'utf8').includes(') Z ');
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive()).toBe(false);
  });

  it('in a cluster: the mounted token, CA and namespace', async () => {
    const api = await fakeApi();
    const sa = await tempDir('core-agent-sa-');
    await writeFile(path.join(sa, 'token'), 'sa-token');
    await writeFile(path.join(sa, 'ca.crt'), read('ca.pem'));
    await writeFile(path.join(sa, 'namespace'), 'ops\n');
    const port = new URL(api.url).port;
    const ctx = inClusterContext({ host: '127.0.0.1', port }, sa);
    expect(ctx).toMatchObject({ namespace: 'ops', cluster: { server: `https://127.0.0.1:${port}` } });
    expect(libraryOnly(ctx)).toBeUndefined();
    const conn = connectLean(ctx);
    expect(await conn.raw('/version', {}, 'json')).toEqual({ gitVersion: 'v1.33.0' });
    expect(api.seen[0]!.authorization).toBe('Bearer sa-token');
    expect(inClusterContext({ host: 'fd00::1', port: '443' }, sa).cluster.server).toBe('https://[fd00::1]:443');
    expect(inClusterContext({ host: '10.0.0.1', port: '8080' }, path.join(sa, 'none')).cluster.server).toBe('http://10.0.0.1:8080');
    expect(inClusterContext({ host: '10.0.0.1', port: '443' }, path.join(sa, 'none')).namespace).toBe('default');
  });
});

describe('which context, and what only the library serves', () => {
  const load = async (doc: unknown, context?: string) => {
    const dir = await tempDir('core-agent-kubeconfig-');
    const file = path.join(dir, 'config');
    await writeFile(file, typeof doc === 'string' ? doc : JSON.stringify(doc));
    return loadKubeconfig(file, context).then(
      (k) => k,
      (err: unknown) => (err as Error).message,
    );
  };
  const base = {
    clusters: [
      { name: 'a', cluster: { server: 'https://a.example/' } },
      { name: 'b', cluster: { server: 'https://b.example', 'proxy-url': 'http://proxy:3128' } },
    ],
    users: [
      { name: 'token', user: { token: 't' } },
      { name: 'oidc', user: { 'auth-provider': { name: 'oidc', config: { 'id-token': 'x' } } } },
    ],
    contexts: [
      { name: 'one', context: { cluster: 'a', user: 'token' } },
      { name: 'proxied', context: { cluster: 'b', user: 'token', namespace: 'p' } },
      { name: 'oidc', context: { cluster: 'a', user: 'oidc' } },
      { name: 'ghost-cluster', context: { cluster: 'zz', user: 'token' } },
      { name: 'ghost-user', context: { cluster: 'a', user: 'zz' } },
    ],
    'current-context': 'one',
  };

  it.each([
    {
      what: 'the current-context',
      context: undefined,
      expect: { context: 'one', namespace: 'default', cluster: { server: 'https://a.example' } },
    },
    { what: 'a named context and its namespace', context: 'proxied', expect: { context: 'proxied', namespace: 'p' } },
  ])('$what', async (c) => {
    expect(await load(base, c.context)).toMatchObject(c.expect);
  });

  it.each([
    {
      what: 'a context that is not there',
      doc: base,
      context: 'nope',
      message: /has no context "nope" \(its contexts: one, proxied, oidc, ghost-cluster, ghost-user\)$/,
    },
    {
      what: 'no current-context and none named',
      doc: { ...base, 'current-context': undefined },
      message: /sets no current-context; name one with kubernetes\.context/,
    },
    {
      what: 'a context naming a missing cluster',
      doc: base,
      context: 'ghost-cluster',
      message: /context "ghost-cluster" names the cluster "zz", which is not in its clusters$/,
    },
    {
      what: 'a context naming a missing user',
      doc: base,
      context: 'ghost-user',
      message: /context "ghost-user" names the user "zz", which is not in its users$/,
    },
    { what: 'not YAML', doc: 'clusters: [\n', message: /:\d+:\d+: not valid YAML: / },
    { what: 'not a mapping', doc: '- a\n- b\n', message: /is not a kubeconfig core-agent can use: \(the file\): / },
    {
      what: 'a server that is not a string',
      doc: { ...base, clusters: [{ name: 'a', cluster: { server: 8443 } }] },
      message: /clusters\.0\.cluster\.server: /,
    },
    {
      what: 'a cluster without a name',
      doc: { ...base, clusters: [{ cluster: { server: 'https://x' } }] },
      message: /clusters\.0\.name: /,
    },
    {
      what: 'exec args that are not strings',
      doc: { ...base, users: [{ name: 'token', user: { exec: { command: 'x', args: [1] } } }] },
      message: /users\.0\.user\.exec\.args\.0: /,
    },
  ])('refused: $what', async (c) => {
    const got = await load(c.doc, c.context);
    expect(typeof got === 'string' ? got : 'loaded').toMatch(c.message);
    expect((got as string).length).toBeLessThan(600);
  });

  it('a huge context name is not echoed', async () => {
    // Twice in the file, within the kubeconfig's 1 MiB.
    const huge = 'c'.repeat(400_000);
    const got = await load({
      ...base,
      contexts: [{ name: huge, context: { cluster: 'a', user: 'token' } }],
      'current-context': `${huge}x`,
    });
    expect(got).toMatch(/has no context "c{100}…" \(its contexts: c{100}…\)$/);
    expect((got as string).length).toBeLessThan(600);
  });

  it('a huge bad value is not echoed', async () => {
    const got = await load({ ...base, clusters: [{ name: 'a', cluster: { server: ['x'.repeat(1_000_000)] } }] });
    expect(typeof got).toBe('string');
    expect((got as string).length).toBeLessThan(600);
  });

  it.each([
    { context: 'one', why: undefined },
    { context: 'proxied', why: "the cluster's proxy-url" },
    { context: 'oidc', why: 'the auth-provider "oidc"' },
  ])('$context: library needed for $why', async (c) => {
    const k = await load(base, c.context);
    expect(typeof k).toBe('object');
    expect(libraryOnly(k as Exclude<typeof k, string>)).toBe(c.why);
  });

  it('a proxied cluster goes to the whole library, and says so', async () => {
    const dir = await tempDir('core-agent-kubeconfig-');
    const file = path.join(dir, 'config');
    await writeFile(file, JSON.stringify({ ...base, 'current-context': 'proxied' }));
    const conn = await new Kube({ kubeconfig: file }).conn();
    expect(conn.transport).toEqual({ library: "the cluster's proxy-url" });
    expect(conn.namespace).toBe('p');
  });
});

describe('GET: the API’s answer untouched, its failures as data', () => {
  const tokenKube = async (handler: Handler) => {
    const api = await fakeApi('http', { handler });
    const dir = await tempDir('core-agent-kube-http-');
    return {
      api,
      kube: new Kube({ kubeconfig: await writeConfig(dir, { server: api.url, 'insecure-skip-tls-verify': true }, { token: 't' }) }),
    };
  };

  it('a gzipped answer is decompressed; the query is passed on', async () => {
    let query = '';
    let acceptEncoding: string | undefined;
    const { kube } = await tokenKube((req, res) => {
      query = new URL(req.url!, 'http://x').search;
      acceptEncoding = req.headers['accept-encoding'];
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ items: Array.from({ length: 2000 }, (_, i) => ({ name: `p${i}`, note: 'é✓' })) })));
    });
    const got = await kube.get('/api/v1/pods', { labelSelector: 'app=web', limit: '5', skipped: undefined }, 'json');
    expect((got.items as unknown[]).length).toBe(2000);
    expect((got.items as Array<{ note: string }>)[1999]!.note).toBe('é✓');
    expect(query).toBe('?labelSelector=app%3Dweb&limit=5');
    expect(acceptEncoding).toBe('gzip');
  });

  it('text answers (logs) come back as text', async () => {
    const { kube } = await tokenKube((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('line 1\nline 2\n');
    });
    expect(await kube.get('/api/v1/namespaces/d/pods/p/log', {}, 'text')).toBe('line 1\nline 2\n');
  });

  it.each([
    {
      what: 'a Status',
      status: 403,
      body: JSON.stringify({ kind: 'Status', message: 'pods is forbidden: nope', reason: 'Forbidden' }),
      message: /^forbidden \(403, RBAC\): pods is forbidden: nope\./,
      kind: 'forbidden',
    },
    {
      what: 'plain text',
      status: 503,
      body: 'upstream down',
      message: /^the Kubernetes API answered 503: upstream down$/,
      kind: 'api_error',
    },
    {
      what: 'a 200 that is not JSON',
      status: 200,
      body: '<html>',
      message: /^the Kubernetes API answered 200 for \/x with a body that is not JSON$/,
      kind: 'api_error',
    },
    {
      what: 'a huge error body, bounded',
      status: 500,
      body: 'e'.repeat(5_000_000),
      message: /^the Kubernetes API answered 500: e{500}$/,
      kind: 'api_error',
    },
  ])('$what', async (c) => {
    const { kube } = await tokenKube((_req, res) => {
      res.writeHead(c.status, { 'content-type': 'text/plain' });
      res.end(c.body);
    });
    const err = (await kube.get('/x', {}, 'json').catch((e: unknown) => e)) as KubeError;
    expect(err).toBeInstanceOf(KubeError);
    expect(err.message).toMatch(c.message);
    expect(err.kind).toBe(c.kind);
  });

  it('an abort ends the request as an AbortError', async () => {
    const { kube } = await tokenKube(() => {
      /* never answers */
    });
    const ac = new AbortController();
    const pending = kube.get('/slow', {}, 'json', ac.signal).catch((e: unknown) => e);
    setTimeout(() => ac.abort(), 50);
    expect(((await pending) as Error).name).toBe('AbortError');
  });
});

describe('watch: the stream as events, every way it ends', () => {
  async function watchApi(handler: Handler, opts: { watchIdleMs?: number; maxWatchLine?: number } = {}) {
    const api = await fakeApi('http', { handler });
    const conn: Connection = connectLean(
      {
        context: 'ctx',
        cluster: { name: 'c', server: api.url, skipTLSVerify: true },
        user: { name: 'u', token: 't' },
        namespace: 'default',
      },
      opts,
    );
    return { api, conn };
  }
  const follow = (conn: Connection, query: Record<string, string | number | boolean | undefined> = {}) =>
    new Promise<{ events: Array<[string, unknown]>; err: unknown; doneCalls: number }>((resolve) => {
      const events: Array<[string, unknown]> = [];
      let doneCalls = 0;
      void conn.watch(
        '/api/v1/events',
        query,
        (type, obj) => events.push([type, obj]),
        (err) => {
          doneCalls++;
          setTimeout(() => resolve({ events, err, doneCalls }), 50); // a second onDone would land here
        },
      );
    });
  const event = (type: string, name: string) => `${JSON.stringify({ type, object: { metadata: { name } } })}\n`;

  it('events split across chunks, blank and broken lines skipped, then the end', async () => {
    let url = '';
    const { conn } = await watchApi((req, res) => {
      url = req.url!;
      res.writeHead(200, { 'content-type': 'application/json' });
      const all = event('ADDED', 'a') + '\n' + event('MODIFIED', 'é-b') + 'not json\n' + event('BOOKMARK', 'c');
      const cut = [7, 40, 41, 90];
      let at = 0;
      for (const c of cut) (res.write(all.slice(at, c)), (at = c));
      res.end(all.slice(at));
    });
    const got = await follow(conn, { resourceVersion: '42', allowWatchBookmarks: true });
    expect(got.events).toEqual([
      ['ADDED', { metadata: { name: 'a' } }],
      ['MODIFIED', { metadata: { name: 'é-b' } }],
      ['BOOKMARK', { metadata: { name: 'c' } }],
    ]);
    expect(got.err).toBeNull();
    expect(got.doneCalls).toBe(1);
    expect(url).toBe('/api/v1/events?resourceVersion=42&allowWatchBookmarks=true&watch=true');
  });

  it('a refused watch: the status and the Status message', async () => {
    const { conn } = await watchApi((_req, res) => {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', message: 'events is forbidden: no watch', code: 403 }));
    });
    const got = await follow(conn);
    expect(got.err).toMatchObject({ statusCode: 403, message: 'events is forbidden: no watch' });
    expect(got.doneCalls).toBe(1);
  });

  it('a silent stream is ended after the idle limit', async () => {
    const { conn } = await watchApi((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).flushHeaders(), {
      watchIdleMs: 300,
    });
    const got = await follow(conn);
    expect(String(got.err)).toMatch(/the watch sent nothing for 0\.3 s/);
    expect(got.doneCalls).toBe(1);
  });

  it('an event larger than the line limit ends the stream, not the process', async () => {
    const { conn } = await watchApi(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(event('ADDED', 'small'));
        res.write(`{"type":"ADDED","object":{"x":"${'y'.repeat(10_000)}`);
      },
      { maxWatchLine: 4096 },
    );
    const got = await follow(conn);
    expect(got.events).toHaveLength(1);
    expect(String(got.err)).toMatch(/a watch event exceeded 4096 bytes/);
  });

  it('an abort from the caller ends it once', async () => {
    const { conn } = await watchApi((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(event('ADDED', 'a'));
    });
    const events: string[] = [];
    let doneCalls = 0;
    const stream = await conn.watch(
      '/w',
      {},
      (t) => events.push(t),
      () => doneCalls++,
    );
    await new Promise((r) => setTimeout(r, 100));
    stream.abort();
    await new Promise((r) => setTimeout(r, 100));
    expect(events).toEqual(['ADDED']);
    expect(doneCalls).toBe(1);
  });

  it('through Kube: an expired resourceVersion is WatchGone, an ERROR event a KubeError', async () => {
    for (const [status, want] of [
      [410, WatchGone],
      [500, KubeError],
    ] as const) {
      const api = await fakeApi('http', {
        handler: (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write(event('ADDED', 'first'));
          res.write(`${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', code: status, message: 'too old or broken' } })}\n`);
        },
      });
      const dir = await tempDir('core-agent-kube-http-');
      const kube = new Kube({ kubeconfig: await writeConfig(dir, { server: api.url, 'insecure-skip-tls-verify': true }, { token: 't' }) });
      const seen: string[] = [];
      const err = await kube.watch('/api/v1/events', {}, (t) => seen.push(t), AbortSignal.timeout(10_000)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(want);
      expect(seen).toEqual(['ADDED']);
    }
  });
});
