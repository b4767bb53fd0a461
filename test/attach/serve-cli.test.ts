import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundle, runCli } from '../helpers/cli.ts';
import { ALICE, BOB, call, eventually, TOKENS, workspace } from './daemon.ts';

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) await stopProcess(c);
});

interface Proc {
  child: ChildProcessWithoutNullStreams;
  out: () => string;
  err: () => string;
}

function start(args: string[], cwd: string, env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, [bundle, ...args], { cwd, env: { PATH: process.env.PATH, HOME: cwd, ...env } });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return { child, out: () => out, err: () => err };
}

function stopProcess(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('close', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

/** `core-agent serve` as a process on 127.0.0.1:0; resolves with its URL once it listens. */
async function serve(ws: ReturnType<typeof workspace>, extra: string[] = []): Promise<Proc & { url: string }> {
  const p = start(
    ['serve', '--listen', '127.0.0.1:0', '--token-env', 'ATTACH_TOKENS', '-m', ws.model, '--session-db', ws.db, ...extra],
    ws.dir,
    {
      ATTACH_TOKENS: TOKENS,
    },
  );
  const url = await eventually(
    () => /attach API on (http:\/\/\S+)/.exec(p.out())?.[1] ?? (p.child.exitCode !== null ? 'exited' : null),
    60_000,
  );
  if (url === 'exited') throw new Error(`serve exited: ${p.err()}`);
  return { ...p, url };
}

describe('core-agent serve: the command line', () => {
  const ws = workspace([]);
  it.each([
    [['serve', '--lisen', '127.0.0.1:0'], /unknown option --lisen — did you mean "--listen"\?/],
    [['serve', '--listen', '0.0.0.0:0', '-m', ws.model], /listening on 0\.0\.0\.0 \(not loopback\) needs --token-env/],
    [['serve', '--token-env', 'NOT_SET_ANYWHERE', '-m', ws.model], /--token-env: NOT_SET_ANYWHERE is not set/],
    [['serve', '--listen', 'nowhere', '-m', ws.model], /--listen "nowhere": give HOST:PORT/],
    [['serve', '--resume', 's-1', '-m', ws.model], /--resume does not apply to serve/],
    [['serve', 'extra', '-m', ws.model], /unexpected argument "extra"/],
    [['serve', '--prompt-timeout', '0', '-m', ws.model], /--prompt-timeout must be a positive integer/],
    [
      ['serve', '--allowed-host', 'https://agent.example.com', '-m', ws.model],
      /--allowed-host "https:\/\/agent\.example\.com" is not a host: give a name/,
    ],
    [['serve', '--allowed-host', 'a.example,b c', '-m', ws.model], /--allowed-host "b c" is not a host/],
    [['serve', '--allowed-host', '*', '-m', ws.model], /attach\.allowed_hosts \/ --allowed-host "\*" needs a bearer token/],
    [['serve'], /no model: give --model/],
    [['attach'], /attach needs the daemon URL/],
    [['attach', 'ftp://x'], /is not an http\(s\) URL/],
    [['attach', 'http://127.0.0.1:1', 's-1', '--since', 'x'], /--since must be a non-negative integer/],
  ])('%j → exit 2', async (argv, stderr) => {
    const r = await runCli(argv, ws.dir, { CORE_AGENT_SESSION_DB: ws.db });
    expect(r.stderr).toMatch(stderr);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('help: serve and attach in the main help, each with its own', async () => {
    expect((await runCli(['--help'], ws.dir)).stdout).toMatch(/serve --listen H:P[\s\S]*attach URL \[SESSION\]/);
    expect((await runCli(['serve', '--help'], ws.dir)).stdout).toMatch(/Usage: core-agent serve[\s\S]*--token-env NAME/);
    expect((await runCli(['attach', '--help'], ws.dir)).stdout).toMatch(/Usage: core-agent attach URL \[SESSION\]/);
  });

  it("the recipe's attach: section is validated at its position", async () => {
    const recipe = path.join(ws.dir, 'bad.yaml');
    writeFileSync(recipe, 'attach:\n  listen: "here"\n  token_env: "1X"\n  allowed_hosts: [ok.example, "user@evil.example"]\n');
    const r = await runCli(['recipe', 'validate', recipe], ws.dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/attach\.listen[\s\S]*HOST:PORT/);
    expect(r.stderr).toMatch(/attach\.token_env/);
    expect(r.stderr).toMatch(/attach\.allowed_hosts\.1[\s\S]*"user@evil\.example" is not a host/);
  });
});

describe('core-agent serve and core-agent attach, as processes', () => {
  it('a session over HTTP; attach follows it, sends a message and answers its prompt; a restart keeps it', async () => {
    const ws = workspace([
      { text: 'hello from the daemon' },
      { tool_calls: [{ name: 'write_file', args: { path: 'out.txt', content: 'x\n' } }] },
      { text: 'wrote it' },
    ]);
    const d = await serve(ws);
    const created = await call(d.url, 'POST', '/sessions');
    expect(created.status).toBe(201);
    const sid = String(created.json!.sessionID);
    // alice (its owner) lets bob drive it; bob attaches.
    expect((await call(d.url, 'PATCH', `/sessions/${sid}/acl`, { body: { contributors: ['bob@example.com'] } })).status).toBe(200);

    const a = start(['attach', d.url, sid, '--token-env', 'MY_TOKEN'], ws.dir, { MY_TOKEN: BOB });
    a.child.stdin.write('say hello\n');
    await eventually(() => a.out().includes('hello from the daemon'), 60_000);
    a.child.stdin.write('now write\n');
    await eventually(() => a.out().includes('Allow write_file?'), 60_000);
    a.child.stdin.write('y\n');
    await eventually(() => a.out().includes('wrote it'), 60_000);
    expect(a.out()).toMatch(/bob@example\.com answered write_file: allow/);
    a.child.stdin.end();
    expect(await new Promise((r) => a.child.once('close', r))).toBe(0);

    const list = await runCli(['attach', d.url, '--token-env', 'MY_TOKEN'], ws.dir, { MY_TOKEN: ALICE });
    expect(list.stdout).toMatch(new RegExp(`${sid}\\s+active\\s+alice`));
    expect(await stopProcess(d.child)).toBe(0);

    const again = await serve(ws);
    const rows = (await call(again.url, 'GET', '/sessions')).json!.sessions as Array<Record<string, unknown>>;
    expect(rows.find((r) => r.sessionID === sid)).toMatchObject({ user: 'alice', status: 'idle', title: 'say hello' });
    const denied = await runCli(['attach', again.url, '--token-env', 'MY_TOKEN'], ws.dir, { MY_TOKEN: 'wrong' });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/401 the token is not valid/);
  }, 180_000);

  it("serve takes its address from the recipe's attach: section", async () => {
    const ws = workspace([]);
    const recipe = path.join(ws.dir, 'recipe.yaml');
    writeFileSync(recipe, 'attach:\n  listen: "127.0.0.1:0"\n  token_env: ATTACH_TOKENS\n');
    const p = start(['serve', '-c', recipe, '-m', ws.model, '--session-db', ws.db], ws.dir, { ATTACH_TOKENS: TOKENS });
    const url = await eventually(() => /attach API on (http:\/\/\S+)/.exec(p.out())?.[1], 60_000);
    expect((await call(url, 'GET', '/whoami', { token: null })).status).toBe(401);
    expect((await call(url, 'GET', '/whoami')).json).toMatchObject({ identity: 'alice' });
  }, 120_000);

  it('answers to the names the recipe, --allowed-host and peers.register.endpoint give, and to no other', async () => {
    const ws = workspace([]);
    const recipe = path.join(ws.dir, 'recipe.yaml');
    writeFileSync(
      recipe,
      [
        'attach:',
        '  listen: "127.0.0.1:0"',
        '  token_env: ATTACH_TOKENS',
        '  allowed_hosts: [from-recipe.example]',
        'peers:',
        '  register: {hub_url: "http://127.0.0.1:9", name: self, endpoint: "http://advertised.example:7777", token_env: HUB}',
        '',
      ].join('\n'),
    );
    const p = start(['serve', '-c', recipe, '-m', ws.model, '--session-db', ws.db, '--allowed-host', 'from-flag.example:443'], ws.dir, {
      ATTACH_TOKENS: TOKENS,
      HUB: 'hub-token',
    });
    const url = new URL(await eventually(() => /attach API on (http:\/\/\S+)/.exec(p.out())?.[1], 60_000));
    const { request } = await import('node:http');
    const get = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port: url.port, path: '/whoami', headers: { host, authorization: `Bearer ${ALICE}` } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
    expect(await get(`127.0.0.1:${url.port}`)).toBe(200);
    expect(await get('from-recipe.example')).toBe(200);
    expect(await get('from-flag.example:443')).toBe(200);
    expect(await get('advertised.example:7777')).toBe(200);
    expect(await get('from-flag.example:80')).toBe(403);
    expect(await get('advertised.example:7778')).toBe(403);
    expect(await get(`rebind.evil.example:${url.port}`)).toBe(403);
  }, 120_000);
});
