import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { bundle } from '../helpers/cli.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';

const clients: Client[] = [];
const stops: Array<() => void> = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
  for (const s of stops.splice(0)) s();
});

async function workspace(): Promise<string> {
  const ws = await tempDir();
  await writeTree(ws, { 'notes.txt': 'hello\n' });
  return ws;
}

/** A real SDK client, collecting every notifications/message the server sends. */
function loggingClient(): { client: Client; logs: LoggingMessageNotification['params'][] } {
  const client = new Client({ name: 'log-test', version: '1.0.0' });
  const logs: LoggingMessageNotification['params'][] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
  clients.push(client);
  return { client, logs };
}

const events = (logs: LoggingMessageNotification['params'][]) =>
  logs.map((l) => [l.level, (l.data as { event: string; tool: string }).event, (l.data as { tool: string }).tool]);

/** Calls made at each level, and what reaches the client: the same whether stdio or HTTP. */
async function exercise(client: Client, logs: LoggingMessageNotification['params'][]) {
  // No level set yet: failures only.
  await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } });
  await client.callTool({ name: 'read_file', arguments: { path: 'missing.txt' } });
  expect(events(logs)).toEqual([['warning', 'tool_failed', 'read_file']]);
  logs.length = 0;

  expect(await client.setLoggingLevel('info')).toEqual({});
  // The arguments' names and size, never their values: this one is denied, and its content must not be logged.
  await client.callTool({ name: 'write_file', arguments: { path: 'out.txt', content: 'SECRET-VALUE-123' } });
  await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } });
  expect(events(logs)).toEqual([
    ['info', 'tool_call', 'write_file'],
    ['warning', 'tool_failed', 'write_file'],
    ['info', 'tool_call', 'read_file'],
  ]);
  expect(logs[0]!.data).toMatchObject({ arg_names: ['path', 'content'], arg_bytes: expect.any(Number) as unknown });
  expect(JSON.stringify(logs)).not.toContain('SECRET-VALUE-123');
  expect(logs[1]!.data).toMatchObject({ kind: expect.any(String) as unknown, error: expect.stringMatching(/needs approval/) as unknown });
  logs.length = 0;

  await client.setLoggingLevel('debug');
  await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } });
  expect(events(logs)).toEqual([
    ['info', 'tool_call', 'read_file'],
    ['debug', 'tool_done', 'read_file'],
  ]);
  logs.length = 0;

  // A long failure is cut: the caller already has the whole error in the result.
  await client.callTool({ name: 'read_file', arguments: { path: `${'x'.repeat(3000)}.txt` } });
  const failed = logs.find((l) => (l.data as { event: string }).event === 'tool_failed')!;
  expect((failed.data as { error: string }).error.length).toBeLessThanOrEqual(540);
  logs.length = 0;

  await client.setLoggingLevel('error');
  await client.callTool({ name: 'read_file', arguments: { path: 'missing.txt' } });
  expect(logs).toEqual([]);
}

describe('mcp serve: logging/setLevel and notifications/message (a real SDK client)', () => {
  it('stdio', async () => {
    const ws = await workspace();
    const { client, logs } = loggingClient();
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [bundle, 'mcp', 'serve', '-w', ws], cwd: ws }));
    expect(client.getServerCapabilities()?.logging).toEqual({});
    await exercise(client, logs);
  });

  it('Streamable HTTP (token-gated), the notifications on each call’s own stream', async () => {
    const ws = await workspace();
    const child = spawn(process.execPath, [bundle, 'mcp', 'serve', '--http', '127.0.0.1:0', '--token-env', 'T', '-w', ws], {
      cwd: ws,
      env: { PATH: process.env.PATH, HOME: ws, T: 'tok-9' },
    });
    stops.push(() => child.kill('SIGTERM'));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const { client, logs } = loggingClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer tok-9' } } }));
    expect(client.getServerCapabilities()?.logging).toEqual({});
    await exercise(client, logs);
    // setLevel is behind the token too.
    const anonymous = new Client({ name: 'anon', version: '1.0.0' });
    await expect(anonymous.connect(new StreamableHTTPClientTransport(new URL(url)))).rejects.toThrow(/unauthorized|401/i);
  });
});
