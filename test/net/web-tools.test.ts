import { describe, expect, it } from 'vitest';
import { countingServer } from '../helpers/http-servers.ts';
// Every dialect's tools: the matrix tries each tool that touches a path or the network.
import { setupEvery as setup } from '../helpers/workspace.ts';

const yolo = { mode: 'yolo' as const };
const PAGE = `<!doctype html><html><head><title>T</title><style>p{}</style><script>alert(1)</script></head>
<body><h1>Runbook</h1><p>Restart the <b>api</b> with <a href="https://example.test/doc">the doc</a>.</p>
<table><tr><th>pod</th><th>state</th></tr><tr><td>api-1</td><td>CrashLoopBackOff</td></tr></table>
<pre><code>kubectl rollout restart deploy/api</code></pre></body></html>`;

describe('web_fetch', () => {
  it('converts HTML to markdown (default), text, or returns it raw; other text as served', async () => {
    const server = await countingServer('127.0.0.2', (req, res) => {
      if (req.url === '/json') {
        res.setHeader('content-type', 'application/json');
        res.end('{"a":1}');
      } else {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(PAGE);
      }
    });
    const rt = await setup({ flags: yolo, recipe: 'permissions:\n  url_scope: { allow: ["http://127.0.0.2"] }\n' });
    const md = await rt.ok('web_fetch', { url: `${server.origin}/page` });
    expect(md.format).toBe('markdown');
    expect(md.content).toContain('# Runbook');
    expect(md.content).toContain('Restart the **api** with [the doc](https://example.test/doc).');
    expect(md.content).toContain('| api-1 | CrashLoopBackOff |');
    expect(md.content).toContain('```\nkubectl rollout restart deploy/api\n```');
    expect(md.content).not.toMatch(/alert\(1\)|p\{\}/);
    const text = await rt.ok('web_fetch', { url: `${server.origin}/page`, format: 'text' });
    expect(text.content).toContain('RUNBOOK');
    expect(text.content).toContain('Restart the api with the doc [https://example.test/doc].');
    expect(text.content).not.toContain('<');
    const html = await rt.ok('web_fetch', { url: `${server.origin}/page`, format: 'html' });
    expect(html).toMatchObject({ format: 'html', content: PAGE });
    expect(await rt.ok('web_fetch', { url: `${server.origin}/json` })).toMatchObject({ format: 'as-served', content: '{"a":1}' });
  });

  it('is behind the same SSRF guard and validates its arguments', async () => {
    const internal = await countingServer('127.0.0.3');
    const rt = await setup({ flags: yolo, recipe: 'permissions:\n  url_scope: { allow: ["http://*"] }\n' });
    expect(await rt.refused('web_fetch', { url: `http://2130706435:${internal.port}/` })).toMatch(/fetch refused: .*loopback/);
    expect(await rt.refused('web_fetch', { url: 'http://169.254.169.254/' })).toMatch(/always blocked/);
    expect(await rt.refused('web_fetch', { url: 'http://x.test/', format: 'pdf' })).toMatch(/format/);
    expect(await rt.refused('web_fetch', { url: 'http://x.test/', timeout: 1000 })).toMatch(/timeout/);
    expect(internal.requests).toHaveLength(0);
  });
});

describe('registration follows the configuration', () => {
  it('has no fetch_url or web_fetch without url_scope.allow, and no web_search without a provider', async () => {
    const none = await setup({ flags: yolo });
    expect(none.catalog.names()).not.toContain('fetch_url');
    expect(none.catalog.names()).not.toContain('web_fetch');
    expect(none.catalog.names()).not.toContain('web_search');
    expect(none.catalog.names()).not.toContain('alert');
    const empty = await setup({ flags: yolo, recipe: 'permissions:\n  url_scope: { allow: [] }\n' });
    expect(empty.catalog.names()).not.toContain('fetch_url');
    const some = await setup({ flags: yolo, recipe: 'permissions:\n  url_scope: { allow: ["docs.example.test"] }\n' });
    expect(some.catalog.names()).toEqual(expect.arrayContaining(['fetch_url', 'web_fetch']));
    expect(some.catalog.get('fetch_url')!.description).toContain('Allowed: docs.example.test.');
  });

  it('names bash in network descriptions only when bash is registered', async () => {
    const recipe = 'permissions:\n  url_scope: { allow: ["*"] }\n';
    const withBash = await setup({ flags: yolo, recipe });
    const without = await setup({ flags: { ...yolo, disableTools: ['bash'] }, recipe });
    for (const name of ['fetch_url', 'web_fetch']) {
      if (withBash.catalog.has('bash')) expect(withBash.catalog.get(name)!.description).toMatch(/bash/);
      expect(without.catalog.get(name)!.description).not.toMatch(/bash|curl/);
    }
  });

  it('rejects a malformed url_scope entry with its position and the grammar', async () => {
    await expect(setup({ recipe: 'permissions:\n  url_scope: { allow: ["https://example.test/path"] }\n' })).rejects.toThrow(
      /permissions\.url_scope\.allow\.0: .*not a host pattern; write host, \*\.domain, \* or \[ipv6\]/s,
    );
    await expect(setup({ recipe: 'permissions:\n  url_scope: { allow: ["example.test:99999"] }\n' })).rejects.toThrow(/out of range/);
  });
});

describe('web_search', () => {
  it('queries a SearXNG instance and returns title, url and snippet', async () => {
    const searx = await countingServer('127.0.0.2', (req, res) => {
      res.setHeader('content-type', 'application/json');
      const q = new URL(req.url!, 'http://x').searchParams;
      res.end(
        JSON.stringify({
          query: q.get('q'),
          results: Array.from({ length: 8 }, (_, i) => ({
            url: `https://r${i}.test/`,
            title: `R${i}`,
            content: `about <strong>${q.get('q')}</strong> ${i}`,
          })),
        }),
      );
    });
    const rt = await setup({ flags: yolo, recipe: `web_search: { provider: searxng, url: "${searx.origin}/searx" }\n` });
    const r = await rt.ok('web_search', { query: 'crashloop backoff', max_results: 3 });
    expect(r).toEqual({
      query: 'crashloop backoff',
      provider: 'searxng',
      results: [0, 1, 2].map((i) => ({ title: `R${i}`, url: `https://r${i}.test/`, snippet: `about crashloop backoff ${i}` })),
    });
    expect(searx.requests[0]!.url).toBe('/searx/search?q=crashloop+backoff&format=json');
    expect((await rt.ok('web_search', { query: 'x' })).results).toHaveLength(5);
    expect(await rt.refused('web_search', { query: '   ' })).toMatch(/query/);
  });

  it('queries the Brave API with its key from the environment, and reports provider errors', async () => {
    let status = 200;
    const brave = await countingServer('127.0.0.2', (_req, res) => {
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.end(
        status === 200
          ? JSON.stringify({ web: { results: [{ url: 'https://a.test/', title: 'A', description: 'd' }] } })
          : '{"error":"quota"}',
      );
    });
    const recipe = `web_search: { provider: brave, url: "${brave.origin}", api_key_env: BRAVE_KEY, max_results: 4 }\n`;
    const rt = await setup({ flags: yolo, recipe, env: { BRAVE_KEY: 'k-123' } });
    expect((await rt.ok('web_search', { query: 'q' })).results).toEqual([{ title: 'A', url: 'https://a.test/', snippet: 'd' }]);
    expect(brave.requests[0]!.url).toBe('/res/v1/web/search?q=q&count=4');
    expect(brave.requests[0]!.headers['x-subscription-token']).toBe('k-123');
    status = 429;
    const err = await rt.refused('web_search', { query: 'q' });
    expect(err).toMatch(/web_search failed: Brave Search answered HTTP 429/);
    expect(err).not.toContain('k-123');
    // Without the key in the environment the tool is not registered.
    const keyless = await setup({ flags: yolo, recipe });
    expect(keyless.catalog.names()).not.toContain('web_search');
  });

  it('checks the provider configuration', async () => {
    await expect(setup({ recipe: 'web_search: { provider: searxng }\n' })).rejects.toThrow(
      /web_search\.url.*searxng needs the instance url/s,
    );
    await expect(setup({ recipe: 'web_search: { provider: brave }\n' })).rejects.toThrow(/api_key_env/);
    await expect(setup({ recipe: 'web_search: { provider: bing }\n' })).rejects.toThrow(/provider/);
    await expect(setup({ recipe: 'web_search: { provider: searxng, url: "http://admin:pw@127.0.0.2/" }\n' })).rejects.toThrow(
      /no user:password@/,
    );
  });
});
