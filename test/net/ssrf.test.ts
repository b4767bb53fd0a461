import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Resolver } from '../../src/net/guarded-fetch.ts';
import { connectProxy, countingServer, sinkholeProxy } from '../helpers/http-servers.ts';
// Every dialect's tools: the matrix tries each tool that touches a path or the network.
import { setupEvery as setup } from '../helpers/workspace.ts';
import { METADATA_URLS, RESOLVES_TO_METADATA } from './metadata.cases.ts';

/**
 * The SSRF matrix, end to end through the dispatcher: real HTTP servers on
 * 127.0.0.x count every request they receive, and a resolver we control stands
 * in for DNS. "Refused" is never enough on its own: each case also proves that
 * zero requests reached the server it was aimed at.
 */

const yolo = { mode: 'yolo' as const };

function recipe(allow: string[], deny: string[] = [], extra = ''): string {
  return `permissions:\n  url_scope:\n    allow: ${JSON.stringify(allow)}\n    deny: ${JSON.stringify(deny)}\n${extra}`;
}

/** A resolver that answers from a script, one answer per call, and counts the calls. */
function scriptedResolver(answers: Record<string, string[][]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const fn = (async (host: string) => {
    calls.push(host);
    const queue = answers[host];
    if (!queue || queue.length === 0) throw Object.assign(new Error(`no answer for ${host}`), { code: 'ENOTFOUND' });
    return queue.length > 1 ? queue.shift()! : queue[0]!;
  }) as Resolver & { calls: string[] };
  fn.calls = calls;
  return fn;
}

describe('fetch_url: the SSRF guard', () => {
  it('fetches from an exact-host entry on a loopback address', async () => {
    const server = await countingServer('127.0.0.2', (_q, res) => {
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.end('hello from .2');
    });
    const rt = await setup({ flags: yolo, recipe: recipe([`http://127.0.0.2:${server.port}`]) });
    expect(await rt.ok('fetch_url', { url: `${server.origin}/path?q=1` })).toEqual({
      url: `${server.origin}/path?q=1`,
      status: 200,
      content_type: 'text/plain; charset=utf-8',
      bytes: 13,
      body: 'hello from .2',
    });
    expect(server.requests.map((r) => r.url)).toEqual(['/path?q=1']);
    expect(server.requests[0]!.headers['user-agent']).toMatch(/^core-agent\//);
  });

  it('refuses every notation of a loopback literal when only a wildcard allows it — zero requests arrive', async () => {
    const server = await countingServer('127.0.0.1');
    const p = server.port;
    const rt = await setup({ flags: yolo, recipe: recipe(['http://*']) });
    const notations = [
      `http://127.0.0.1:${p}/`,
      `http://2130706433:${p}/`, // decimal
      `http://0x7f000001:${p}/`, // hex
      `http://0x7f.0x0.0x0.0x1:${p}/`, // hex per octet
      `http://0177.0.0.1:${p}/`, // octal
      `http://017700000001:${p}/`, // octal, one number
      `http://127.1:${p}/`, // short form
      `http://127.0.1:${p}/`,
      `http://0x7f.1:${p}/`,
      `http://127.000.000.001:${p}/`,
      `http://[::ffff:127.0.0.1]:${p}/`, // IPv4-mapped IPv6
      `http://[::ffff:7f00:1]:${p}/`,
      `http://[0:0:0:0:0:ffff:127.0.0.1]:${p}/`,
      `http://[::127.0.0.1]:${p}/`, // IPv4-compatible
      `http://[64:ff9b::127.0.0.1]:${p}/`, // NAT64
      `http://[2002:7f00:1::]:${p}/`, // 6to4
      `http://[::1]:${p}/`,
      `http://%31%32%37.0.0.1:${p}/`, // percent-encoded host
      `http://127.0.0.1.:${p}/`, // trailing dot
    ];
    for (const url of notations) {
      const error = await rt.refused('fetch_url', { url });
      expect(error, url).toMatch(
        /^fetch_url: fetch refused: .*(loopback|reserved|special-purpose|unique-local).*exact-host url_scope\.allow entry/,
      );
    }
    expect(server.requests).toHaveLength(0);
  });

  it('refuses private ranges (RFC 1918, CGNAT, unique-local) through a wildcard', async () => {
    const rt = await setup({ flags: yolo, recipe: recipe(['*', 'http://*']) });
    for (const url of [
      'http://10.0.0.5/',
      'https://192.168.1.1/',
      'http://172.16.0.1/',
      'http://100.64.0.1/',
      'http://[fd12::1]/',
      'http://[fc00::1]/',
    ]) {
      expect(await rt.refused('fetch_url', { url }), url).toMatch(/exact-host url_scope\.allow entry/);
    }
  });

  it('always blocks link-local and cloud metadata addresses, even with an exact-host entry', async () => {
    const resolver = scriptedResolver({});
    const exact = [
      'http://169.254.169.254',
      'http://[fd00:ec2::254]',
      'http://metadata.google.internal',
      'http://metadata',
      'http://100.100.100.200',
      'http://[fe80::1]',
      'http://0.0.0.0',
      'http://2852039166', // 169.254.169.254 in decimal: normalized, then exact
    ];
    const rt = await setup({ flags: yolo, recipe: recipe([...exact, 'http://*']), resolver });
    const urls = [
      'http://169.254.169.254/computeMetadata/v1/',
      'http://2852039166/latest/meta-data/',
      'http://0xa9fea9fe/',
      'http://0251.0376.0251.0376/',
      'http://[::ffff:169.254.169.254]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[fd00:ec2::254]/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://METADATA.google.internal./',
      'http://metadata/',
      'http://100.100.100.200/latest/meta-data/',
      'http://[fe80::1]/',
      'http://0.0.0.0/',
      'http://[::]/',
      'http://224.0.0.1/',
    ];
    for (const url of urls) {
      expect(await rt.refused('fetch_url', { url }), url).toMatch(/always blocked/);
    }
    // The metadata names are refused before any lookup.
    expect(resolver.calls).toEqual([]);
  });

  it.each(METADATA_URLS)('always blocks metadata, even through its own exact-host entry: %s', async (url) => {
    const resolver = scriptedResolver({});
    const exact = /^https?:\/\/[^/]+/.exec(url)![0];
    const rt = await setup({ flags: yolo, recipe: recipe([exact, 'http://*']), resolver });
    expect(await rt.refused('fetch_url', { url })).toMatch(/^fetch_url: fetch refused: .*always blocked/);
    expect(await rt.refused('web_fetch', { url })).toMatch(/always blocked/);
    expect(resolver.calls).toEqual([]);
  });

  it.each(RESOLVES_TO_METADATA)(
    'always blocks a name that resolves to metadata, even with an exact entry: %s → %s',
    async (name, address) => {
      const resolver = scriptedResolver({ [name]: [[address]] });
      const rt = await setup({ flags: yolo, recipe: recipe([`http://${name}`]), resolver });
      expect(await rt.refused('fetch_url', { url: `http://${name}/` })).toMatch(
        new RegExp(`${name.replace('.', '\\.')} resolves to ${address.replaceAll('.', '\\.')}; .*always blocked`),
      );
    },
  );

  it('refuses a name that resolves to a private or blocked address through a wildcard, without connecting', async () => {
    const internal = await countingServer('127.0.0.3');
    const resolver = scriptedResolver({
      'evil.test': [['127.0.0.3']],
      'meta.test': [['169.254.169.254']],
      'mixed.test': [['127.0.0.3', '169.254.169.254']],
    });
    const rt = await setup({ flags: yolo, recipe: recipe(['http://*.test', 'http://mixed.test']), resolver });
    expect(await rt.refused('fetch_url', { url: `http://evil.test:${internal.port}/` })).toMatch(
      /evil\.test resolves to 127\.0\.0\.3; 127\.0\.0\.3 is a loopback address, reachable only through an exact-host url_scope\.allow entry \("evil\.test"\)/,
    );
    expect(await rt.refused('fetch_url', { url: `http://meta.test:${internal.port}/` })).toMatch(
      /resolves to 169\.254\.169\.254; .*always blocked/,
    );
    // One blocked answer among several refuses the hop, even with an exact entry.
    expect(await rt.refused('fetch_url', { url: `http://mixed.test:${internal.port}/` })).toMatch(/always blocked/);
    expect(internal.requests).toHaveLength(0);
  });

  it('pins the checked address through to the connection: a resolver that changes its answer cannot rebind', async () => {
    const checked = await countingServer('127.0.0.2', (_q, res) => res.end('the checked server'));
    const internal = await countingServer('127.0.0.3');
    // Same port on both addresses would be ideal; the servers' ports differ, so the
    // URL names .2's port and the second answer points at .3 — a connection made
    // from a second lookup would land on .3 (or fail), never on .2.
    const resolver = scriptedResolver({ 'rebind.test': [['127.0.0.2'], ['127.0.0.3'], ['127.0.0.3']] });
    const rt = await setup({ flags: yolo, recipe: recipe(['http://rebind.test']), resolver });
    const r = await rt.ok('fetch_url', { url: `http://rebind.test:${checked.port}/` });
    expect(r.body).toBe('the checked server');
    expect(resolver.calls).toEqual(['rebind.test']);
    expect(checked.requests).toHaveLength(1);
    expect(checked.requests[0]!.headers.host).toBe(`rebind.test:${checked.port}`);
    expect(internal.requests).toHaveLength(0);
  });

  it('checks every redirect again: to a loopback address, to the metadata address, to a non-allowed host', async () => {
    const internal = await countingServer('127.0.0.3');
    const targets: Record<string, string> = {
      '/to-loopback': `http://127.0.0.3:${internal.port}/secret`,
      '/to-decimal': `http://2130706435:${internal.port}/secret`,
      '/to-metadata': 'http://169.254.169.254/computeMetadata/v1/',
      '/to-mapped': `http://[::ffff:127.0.0.3]:${internal.port}/`,
      '/to-file': 'file:///etc/passwd',
      '/relative': '/final',
      '/loop': '/loop',
    };
    const front = await countingServer('127.0.0.2', (req, res) => {
      const to = targets[req.url ?? ''];
      if (to) {
        res.statusCode = 302;
        res.setHeader('location', to);
        res.end();
      } else res.end('final page');
    });
    const rt = await setup({ flags: yolo, recipe: recipe([`http://127.0.0.2`, 'http://*']) });
    expect(await rt.refused('fetch_url', { url: `${front.origin}/to-loopback` })).toMatch(
      /127\.0\.0\.3:\d+\/secret: 127\.0\.0\.3 is a loopback address/,
    );
    expect(await rt.refused('fetch_url', { url: `${front.origin}/to-decimal` })).toMatch(/127\.0\.0\.3 is a loopback address/);
    expect(await rt.refused('fetch_url', { url: `${front.origin}/to-metadata` })).toMatch(
      /169\.254\.169\.254 is a cloud metadata address and is always blocked/,
    );
    expect(await rt.refused('fetch_url', { url: `${front.origin}/to-mapped` })).toMatch(/loopback/);
    expect(await rt.refused('fetch_url', { url: `${front.origin}/to-file` })).toMatch(/only http and https URLs can be fetched, not file/);
    expect(await rt.refused('fetch_url', { url: `${front.origin}/loop` })).toMatch(/more than 5 redirects/);
    expect(internal.requests).toHaveLength(0);
    const ok = await rt.ok('fetch_url', { url: `${front.origin}/relative` });
    expect(ok).toMatchObject({ url: `${front.origin}/final`, body: 'final page', redirected_from: `${front.origin}/relative` });
  });

  it('applies scheme, deny and allow: https by default, http only where an entry opts in, deny wins', async () => {
    const server = await countingServer('127.0.0.2');
    const resolver = scriptedResolver({ 'api.example.test': [['127.0.0.2']], 'blocked.example.test': [['127.0.0.2']] });
    const rt = await setup({
      flags: yolo,
      recipe: recipe(['127.0.0.2', 'api.example.test', 'http://*.example.test'], ['blocked.example.test']),
      resolver,
    });
    expect(await rt.refused('fetch_url', { url: `http://127.0.0.2:${server.port}/` })).toMatch(
      /plain http to 127\.0\.0\.2:\d+ is not allowed: use https, or opt the host in/,
    );
    expect(await rt.refused('fetch_url', { url: `http://blocked.example.test:${server.port}/` })).toMatch(
      /denied by url_scope\.deny entry "blocked\.example\.test"/,
    );
    // A trailing dot (or its encodings) names the same host and meets the same deny entry.
    for (const host of ['blocked.example.test.', 'blocked.example.test..', 'blocked.example.test%2e', 'blocked.example.test\u3002']) {
      expect(await rt.refused('fetch_url', { url: `http://${host}:${server.port}/` }), host).toMatch(/denied by url_scope\.deny/);
    }
    expect(await rt.refused('fetch_url', { url: `http://other.test:${server.port}/` })).toMatch(
      /other\.test:\d+ is not in url_scope\.allow \(allowed: /,
    );
    expect(await rt.refused('fetch_url', { url: 'ftp://api.example.test/' })).toMatch(/only http and https/);
    expect(await rt.refused('fetch_url', { url: `http://user:secret@api.example.test:${server.port}/` })).toMatch(/credentials/);
    expect(await rt.refused('fetch_url', { url: 'not a url' })).toMatch(/not a valid absolute URL/);
    // api.example.test is exact for https only; over http it is reached through
    // the *.example.test wildcard, which does not open loopback.
    expect(await rt.refused('fetch_url', { url: `http://api.example.test:${server.port}/` })).toMatch(/exact-host/);
    expect(server.requests).toHaveLength(0);
  });

  it('ignores proxy environment variables', async () => {
    const proxy = await countingServer('127.0.0.4');
    const server = await countingServer('127.0.0.2');
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, http_proxy: process.env.http_proxy };
    process.env.HTTP_PROXY = proxy.origin;
    process.env.http_proxy = proxy.origin;
    try {
      const rt = await setup({ flags: yolo, recipe: recipe(['http://127.0.0.2']), env: { ...process.env } });
      await rt.ok('fetch_url', { url: server.origin });
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
    expect(server.requests).toHaveLength(1);
    expect(proxy.requests).toHaveLength(0);
  });

  it('uses a configured proxy through CONNECT to the checked address, and never for a refused URL', async () => {
    const server = await countingServer('127.0.0.2', (_q, res) => res.end('via proxy'));
    const { url: proxyUrl, tunnels } = await connectProxy('127.0.0.5', `Basic ${Buffer.from('u:p w').toString('base64')}`);
    const resolver = scriptedResolver({ 'svc.test': [['127.0.0.2'], ['127.0.0.3']], 'wild.test': [['127.0.0.3']] });
    const rt = await setup({
      flags: yolo,
      recipe: recipe(['http://svc.test', 'http://*.test'], [], '') + `    proxy_env: FETCH_PROXY\n`,
      env: { FETCH_PROXY: proxyUrl.replace('http://', 'http://u:p%20w@') },
      resolver,
    });
    expect((await rt.ok('fetch_url', { url: `http://svc.test:${server.port}/x` })).body).toBe('via proxy');
    // The tunnel goes to the checked address, not to the name the proxy could resolve again.
    expect(tunnels).toEqual([`127.0.0.2:${server.port}`]);
    expect(server.requests[0]!.headers.host).toBe(`svc.test:${server.port}`);
    expect(await rt.refused('fetch_url', { url: `http://wild.test:${server.port}/` })).toMatch(/loopback/);
    expect(await rt.refused('fetch_url', { url: 'http://169.254.169.254/' })).toMatch(/always blocked/);
    expect(tunnels).toHaveLength(1);
    await expect(setup({ recipe: recipe(['*']) + '    proxy_env: UNSET_PROXY\n' })).rejects.toThrow(/proxy_env: UNSET_PROXY is not set/);
    await expect(setup({ recipe: recipe(['*']) + '    proxy: "https://p.test:3128"\n' })).rejects.toThrow(/proxy/);
    await expect(setup({ recipe: recipe(['*']) + '    proxy: "http://user:100%@127.0.0.5:3128"\n' })).rejects.toThrow(/malformed %-escape/);
  });

  it('caps the body, times out, and reports binary bodies by size', async () => {
    const server = await countingServer('127.0.0.2', (req, res) => {
      if (req.url === '/big') res.end('x'.repeat(3 * 1024 * 1024));
      else if (req.url === '/png') {
        res.setHeader('content-type', 'image/png');
        res.end(Buffer.alloc(64));
      } else if (req.url === '/status') {
        res.statusCode = 503;
        res.end('down');
      }
      // /hang: never answers
    });
    const rt = await setup({
      flags: yolo,
      recipe: recipe(['http://127.0.0.2'], [], 'tools:\n  fetch_url: { max_body_bytes: 1000, timeout_seconds: 0.5 }\n'),
    });
    const big = await rt.ok('fetch_url', { url: `${server.origin}/big` });
    expect(big.bytes).toBe(1000);
    expect(big.body).toHaveLength(1000);
    expect(big.body_truncated).toMatch(/cut at 1000 bytes/);
    expect(await rt.ok('fetch_url', { url: `${server.origin}/png` })).toMatchObject({ binary: true, bytes: 64, content_type: 'image/png' });
    expect(await rt.ok('fetch_url', { url: `${server.origin}/status` })).toMatchObject({ status: 503, body: 'down' });
    expect(await rt.refused('fetch_url', { url: `${server.origin}/hang` })).toMatch(/fetch failed: .*took longer than 0\.5s/);
  });

  it('reports a connection failure as a model-visible error', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = createNetServer().listen(0, '127.0.0.2', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const rt = await setup({ flags: yolo, recipe: recipe([`http://127.0.0.2:${closed}`]) });
    expect(await rt.refused('fetch_url', { url: `http://127.0.0.2:${closed}/` })).toMatch(/^fetch_url: fetch failed: .*ECONNREFUSED/);
  });
});
