import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';
import { CC_CLIENT, startOAuthMcpServer, type OAuthMcpServer } from './oauth-server.ts';

/**
 * OAuth end to end: the bundle against an OAuth-protected MCP server on
 * 127.0.0.1 (oauth-server.ts). A person's login (the browser is a script that
 * fetches the authorization URL and follows the redirect to core-agent's
 * loopback listener) and the operator's client credentials each let a replayed
 * session call the server's tool — and no token the server issued appears in the
 * JSON stream, stderr (at debug level), `sessions show`, or the session database.
 */
const servers: OAuthMcpServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function setup(oauth: Record<string, unknown>) {
  const server = await startOAuthMcpServer();
  servers.push(server);
  const ws = await tempDir();
  const recipe = path.join(ws, 'recipe.json');
  await writeFile(recipe, JSON.stringify({ mcp: { servers: { secure: { url: server.url, oauth } } } }));
  const script = path.join(ws, 'script.jsonl');
  await writeFile(
    script,
    [{ tool_calls: [{ name: 'secure_whoami', args: {} }] }, { text: 'done' }].map((t) => JSON.stringify(t)).join('\n'),
  );
  const browser = path.join(ws, 'browser.sh');
  await writeFile(browser, `#!/bin/sh\nexec "${process.execPath}" -e 'fetch(process.argv[1]).then((r) => r.text())' "$1"\n`, {
    mode: 0o755,
  });
  const db = path.join(ws, 'sessions.db');
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli([...args, '-c', recipe, '-w', ws], ws, env);
  const run = (env: NodeJS.ProcessEnv = {}) =>
    cli(['run', '-m', `replay:${script}`, '-o', 'json', '--session-db', db, '--log-level', 'debug', 'go'], env);
  const tokenFile = path.join(ws, '.local', 'state', 'core-agent', 'mcp-oauth', 'secure.json');
  /** The session a run recorded, as `sessions show` prints it (the tool's result is there, not in the stream). */
  const transcript = async (r: { stdout: string }) => {
    const id = /"type":"exit".*"session":"([^"]+)"/.exec(r.stdout)?.[1];
    expect(id, r.stdout).toBeDefined();
    return (await runCli(['sessions', 'show', id!, '--session-db', db], ws)).stdout;
  };
  return { server, ws, db, browser, cli, run, tokenFile, transcript };
}

/** Everything a token must never reach: outputs so far, sessions show (text and JSON), the database files. */
async function expectNoToken(s: Awaited<ReturnType<typeof setup>>, outputs: string[], secrets: string[] = []) {
  const id = /"session_id":"([^"]+)"|"id":"(s-[^"]+)"/.exec(outputs.join('\n'));
  const shown = await runCli(['sessions', 'list', '--all', '--session-db', s.db], s.ws);
  const sessionIds = [...shown.stdout.matchAll(/\bs-[0-9a-f-]+/g)].map((m) => m[0]);
  expect(sessionIds.length + (id ? 1 : 0)).toBeGreaterThan(0);
  const texts = [...outputs, shown.stdout, shown.stderr];
  for (const sid of new Set(sessionIds)) {
    texts.push((await runCli(['sessions', 'show', sid, '--session-db', s.db], s.ws)).stdout);
    texts.push((await runCli(['sessions', 'show', sid, '--json', '--session-db', s.db], s.ws)).stdout);
  }
  for (const f of await readdir(s.ws)) if (f.startsWith('sessions.db')) texts.push((await readFile(path.join(s.ws, f))).toString('latin1'));
  const all = texts.join('\n');
  expect(s.server.issued.length).toBeGreaterThan(0);
  for (const t of [...s.server.issued, ...secrets]) expect(all.includes(t), `a secret appears in an output`).toBe(false);
}

describe('OAuth for Streamable HTTP MCP servers (a local protected server on 127.0.0.1)', () => {
  it(
    'a headless run with $BROWSER logs in (dynamic registration, PKCE) and uses the tool; the next run reuses the stored token',
    { timeout: 120_000 },
    async () => {
      const s = await setup({ scopes: ['mcp:tools'] });
      const first = await s.run({ BROWSER: s.browser });
      expect(first.code, first.stderr).toBe(0);
      expect(await s.transcript(first)).toContain('hello, client');
      expect(first.stderr).toMatch(/Open this URL to authorize core-agent:\n {2}http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
      expect(s.server.calls).toBe(1);
      // The store: one file, owner-only, holding the token the server issued.
      expect((await stat(s.tokenFile)).mode & 0o777).toBe(0o600);
      expect((await stat(path.dirname(s.tokenFile))).mode & 0o777).toBe(0o700);
      expect(await readFile(s.tokenFile, 'utf8')).toContain(s.server.issued[0]);
      // No browser this time: the stored token is enough.
      const second = await s.run();
      expect(second.code, second.stderr).toBe(0);
      expect(await s.transcript(second)).toContain('hello, client');
      expect(s.server.calls).toBe(2);
      expect(second.stderr).not.toContain('Open this URL');
      expect(s.server.issued).toHaveLength(1);
      const list = await s.cli(['mcp', 'list']);
      expect(list.stdout).toMatch(/secure\s+http\s+oauth: logged in\s+1/);
      await expectNoToken(s, [first.stdout, first.stderr, second.stdout, second.stderr, list.stdout, list.stderr]);
    },
  );

  it(
    'headless without $BROWSER a server that needs a login is refused with the command that fixes it; mcp login / logout',
    { timeout: 120_000 },
    async () => {
      const s = await setup({});
      const refused = await s.run();
      expect(refused.code).toBe(0); // a server that does not start never stops the run
      expect(refused.stderr).toContain('needs an OAuth login: run `core-agent mcp login secure`');
      expect(refused.stderr).not.toContain('Open this URL');
      expect((await s.cli(['mcp', 'list'])).stdout).toMatch(/secure\s+http\s+oauth: not logged in\s+- \(.*mcp login secure/);

      const login = await s.cli(['mcp', 'login', 'secure'], { BROWSER: s.browser });
      expect(login.code, login.stderr).toBe(0);
      expect(login.stdout).toBe('logged in to secure (1 tools)\n');
      const used = await s.run();
      expect(await s.transcript(used)).toContain('hello, client');
      expect(s.server.calls).toBe(1);
      await expectNoToken(s, [refused.stderr, login.stdout, login.stderr, used.stdout, used.stderr]);

      expect((await s.cli(['mcp', 'logout', 'secure'])).stdout).toBe('logged out of secure\n');
      await expect(stat(s.tokenFile)).rejects.toThrow(/ENOENT/);
      expect((await s.cli(['mcp', 'logout', 'secure'])).stdout).toBe('secure had no stored login\n');
      expect((await s.cli(['mcp', 'login', 'nope'])).stderr).toContain('no MCP server "nope" is declared (declared: secure)');
    },
  );

  it('the operator path: client credentials authenticate unattended, never a browser', { timeout: 120_000 }, async () => {
    const s = await setup({ grant: 'client_credentials', client_id: CC_CLIENT.id, client_secret_env: 'OPS_SECRET' });
    // A $BROWSER that would fail the test if it ran.
    const r = await s.run({ OPS_SECRET: CC_CLIENT.secret, BROWSER: '/nonexistent/browser' });
    expect(r.code, r.stderr).toBe(0);
    expect(await s.transcript(r)).toContain(`hello, client ${CC_CLIENT.id}`);
    expect(r.stderr).not.toContain('Open this URL');
    expect(r.stderr).not.toContain('/nonexistent/browser');
    const wrong = await s.run({ OPS_SECRET: 'not-the-secret' });
    expect(s.server.calls).toBe(1);
    expect(wrong.stderr).toMatch(/secure.*did not start/);
    const unset = await s.run();
    expect(unset.stderr).toContain('oauth.client_secret_env: OPS_SECRET is not set');
    await expectNoToken(s, [r.stdout, r.stderr, wrong.stdout, wrong.stderr, unset.stderr], [CC_CLIENT.secret]);
  });
});
