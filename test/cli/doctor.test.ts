import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { fakeProvider, type FakeServer } from '../helpers/fake-providers.ts';
import { writeKubeconfig } from '../helpers/kubeconfig.ts';
import { tempDir } from '../helpers/workspace.ts';
import { stdioServer } from '../mcp/helpers.ts';
import { DOCTOR_CASES, SECRET, type DoctorCase } from './doctor.cases.ts';

// A kube API server on 127.0.0.1 answering /version, one that takes the connection and never
// answers, and a port that was open a moment ago and is closed now.
const servers: Server[] = [];
const urls: Record<'live' | 'hung' | 'dead', string> = { live: '', hung: '', dead: '' };
// Model providers on 127.0.0.1 answering their models endpoints (doctor's "model api" call), and one refusing the key,
// echoing it back as some servers do: the planted secret must still appear nowhere.
const providers: FakeServer[] = [];
const model: Record<'openai' | 'anthropic' | 'google' | 'refusing', string> = { openai: '', anthropic: '', google: '', refusing: '' };
const listen = async (s: Server) => {
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
};
beforeAll(async () => {
  const live = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/version')) res.end(JSON.stringify({ major: '1', minor: '31', gitVersion: 'v1.31.4' }));
    else res.writeHead(404).end('{}');
  });
  const hung = createServer(() => {});
  servers.push(live, hung);
  urls.live = await listen(live);
  urls.hung = await listen(hung);
  const closed = createServer();
  urls.dead = await listen(closed);
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  for (const wire of ['openai', 'anthropic', 'google'] as const) {
    const server = await fakeProvider(wire, []);
    providers.push(server);
    model[wire] = server.url;
  }
  const refusing = await fakeProvider(
    'openai',
    Array.from({ length: 200 }, () => ({ status: 401, errorBody: { error: { message: `Incorrect API key provided: ${SECRET}.` } } })),
  );
  providers.push(refusing);
  model.refusing = refusing.url;
});
afterAll(async () => {
  await Promise.all(providers.map((p) => p.close()));
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

async function kubeconfig(dir: string, name: string, server: string): Promise<string> {
  return writeKubeconfig(path.join(dir, `kubeconfig-${name}`), server);
}

interface Report {
  ok: boolean;
  checks: Array<{ check: string; status: string; detail: string; fix?: string }>;
}

async function runCase(c: DoctorCase, json: boolean) {
  const ws = await tempDir('core-agent-doctor-');
  const home = path.join(ws, 'home');
  const kube = {
    live: await kubeconfig(ws, 'live', urls.live),
    hung: await kubeconfig(ws, 'hung', urls.hung),
    dead: await kubeconfig(ws, 'dead', urls.dead),
  };
  // The secret also sits in every MCP server's environment: a server's error must not carry it out.
  const fill = (s: string) =>
    s
      .replaceAll('{ok-server}', stdioServer({ env: { TOKEN: SECRET } }, 'ok'))
      .replaceAll('{broken-server}', JSON.stringify({ broken: { command: process.execPath, args: ['-e', 'process.exit(3)'] } }))
      .replaceAll('{hung-server}', JSON.stringify({ hung: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] } }))
      .replaceAll('{kube-live}', kube.live)
      .replaceAll('{kube-hung}', kube.hung)
      .replaceAll('{kube-dead}', kube.dead)
      .replaceAll('{openai-url}', model.openai)
      .replaceAll('{anthropic-url}', model.anthropic)
      .replaceAll('{google-url}', model.google)
      .replaceAll('{refusing-url}', model.refusing)
      .replaceAll('{dead-url}', `${urls.dead}/v1`)
      .replaceAll('{hung-url}', `${urls.hung}/v1`)
      .replaceAll('{ws}', ws);
  if (c.user !== undefined) {
    await mkdir(path.join(home, '.config', 'core-agent'), { recursive: true });
    await writeFile(path.join(home, '.config', 'core-agent', 'config.yaml'), fill(c.user));
  }
  if (c.project !== undefined) {
    await mkdir(path.join(ws, '.agents'), { recursive: true });
    await writeFile(path.join(ws, '.agents', 'config.yaml'), fill(c.project));
  }
  const args = ['doctor', ...(c.args ?? []).map(fill)];
  if (c.recipe !== undefined) {
    await writeFile(path.join(ws, 'r.yaml'), fill(c.recipe));
    args.push('-c', 'r.yaml');
  }
  if (json) args.push('-o', 'json');
  const env = Object.fromEntries(Object.entries(c.env ?? {}).map(([k, v]) => [k, fill(v)]));
  const started = Date.now();
  const out = await runCli(args, ws, { HOME: home, ...env });
  return { ...out, seconds: (Date.now() - started) / 1000 };
}

describe('doctor: each check against real servers, processes and files', () => {
  it.each(DOCTOR_CASES)('$name', async (c) => {
    const [json, text] = await Promise.all([runCase(c, true), runCase(c, false)]);
    for (const out of [json, text]) {
      expect(out.code, out.stderr).toBe(c.exit);
      expect(out.stdout + out.stderr).not.toContain(SECRET);
      // Bounded: the slowest check has a 2 s or 10 s deadline; nothing waits for a retry.
      expect(out.seconds).toBeLessThan(30);
    }
    const report = JSON.parse(json.stdout) as Report;
    expect(report.ok).toBe(c.exit === 0);
    const byName = new Map(report.checks.map((k) => [k.check, k]));
    for (const [name, status] of Object.entries(c.expect)) {
      const k = byName.get(name);
      expect(k, `check "${name}" in ${json.stdout}`).toBeDefined();
      expect([name, k!.status, k!.detail]).toEqual([name, status, k!.detail]);
      if (status !== 'ok') expect(k!.fix, name).toBeTruthy();
      // The table says the same, one line a check, its fix under it.
      expect(text.stdout).toMatch(new RegExp(`^${status} +${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +\\S`, 'm'));
    }
    for (const [name, re] of Object.entries(c.detail ?? {})) expect(byName.get(name)?.detail).toMatch(re);
    for (const name of c.absent ?? []) expect(byName.has(name), name).toBe(false);
    expect(text.stdout).toMatch(/^\d+ ok, \d+ warn, \d+ fail$/m);
  });

  it('a bad --output or --timeout is a usage error (exit 2)', async () => {
    const ws = await tempDir('core-agent-doctor-');
    expect((await runCli(['doctor', '-o', 'yaml'], ws)).code).toBe(2);
    expect((await runCli(['doctor', '--timeout', '0'], ws)).code).toBe(2);
  });
});
