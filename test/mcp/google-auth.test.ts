import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';
import { httpServer } from './helpers.ts';

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/**
 * A stand-in for the GCE / GKE metadata server — what Workload Identity serves a
 * pod — on loopback. google-auth-library finds it through GCE_METADATA_HOST.
 */
async function metadataServer(token: string): Promise<{ host: string; tokenRequests: string[] }> {
  const tokenRequests: string[] = [];
  const server = http.createServer((req, res) => {
    if (req.headers['metadata-flavor'] !== 'Google') return void res.writeHead(403).end();
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('Metadata-Flavor', 'Google');
    if (url.pathname === '/computeMetadata/v1/instance/service-accounts/default/token') {
      tokenRequests.push(url.searchParams.get('scopes') ?? '');
      res.setHeader('content-type', 'application/json');
      return void res.end(JSON.stringify({ access_token: token, expires_in: 3599, token_type: 'Bearer' }));
    }
    if (url.pathname.startsWith('/computeMetadata/v1')) return void res.end('ok');
    res.writeHead(404).end();
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { host: `127.0.0.1:${(server.address() as AddressInfo).port}`, tokenRequests };
}

describe('google_auth on an HTTP MCP server (Application Default Credentials)', () => {
  it('takes a token from the metadata server (GKE Workload Identity) and sends it as a bearer token', async () => {
    const meta = await metadataServer('ya29.workload-identity-token');
    const { url } = await httpServer({ TEST_MCP_TOKEN: 'ya29.workload-identity-token' });
    const ws = await tempDir();
    const recipe = path.join(ws, 'r.yaml');
    const scope = 'https://www.googleapis.com/auth/cloud-platform.read-only';
    await writeFile(recipe, `mcp:\n  servers:\n    gke: {url: "${url}", google_auth: {scopes: ["${scope}"]}, read_only: true}\n`);
    const env = { GCE_METADATA_HOST: meta.host, GOOGLE_CLOUD_PROJECT: 'test-project' };
    const r = await runCli(['tools', 'call', 'gke_echo', '{"text":"via ADC"}', '-c', recipe, '-w', ws], ws, env);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ text: 'via ADC' });
    expect(meta.tokenRequests).toEqual([scope]);
  });

  it('without credentials the server is reported down with the reason, and the rest of the run goes on', async () => {
    const { url } = await httpServer({ TEST_MCP_TOKEN: 'x' });
    const ws = await tempDir();
    const recipe = path.join(ws, 'r.yaml');
    await writeFile(
      recipe,
      `mcp:\n  servers:\n    gke: {url: "${url}", google_auth: {scopes: ["https://www.googleapis.com/auth/cloud-platform"]}}\n`,
    );
    // Nothing answers as a metadata server here, and HOME holds no gcloud credentials.
    const r = await runCli(['tools', 'list', '--json', '-c', recipe, '-w', ws, '--log-level', 'warn'], ws, {
      GCE_METADATA_HOST: '127.0.0.1:9',
      METADATA_SERVER_DETECTION: 'none',
    });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as Array<{ name: string }>).some((t) => t.name === 'read_file')).toBe(true);
    expect(r.stderr).toMatch(/"mcp_server":"gke".*Google credentials/);
  });
});
