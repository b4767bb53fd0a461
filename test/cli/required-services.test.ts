// Runs test/cli/required-services.cases.ts through the built CLI; and every shipped recipe
// through `recipe validate` with an empty environment and no cluster (a CI job that checks
// recipes has neither).
import { createServer, type Server } from 'node:net';
import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';
import { stdioServer } from '../mcp/helpers.ts';
import { REQUIRED_CASES, type RequiredCase } from './required-services.cases.ts';

const root = path.resolve(import.meta.dirname, '../..');
/** This Node and the system's directories: no kubernetes-mcp-server, no project binaries. */
const PATH = `${path.dirname(process.execPath)}:/usr/bin:/bin`;

// A GCE metadata server on 127.0.0.1 that resets every connection: google-auth-library's probe
// gets an error it does not expect, the one it reported with a raw process warning.
let metadata: Server;
let metadataHost = '';
beforeAll(async () => {
  metadata = createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve) => metadata.listen(0, '127.0.0.1', resolve));
  metadataHost = `127.0.0.1:${(metadata.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => metadata.close(() => resolve())));

const SERVERS: Record<string, string> = {
  '{ok-server}': stdioServer({ required: true }, 'ok'),
  '{missing-server}': JSON.stringify({ missing: { command: '/nonexistent/mcp-server', required: true } }),
  '{missing-optional}': JSON.stringify({ missing: { command: '/nonexistent/mcp-server' } }),
  '{gke}': JSON.stringify({
    gke: {
      url: 'https://container.googleapis.com/mcp/read-only',
      google_auth: { scopes: ['https://www.googleapis.com/auth/cloud-platform.read-only'] },
      required: true,
    },
  }),
};

async function runCase(c: RequiredCase) {
  const ws = await tempDir();
  let recipe = path.join(root, c.file ?? '');
  if (c.recipe !== undefined) {
    recipe = path.join(ws, 'r.yaml');
    await writeFile(
      recipe,
      Object.entries(SERVERS).reduce((text, [k, v]) => text.replaceAll(k, v), c.recipe),
    );
  }
  await writeFile(path.join(ws, 's.jsonl'), `${JSON.stringify({ text: 'done' })}\n`);
  // A configured cluster (nothing is contacted before a k8s tool runs), for the recipes that require one.
  const kubeconfig = path.join(ws, 'kubeconfig');
  // A kubeconfig that loads (a context naming a cluster nothing answers for): the cases are about the recipe's services.
  await writeFile(
    kubeconfig,
    'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\n' +
      'users: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n',
  );
  const env = { PATH, HOME: ws, KUBECONFIG: kubeconfig, GCE_METADATA_HOST: metadataHost, ...c.env };
  const agent = ['-c', recipe, '-m', 'replay:s.jsonl', '--session-db', ':memory:'];
  const args =
    c.command === 'validate'
      ? ['recipe', 'validate', recipe]
      : c.command === 'run'
        ? ['run', ...agent, 'hi']
        : c.command === 'watch'
          ? ['watch', ...agent, '--listen', '127.0.0.1:0']
          : ['repl', ...agent];
  return runCli(args, ws, env);
}

describe('required MCP servers and alert targets: cannot start or deliver, no start (exit 2)', () => {
  it.each(REQUIRED_CASES.map((c) => [`${c.command}: ${c.name} → ${c.code}`, c] as const))('%s', async (_name, c) => {
    const out = await runCase(c);
    expect(out.code, out.stderr).toBe(c.code);
    if (c.stderr) expect(out.stderr).toMatch(c.stderr);
    else expect(out.stderr).not.toMatch(/requires the|did not start|dropped/);
    if (c.stdout) expect(out.stdout).toMatch(c.stdout);
    // One sentence: no second line about the same refusal, no stack, no raw process warning.
    expect(out.stderr.split('\n').filter((l) => /requires the/.test(l)).length).toBeLessThanOrEqual(1);
    expect(out.stderr).not.toMatch(/MetadataLookupWarning|\n\s+at /);
  });
});

describe('every shipped recipe validates with an empty environment and no cluster', () => {
  const shipped = [
    ...readdirSync(path.join(root, 'recipes'))
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => `recipes/${f}`),
    ...readdirSync(path.join(root, 'examples/recipes')).map((f) => `examples/recipes/${f}`),
    'scion/home/.config/core-agent/scion-recipe.yaml',
  ];
  it.each(shipped)('%s', async (file) => {
    const home = await tempDir();
    // HOME only (the code cache goes there): no KUBECONFIG, no ~/.kube/config, no variable the recipe names.
    const out = await runCli(['recipe', 'validate', path.join(root, file)], home, { PATH, HOME: home });
    expect(out.stderr, file).toBe('');
    expect(out.code, file).toBe(0);
    expect(out.stdout).toMatch(/: ok\n/);
  });
});
