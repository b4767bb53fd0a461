import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { bundle, runCli } from '../helpers/cli.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';

const clients: Client[] = [];
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
  for (const s of stops.splice(0)) await s();
});

/** Stops a server and waits for it to exit: until then it may still write under its HOME (its code cache, at exit). */
const stopping = (child: ChildProcess) => () =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

async function workspace(): Promise<string> {
  const ws = await tempDir();
  await writeTree(ws, {
    'notes.txt': 'hello from the workspace\n',
    'secret/key.pem': 'PRIVATE\n',
    'recipe.yaml': 'permissions:\n  allow: ["tool.write_file:out/**"]\n  deny: ["tool.read_file:secret/**"]\n',
  });
  return ws;
}

async function stdioClient(ws: string, extra: string[] = []): Promise<Client> {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bundle, 'mcp', 'serve', '-w', ws, '-c', `${ws}/recipe.yaml`, ...extra],
      cwd: ws,
    }),
  );
  clients.push(client);
  return client;
}

const text = (r: object) => (r as { content: Array<{ text: string }> }).content[0]!.text;

describe('core-agent mcp serve', () => {
  it('stdio: lists the catalog with annotations, runs calls through the gate', async () => {
    const ws = await workspace();
    const client = await stdioClient(ws);
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.read_file!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.delete_file!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.read_file!.inputSchema).toMatchObject({ type: 'object', properties: { path: { type: 'string' } } });
    expect(byName.retrieve_raw).toBeUndefined(); // no session store here, so no digest layer

    const read = await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } });
    expect(read.isError).toBeFalsy();
    expect(read.structuredContent).toMatchObject({ content: 'hello from the workspace\n' });

    // Allowed by the recipe's rule, and done.
    const write = await client.callTool({ name: 'write_file', arguments: { path: 'out/a.txt', content: 'x' } });
    expect(write.isError).toBeFalsy();

    // What the gate refuses stays refused: a deny rule, a write nobody approved, a path outside the workspace.
    const denied = await client.callTool({ name: 'read_file', arguments: { path: 'secret/key.pem' } });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toContain('denied by permissions.deny rule "tool.read_file:secret/**"');
    const unapproved = await client.callTool({ name: 'write_file', arguments: { path: 'elsewhere.txt', content: 'x' } });
    expect(unapproved.isError).toBe(true);
    expect(text(unapproved)).toMatch(/needs approval.*no terminal to ask on/);
    const outside = await client.callTool({ name: 'read_file', arguments: { path: '/etc/passwd' } });
    expect(outside.isError).toBe(true);
    expect(text(outside)).toMatch(/path_scope|outside/);
    const bad = await client.callTool({ name: 'read_file', arguments: { pth: 'x' } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/path/);
  });

  it('Streamable HTTP on loopback, with a bearer token', async () => {
    const ws = await workspace();
    const child = spawn(process.execPath, [bundle, 'mcp', 'serve', '--http', '127.0.0.1:0', '--token-env', 'SERVE_TOKEN', '-w', ws], {
      cwd: ws,
      env: { PATH: process.env.PATH, HOME: ws, SERVE_TOKEN: 'tok-123' },
    });
    stops.push(stopping(child));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer tok-123' } } }),
    );
    clients.push(client);
    expect((await client.listTools()).tools.some((t) => t.name === 'grep')).toBe(true);
    const r = await client.callTool({ name: 'stat', arguments: { path: 'notes.txt' } });
    expect(r.structuredContent).toMatchObject({ exists: true, type: 'file' });

    const anonymous = new Client({ name: 'anon', version: '1.0.0' });
    await expect(anonymous.connect(new StreamableHTTPClientTransport(new URL(url)))).rejects.toThrow(/unauthorized|401/i);
  });

  it('without a token, refuses requests for any Host but its own loopback names (DNS rebinding)', async () => {
    const ws = await workspace();
    const child = spawn(
      process.execPath,
      [bundle, 'mcp', 'serve', '--http', '127.0.0.1:0', '--allowed-host', 'mcp.example.test', '-w', ws],
      {
        cwd: ws,
        env: { PATH: process.env.PATH, HOME: ws },
      },
    );
    stops.push(stopping(child));
    const url = new URL(
      await new Promise<string>((resolve) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /on (http:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
      }),
    );
    const post = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: url.port,
            path: '/mcp',
            method: 'POST',
            headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
      });
    expect(await post(`evil.example:${url.port}`)).toBe(403);
    expect(await post(`127.0.0.1:${url.port}`)).toBe(200);
    // --allowed-host: a name the operator gives (any port, as given without one).
    expect(await post('mcp.example.test')).toBe(200);
    expect(await post('other.example.test')).toBe(403);
  });

  it('refuses to serve HTTP beyond loopback without a token, and bad --http values', async () => {
    const ws = await workspace();
    const open = await runCli(['mcp', 'serve', '--http', '0.0.0.0:0', '-w', ws], ws);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('needs --token-env');
    const bad = await runCli(['mcp', 'serve', '--http', 'localhost', '-w', ws], ws);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('expected HOST:PORT');
    const unset = await runCli(['mcp', 'serve', '--http', '127.0.0.1:0', '--token-env', 'NOPE', '-w', ws], ws);
    expect(unset.stderr).toContain('NOPE is not set');
    const stdio = await runCli(['mcp', 'serve', '--allowed-host', 'a.example', '-w', ws], ws);
    expect([stdio.code, stdio.stderr]).toEqual([2, expect.stringContaining('--allowed-host is for --http')]);
    const anyHost = await runCli(['mcp', 'serve', '--http', '127.0.0.1:0', '--allowed-host', '*', '-w', ws], ws);
    expect([anyHost.code, anyHost.stderr]).toEqual([2, expect.stringContaining('--allowed-host "*" needs a bearer token')]);
    const notAHost = await runCli(['mcp', 'serve', '--http', '127.0.0.1:0', '--allowed-host', 'a.example/mcp', '-w', ws], ws);
    expect([notAHost.code, notAHost.stderr]).toEqual([2, expect.stringContaining('"a.example/mcp" is not a host')]);
  });
});
