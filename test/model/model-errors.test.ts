import { lookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { fakeProvider, type FakeServer } from '../helpers/fake-providers.ts';
import { tempDir } from '../helpers/workspace.ts';
import { MODEL_ERROR_CASES, type ModelErrorCase, type Provider } from './model-errors.cases.ts';

/**
 * The matrix in model-errors.cases.ts through the built CLI: `run` exits 3 with the
 * case's one sentence, after the number of requests the retry policy allows; `doctor -m`
 * reports the same sentence (without the retries) in its "model api" check and exits 1.
 * A key planted in the environment, and echoed back by some servers, appears in neither.
 */
const KEY = 'sk-planted-0b7c41d2e9';
const DNS_HOST = 'no-such-host.invalid';

const SPEC: Record<Provider, string> = {
  openai: 'openai:gpt-4.1-mini',
  'openai-compatible': 'openai-compatible:local-model',
  anthropic: 'anthropic:claude-sonnet-4-5',
  google: 'google:gemini-2.5-flash',
  vertex: 'vertex:gemini-2.5-flash',
};
const WIRE = { openai: 'openai', 'openai-compatible': 'openai', anthropic: 'anthropic', google: 'google', vertex: 'google' } as const;
/** The path each provider's base URL has, kept when the host or scheme is swapped for a failure. */
const PATH: Record<Provider, string> = {
  openai: '/v1',
  'openai-compatible': '/v1',
  anthropic: '/v1',
  google: '/v1beta',
  vertex: '/v1beta',
};

let metadataHost = '';
function envFor(provider: Provider, url: string): NodeJS.ProcessEnv {
  switch (provider) {
    case 'openai':
      return { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: url };
    case 'openai-compatible':
      return { OPENAI_COMPATIBLE_BASE_URL: url, OPENAI_COMPATIBLE_API_KEY: KEY };
    case 'anthropic':
      return { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url };
    case 'google':
      return { GEMINI_API_KEY: KEY, GOOGLE_GEMINI_BASE_URL: url };
    case 'vertex':
      return { GOOGLE_CLOUD_PROJECT: 'test-project', GOOGLE_VERTEX_BASE_URL: url, GCE_METADATA_HOST: metadataHost };
  }
}

const closers: Array<() => Promise<void>> = [];
const listen = async (server: http.Server | https.Server): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return (server.address() as AddressInfo).port;
};

let dnsCode: string | undefined;
beforeAll(async () => {
  // A metadata server standing in for 169.254.169.254: Vertex's access token.
  const metadata = http.createServer((req, res) => {
    res.setHeader('Metadata-Flavor', 'Google');
    if (req.url?.includes('/token')) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ access_token: 'ya29.metadata-token', expires_in: 3600, token_type: 'Bearer' }));
    } else res.end(req.url?.includes('project-id') ? 'test-project' : '');
  });
  metadataHost = `127.0.0.1:${await listen(metadata)}`;
  // What this machine's resolver says of a name that cannot exist (RFC 6761): the dns cases expect NXDOMAIN.
  dnsCode = await lookup(DNS_HOST).then(
    () => 'resolved',
    (e: NodeJS.ErrnoException) => e.code,
  );
});
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
});

const tls = fileURLToPath(new URL('../fixtures/tls/', import.meta.url));

/** Where the provider is pointed for the case, and the server when there is one. */
async function target(c: ModelErrorCase): Promise<{ url: string; server?: FakeServer }> {
  const path = PATH[c.provider];
  switch (c.net) {
    case 'refused': {
      const closed = http.createServer();
      const port = await listen(closed);
      await closers.pop()!();
      return { url: `http://127.0.0.1:${port}${path}` };
    }
    case 'dns':
      return { url: `http://${DNS_HOST}${path}` };
    case 'self-signed': {
      const server = https.createServer(
        { key: readFileSync(`${tls}self-signed.key`), cert: readFileSync(`${tls}self-signed.pem`) },
        (_, res) => res.end('{}'),
      );
      return { url: `https://127.0.0.1:${await listen(server)}${path}` };
    }
    case 'plain-http': {
      const server = await fakeProvider(WIRE[c.provider], []);
      closers.push(() => server.close());
      return { url: server.url.replace('http://', 'https://'), server };
    }
    default: {
      const body = JSON.parse(JSON.stringify(c.reply!.body).replaceAll('{key}', KEY)) as unknown;
      const turns = Array.from({ length: 12 }, () => ({ status: c.reply!.status, errorBody: body, headers: c.reply!.headers }));
      const server = await fakeProvider(WIRE[c.provider], turns);
      closers.push(() => server.close());
      return { url: server.url, server };
    }
  }
}

function expected(c: ModelErrorCase, url: string, retried: boolean): string {
  const attempts = c.requests ?? 1;
  return c.says
    .replaceAll('{tries}', retried && attempts > 1 ? ` after ${attempts} attempts` : '')
    .replaceAll('{n}', retried ? `, ${c.net === 'refused' ? 5 : attempts} attempts` : '')
    .replaceAll('{url}', url)
    .replaceAll('{origin}', new URL(url).origin)
    .replaceAll('{host}', DNS_HOST);
}

const name = (c: ModelErrorCase) =>
  `${c.provider} × ${c.net ?? `HTTP ${c.reply!.status}`}${c.reply ? ` ${JSON.stringify(c.reply.body).slice(0, 40)}` : ''}`;

describe('a failed model call: one sentence naming the provider, the status and what to check', () => {
  it.each(MODEL_ERROR_CASES.map((c) => [name(c), c] as const))(
    '%s',
    async (_, c) => {
      if (c.net === 'dns' && dnsCode !== 'ENOTFOUND') {
        console.warn(`skipped: this machine's resolver answers ${DNS_HOST} with ${dnsCode}, not ENOTFOUND (NXDOMAIN)`);
        return;
      }
      const ws = await tempDir();
      const [forRun, forDoctor] = [await target(c), await target(c)];
      const [run, doctor] = await Promise.all([
        runCli(['run', '-m', SPEC[c.provider], '--session-db', ':memory:', 'hi'], ws, envFor(c.provider, forRun.url)),
        runCli(['doctor', '-m', SPEC[c.provider], '-o', 'json', '--timeout', '20'], ws, envFor(c.provider, forDoctor.url)),
      ]);
      const said = run.stderr.split('\n').find((l) => l.startsWith('core-agent: model call failed: '));
      expect(said, run.stderr).toBe(`core-agent: model call failed: ${expected(c, forRun.url, true)}`);
      expect(run.code, run.stderr).toBe(c.exit);
      if (forRun.server && c.reply) expect(forRun.server.requests).toHaveLength(c.requests ?? 1);

      const check = (
        JSON.parse(doctor.stdout) as { checks: Array<{ check: string; status: string; detail: string; fix?: string }> }
      ).checks.find((k) => k.check === 'model api');
      expect(check, doctor.stdout).toBeDefined();
      expect([check!.status, `${check!.detail}; ${check!.fix}`]).toEqual(['fail', expected(c, forDoctor.url, false)]);
      expect(doctor.code).toBe(1);
      if (forDoctor.server && c.reply) expect(forDoctor.server.requests).toHaveLength(1);
      for (const out of [run.stdout, run.stderr, doctor.stdout, doctor.stderr]) expect(out).not.toContain(KEY);
      // Generous: a refused connection is retried with backoff (up to 7.5 s of waits), on a busy machine.
    },
    90_000,
  );
});
