import { existsSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { bundle, runCli } from '../helpers/cli.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';
import { RECORDED_CALL_CASES, type RecordedCallCase } from './recorded-calls.cases.ts';

async function workspace(): Promise<string> {
  const ws = await tempDir();
  await writeTree(ws, {
    'notes.txt': 'hello\n',
    'secret/key.pem': 'PRIVATE\n',
    'recipe.yaml': 'permissions:\n  deny: ["tool.read_file:secret/**"]\n',
  });
  return ws;
}

/** Runs the case's calls against a fresh workspace; returns the workspace and the database. */
async function runCalls(c: RecordedCallCase): Promise<{ ws: string; db: string }> {
  const ws = await workspace();
  const db = path.join(await tempDir('core-agent-db-'), 'sessions.db');
  const dbArgs = c.db === 'flag' ? ['--session-db', db] : [];
  const env: Record<string, string> = c.db === 'env' ? { CORE_AGENT_SESSION_DB: db } : {};
  const base = ['-w', ws, '-c', path.join(ws, 'recipe.yaml'), ...dbArgs, ...(c.extra ?? [])];
  if (c.via === 'tools call') {
    for (const call of c.calls) await runCli(['tools', 'call', call.tool, JSON.stringify(call.args), ...base], ws, env);
    return { ws, db };
  }
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bundle, 'mcp', 'serve', ...base],
      cwd: ws,
      env: { PATH: process.env.PATH!, HOME: ws, ...env },
    }),
  );
  try {
    for (const call of c.calls) await client.callTool({ name: call.tool, arguments: call.args });
  } finally {
    await client.close();
  }
  return { ws, db };
}

async function json(args: string[], cwd: string): Promise<unknown> {
  const r = await runCli(args, cwd);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('calls from tools call and mcp serve, in sessions show', () => {
  it.each(RECORDED_CALL_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const { ws, db } = await runCalls(c);
    const sessions = (await json(['sessions', 'list', '--json', '--session-db', db], ws)) as Array<{
      id: string;
      title: string;
      workspace: string;
    }>;
    // tools call: one session per process; mcp serve: one for the whole connection.
    expect(sessions).toHaveLength(c.via === 'tools call' ? c.calls.length : 1);
    expect(sessions.map((s) => s.title)).toEqual(sessions.map(() => c.title));
    expect(sessions.every((s) => s.workspace === ws)).toBe(true);
    const results: Array<Record<string, unknown>> = [];
    // Newest first in the listing: the calls, in the order they ran.
    for (const s of [...sessions].reverse()) {
      const shown = (await json(['sessions', 'show', s.id, '--json', '--session-db', db], ws)) as {
        events: Array<{ kind: string; data: Record<string, unknown> }>;
      };
      expect(shown.events[0]?.kind).toBe('session_start');
      results.push(...shown.events.filter((e) => e.kind === 'tool_result').map((e) => e.data));
    }
    expect(results.map((r) => ({ name: r.name, ok: r.ok, ...(r.failure ? { failure: r.failure } : {}) }))).toEqual(c.results);
    expect(results.map((r) => r.source)).toEqual(results.map(() => (c.via === 'tools call' ? 'tools_call' : 'mcp_serve')));
  });

  it('without a session database, tools call records nothing (not even in the default one)', async () => {
    const ws = await workspace();
    const r = await runCli(['tools', 'call', 'read_file', '{"path":"notes.txt"}', '-w', ws], ws);
    expect(r.code, r.stderr).toBe(0);
    // runCli's HOME is the workspace: the default database would be under it.
    expect(existsSync(path.join(ws, '.local', 'state', 'core-agent', 'sessions.db'))).toBe(false);
  });

  it('--session-db is in the help of both commands', async () => {
    const ws = await tempDir();
    for (const args of [
      ['tools', 'call', '--help'],
      ['mcp', 'serve', '--help'],
    ]) {
      const r = await runCli(args, ws);
      expect(r.stdout).toMatch(/--session-db PATH/);
    }
  });
});
