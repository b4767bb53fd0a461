// core-agent as the conformance suite's client: `conformance client --command
// "node client-wrapper.ts"` starts a test server and runs this with its URL as the
// LAST argument. It points a recipe's mcp.servers entry at that URL, lists the
// server's tools through the bundle (`tools list --json`), then replays one call
// per listed tool in a headless `run` whose asker reads stdin (`--ask stdin`):
// the piped "y" and empty lines accept an elicitation form with every default.
// Only loopback: a URL for any other host is refused before anything connects.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../../dist/core-agent.mjs', import.meta.url));
const given = new URL(process.argv.at(-1) ?? '');
if (given.hostname !== 'localhost' && given.hostname !== '127.0.0.1') {
  console.error(`client-wrapper: refusing ${given.hostname}: the conformance run stays on 127.0.0.1`);
  process.exit(2);
}
// The suite's servers listen on every interface and name "localhost": pin IPv4 loopback. An auth
// scenario's metadata names "localhost" (its resource must match the URL), so there the name stays
// and resolves IPv4 first (NODE_OPTIONS below), which /etc/hosts maps to 127.0.0.1.
const authScenario = process.env.MCP_CONFORMANCE_SCENARIO?.startsWith('auth/') === true;
if (!authScenario) given.hostname = '127.0.0.1';

const ws = mkdtempSync(path.join(tmpdir(), 'conformance-client-'));
// Auth scenarios: a login is completed by a "browser" that fetches the URL and follows the
// suite's redirect to core-agent's loopback listener; the scenario's context (a pre-registered
// client, client credentials) becomes the server's oauth: block, its secrets env variables.
const browser = path.join(ws, 'browser.sh');
writeFileSync(browser, `#!/bin/sh\nexec "${process.execPath}" -e 'fetch(process.argv[1]).then((r) => r.text(), () => {})' "$1"\n`, {
  mode: 0o755,
});
const ctx = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string | undefined>;
const env: Record<string, string | undefined> = {
  PATH: process.env.PATH,
  HOME: ws,
  BROWSER: browser,
  NODE_OPTIONS: '--dns-result-order=ipv4first',
};
const oauth: Record<string, unknown> = { client_metadata_url: 'https://conformance-test.local/client-metadata.json' };
if (ctx.client_id) Object.assign(oauth, { client_id: ctx.client_id, client_metadata_url: undefined });
if (ctx.client_secret)
  Object.assign(oauth, { client_secret_env: 'CONF_CLIENT_SECRET' }, (env.CONF_CLIENT_SECRET = ctx.client_secret) && {});
if (ctx.private_key_pem) {
  env.CONF_PRIVATE_KEY = ctx.private_key_pem;
  Object.assign(oauth, { private_key_env: 'CONF_PRIVATE_KEY', signing_algorithm: ctx.signing_algorithm ?? 'ES256' });
}
if (ctx.name?.startsWith('auth/client-credentials')) oauth.grant = 'client_credentials';
const common = ['-w', ws, '-c', path.join(ws, 'recipe.yaml')];
writeFileSync(
  path.join(ws, 'recipe.yaml'),
  JSON.stringify({ mcp: { servers: { conf: { url: given.href, ...(authScenario ? { oauth } : {}) } } } }),
);

const cli = (args: string[], input = '') =>
  spawnSync(process.execPath, [bundle, ...args], { cwd: ws, env, input, encoding: 'utf8', timeout: 60_000 });

const listed = cli(['tools', 'list', '--json', ...common]);
process.stderr.write(listed.stderr);
if (listed.status !== 0) process.exit(listed.status ?? 1);
const tools = (JSON.parse(listed.stdout) as Array<{ name: string; model_name?: string; input_schema: Schema }>).filter((t) =>
  t.name.startsWith('mcp.conf.'),
);

interface Schema {
  properties?: Record<string, { type?: string; enum?: unknown[] }>;
  required?: string[];
}

/** Arguments that satisfy a tool's schema: a value of the right type for each required property. */
function sampleArgs(schema: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    const p = schema.properties?.[name] ?? {};
    out[name] = p.enum?.[0] ?? { number: 1, integer: 1, boolean: true, array: [], object: {} }[p.type ?? ''] ?? 'x';
  }
  return out;
}

const script = path.join(ws, 'script.jsonl');
const turns = [
  ...(tools.length > 0 ? [{ tool_calls: tools.map((t) => ({ name: t.model_name ?? t.name, args: sampleArgs(t.input_schema) })) }] : []),
  { text: 'done' },
];
writeFileSync(script, turns.map((t) => JSON.stringify(t)).join('\n'));
const run = cli(
  ['run', '-m', `replay:${script}`, '--yolo', '--ask', 'stdin', '--session-db', path.join(ws, 'sessions.db'), ...common, 'go'],
  `y\n${'\n'.repeat(40)}`,
);
process.stderr.write(run.stderr);
process.stdout.write(run.stdout);
process.exit(run.status ?? 1);
