import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PeerRegistry } from '../../src/attach/peers-registry.ts';
import { createLogger } from '../../src/log.ts';
import { recordCalls } from '../../src/runtime/record-calls.ts';
import { createRuntime } from '../../src/runtime/runtime.ts';
import { processSecrets } from '../../src/runtime/secrets.ts';
import { openSessionLog } from '../../src/runtime/store-step.ts';
import { MASK } from '../../src/util/secret-values.ts';
import { runCli } from '../helpers/cli.ts';
import { fakeProvider, type FakeTurn } from '../helpers/fake-providers.ts';
import { countingServer } from '../helpers/http-servers.ts';
import { testServer } from '../mcp/helpers.ts';
import { startFakePeer } from '../tools/fake-peer.ts';
import { tempDir } from '../helpers/workspace.ts';
import { MASK_CASES, type MaskCase } from './secret-masking.cases.ts';

/**
 * The secret-masking matrix (secret-masking.cases.ts). Through the built CLI: a
 * model on 127.0.0.1 (the OpenAI wire) makes one call, and the planted secret is
 * looked for in what the model was sent back (the tool messages of its next
 * request: the dispatcher's result, which nothing downstream masks again), the
 * JSON stream, the debug log, `sessions show --json` and the session database's
 * files. Each case also proves the secret did come back (the mask stands where
 * it would have been), so a tool that simply failed to return it cannot pass.
 */

/** The secret a case plants, and the text it is planted as. */
function plant(c: MaskCase, i: number): { secret: string; planted: string } {
  const base = `planted-${i}-secret-5e7d1c`;
  switch (c.form) {
    case 'plain':
      return { secret: c.source === 'recipe-env' ? `http://127.0.0.1:9/hooks/${base}` : base, planted: '' };
    case 'base64':
      return { secret: base, planted: Buffer.from(base).toString('base64') };
    case 'url': {
      const secret = `planted/${i}+secret=5e7d1c&x`;
      return { secret, planted: encodeURIComponent(secret) };
    }
    case 'json-escaped':
      return { secret: `planted"${i}\\secret-5e7d1c`, planted: '' };
    case 'short':
      return { secret: `pin48${i % 10}1`.slice(0, 7), planted: '' };
    case 'inside-base64':
      return { secret: base, planted: Buffer.from(`user:${base}`).toString('base64') };
  }
}

interface Run {
  /** What the model was shown of the tool's result: the tool messages it was sent (call_peer: the dispatcher's result). */
  model: string;
  stream: string;
  log: string;
  stored: string;
}

async function viaCli(c: MaskCase, secret: string, planted: string): Promise<Run> {
  const ws = await tempDir();
  const text = planted || secret;
  await writeFile(path.join(ws, 'secret.txt'), `line one\nthe value: ${text}\nline three\n`);
  const env: NodeJS.ProcessEnv = {};
  const recipe: Record<string, unknown> = {};
  const servers: Record<string, unknown> = {};
  if (c.source === 'secret-named') env.PLANTED_TOKEN = secret;
  if (c.source === 'recipe-env') {
    env.HOOK_ADDRESS = secret;
    recipe.alerts = { targets: { oncall: { url_env: 'HOOK_ADDRESS' } } };
  }
  if (c.source === 'mcp-header') {
    env.API_HEADER = secret;
    servers.remote = { url: 'http://127.0.0.1:1/mcp', headers: { 'X-Api': '${API_HEADER}' }, startup_timeout_seconds: 2 };
  }
  let call: { name: string; args: Record<string, unknown> } | undefined;
  switch (c.via) {
    case 'read_file':
      call = { name: 'read_file', args: { path: 'secret.txt' } };
      break;
    case 'bash':
      call = { name: 'bash', args: { command: 'cat secret.txt' } };
      break;
    case 'grep':
      call = { name: 'grep', args: { pattern: 'value', path: '.' } };
      break;
    case 'mcp-result':
      servers.test = { command: process.execPath, args: [testServer], env: { TOKEN_COPY: '${PLANTED_TOKEN}' } };
      call = { name: 'test_env', args: { name: 'TOKEN_COPY' } };
      break;
    case 'mcp-error':
      servers.test = { command: process.execPath, args: [testServer] };
      call = { name: 'test_fail', args: { message: `denied for ${secret}` } };
      break;
    case 'mcp-stderr-log':
      servers.test = { command: process.execPath, args: [testServer], env: { STDERR_NOTE: '${PLANTED_TOKEN}' } };
      call = { name: 'test_echo', args: { text: 'hi' } };
      break;
    case 'fetch_url': {
      const page = await countingServer('127.0.0.2', (_q, res) => res.end(`<p>the key is ${secret}</p>`));
      recipe.permissions = { url_scope: { allow: [`http://127.0.0.2:${page.port}`] } };
      call = { name: 'fetch_url', args: { url: `${page.origin}/page` } };
      break;
    }
    case 'fetch_url-error':
      recipe.permissions = { url_scope: { allow: ['http://127.0.0.1:1'] } };
      call = { name: 'fetch_url', args: { url: `http://127.0.0.1:1/${encodeURIComponent(secret)}` } };
      break;
    case 'read_file-error':
      call = { name: 'read_file', args: { path: `missing-${secret}.txt` } };
      break;
    case 'model-text':
      break;
    case 'call_peer':
      throw new Error('call_peer runs in-process');
  }
  if (Object.keys(servers).length > 0) recipe.mcp = { servers };
  const recipeFile = path.join(ws, 'recipe.json');
  await writeFile(recipeFile, JSON.stringify(recipe));
  const turns: FakeTurn[] = call
    ? [{ toolCalls: [{ name: call.name, args: JSON.stringify(call.args) }] }, { text: 'done' }]
    : [{ text: `the token is ${secret}` }];
  const model = await fakeProvider('openai', turns);
  const db = path.join(ws, 'sessions.db');
  const flags = ['-o', 'json', '--yolo', '--session-db', db, '--log-level', 'debug'];
  const r = await runCli(['run', '-c', recipeFile, '-w', ws, '-m', 'openai-compatible:m', ...flags, 'go'], ws, {
    ...env,
    OPENAI_COMPATIBLE_BASE_URL: model.url,
  }).finally(() => model.close());
  // The model's own tool calls (the arguments it wrote) go back to it as it sent them: only the results are the tools'.
  const toolMessages = model.requests.flatMap((q) =>
    ((q.body.messages ?? []) as Array<{ role?: string; content?: unknown }>).filter((m) => m.role === 'tool'),
  );
  const id = /"type":"session".*?"id":"([^"]+)"/.exec(r.stdout)?.[1];
  expect(id, `${r.stdout}\n${r.stderr}`).toBeDefined();
  const shown = await runCli(['sessions', 'show', id!, '--json', '--session-db', db], ws);
  const files: string[] = [];
  for (const f of await readdir(ws)) if (f.startsWith('sessions.db')) files.push((await readFile(path.join(ws, f))).toString('utf8'));
  return {
    model: toolMessages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n'),
    stream: r.stdout,
    log: r.stderr,
    stored: `${shown.stdout}\n${files.join('\n')}`,
  };
}

/** call_peer exists only on a hub: the root's runtime in-process, its calls recorded and its log captured. */
async function viaCallPeer(secret: string): Promise<Run> {
  const peer = await startFakePeer();
  const roster = PeerRegistry.open({ privateHosts: ['127.0.0.1'] });
  roster.register({ name: 'ops-1', endpoint: `${peer.url}/ok` }, 'op');
  const dir = await tempDir();
  const recipeFile = path.join(dir, 'recipe.yaml');
  await writeFile(
    recipeFile,
    'peers: { hub: true, token_env: FLEET_BEARER, private_hosts: [127.0.0.1] }\ntools: { call_peer: { enabled: true, timeout_seconds: 5 } }\n',
  );
  const lines: string[] = [];
  const logger = createLogger('debug', (line) => lines.push(line), processSecrets);
  const rt = await createRuntime({
    flags: { workspace: dir, recipe: recipeFile, mode: 'yolo' },
    env: { FLEET_BEARER: secret },
    logger,
    services: { peerRoster: roster },
  });
  const log = openSessionLog({ location: path.join(dir, 'sessions.db'), fresh: false, say: () => {} });
  const sessionId = log.createSession({ model: 'none', workspace: dir, title: 'call_peer' });
  rt.dispatcher.recordTo(recordCalls(log, sessionId, rt.session));
  // The peer's answer quotes the prompt: here, the fleet token.
  const r = await rt.dispatcher.call('call_peer', { peer: 'ops-1', prompt: secret }, undefined, { source: 'model' });
  logger.info({ result: r }, 'what the model was shown');
  await new Promise((resolve) => setTimeout(resolve, 200)); // pino loads on the first line
  const stored = log
    .events(sessionId)
    .map((e) => JSON.stringify(e.data))
    .join('\n');
  log.close();
  await rt.session.close();
  return { model: JSON.stringify(r), stream: JSON.stringify(r), log: lines.join(''), stored };
}

describe('known secrets are masked in every tool result and event', () => {
  for (const [i, c] of MASK_CASES.entries()) {
    it(c.name, { timeout: 90_000 }, async () => {
      const { secret, planted } = plant(c, i);
      const run = c.via === 'call_peer' ? await viaCallPeer(secret) : await viaCli(c, secret, planted);
      const form = planted || secret;
      const everywhere = [run.model, run.stream, run.log, run.stored];
      if (c.expect === 'shown') {
        // The documented limit: the form is not masked, and the model is shown it.
        expect(run.model).toContain(form);
        return;
      }
      for (const where of everywhere) {
        expect(where.includes(secret), `the secret in: ${where.slice(0, 300)}`).toBe(false);
        expect(where.includes(JSON.stringify(secret).slice(1, -1)), 'the secret, JSON-escaped').toBe(false);
        if (planted) expect(where.includes(planted), 'the planted form').toBe(false);
      }
      // It did come back, masked where it would have been: in the result the model was sent, unless the model said it.
      if (c.via === 'mcp-stderr-log') expect(run.log).toContain(`test server ready on stdio: ${MASK}`);
      else expect(run.stream).toContain(MASK);
      if (c.via !== 'mcp-stderr-log' && c.via !== 'model-text') expect(run.model).toContain(MASK);
      if (c.via !== 'mcp-stderr-log') expect(run.stored).toContain(MASK);
    });
  }
});
