import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeServers } from '../../src/mcp/claude-mcp-json.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';
import { CLAUDE_MCP_JSON_CASES } from './claude-mcp-json.cases.ts';
import { httpServer, testServer } from './helpers.ts';

describe('.mcp.json, as Claude Code writes it: what core-agent declares from it', () => {
  it.each(CLAUDE_MCP_JSON_CASES)('$name', async (c) => {
    const text = typeof c.json === 'string' ? c.json : JSON.stringify(c.json);
    const read = claudeServers(text, '/ws/.mcp.json', c.env ?? {});
    if (c.error) {
      await expect(read).rejects.toThrow(c.error);
      return;
    }
    const got = await read;
    expect(got.servers).toEqual(c.servers);
    expect(got.notices).toHaveLength(c.notices?.length ?? got.notices.length);
    for (const [i, n] of (c.notices ?? []).entries()) expect(got.notices[i]).toMatch(n);
  });
});

/** A workspace whose .mcp.json (and maybe .agents/mcp.json) declares real servers. */
async function workspace(claude: object, ours?: object): Promise<string> {
  const ws = await tempDir();
  await writeFile(path.join(ws, '.mcp.json'), JSON.stringify(claude));
  if (ours) {
    await (await import('node:fs/promises')).mkdir(path.join(ws, '.agents'));
    await writeFile(path.join(ws, '.agents/mcp.json'), JSON.stringify(ours));
  }
  return ws;
}

const stdio = (env: Record<string, string> = {}) => ({ command: process.execPath, args: [testServer], env });
const call = (ws: string, tool: string, args: object, env: NodeJS.ProcessEnv = {}, trust = true) =>
  runCli(['tools', 'call', tool, JSON.stringify(args), '--yolo', ...(trust ? ['--trust-workspace'] : [])], ws, env);

describe('.mcp.json through the built CLI, under the trust rule of .agents/mcp.json', { timeout: 60_000 }, () => {
  it('trusted: a stdio server starts, its env expanded at start (${VAR:-default})', async () => {
    const ws = await workspace({ mcpServers: { test: stdio({ WHO: '${WHO:-nobody}' }) } });
    const unset = await call(ws, 'mcp.test.env', { name: 'WHO' });
    expect(unset.code, unset.stderr).toBe(0);
    expect(unset.stdout).toContain('nobody');
    const set = await call(ws, 'mcp.test.env', { name: 'WHO' }, { WHO: 'alice' });
    expect(set.stdout).toContain('alice');
  });

  it('untrusted: not started, and the warning names both files', async () => {
    const ws = await workspace({ mcpServers: { test: stdio() } });
    const r = await call(ws, 'mcp.test.env', { name: 'WHO' }, {}, false);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/unknown tool/);
    expect(r.stderr).toMatch(/not started: pass --trust-workspace/);
    expect(r.stderr).toContain('.mcp.json');
  });

  it('an http server with a header from the environment', async () => {
    const { url } = await httpServer({ TEST_MCP_TOKEN: 'tok-123' });
    const ws = await workspace({ mcpServers: { remote: { type: 'http', url, headers: { Authorization: 'Bearer ${TOKEN}' } } } });
    const ok = await call(ws, 'mcp.remote.env', { name: 'HOME' }, { TOKEN: 'tok-123' });
    expect(ok.code, ok.stderr).toBe(0);
    const refused = await call(ws, 'mcp.remote.env', { name: 'HOME' }, { TOKEN: 'wrong' });
    expect(refused.code).toBe(1);
  });

  it('an SSE server is said on stderr and the rest start', async () => {
    const ws = await workspace({ mcpServers: { old: { type: 'sse', url: 'https://example.com/sse' }, test: stdio() } });
    const r = await call(ws, 'mcp.test.env', { name: 'X' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/mcpServers\.old is not started: it uses the SSE transport/);
  });

  it('.agents/mcp.json wins over .mcp.json for the same server name', async () => {
    const ws = await workspace(
      { mcpServers: { test: stdio({ WHO: 'from .mcp.json' }) } },
      { servers: { test: stdio({ WHO: 'from .agents' }) } },
    );
    const r = await call(ws, 'mcp.test.env', { name: 'WHO' });
    expect(r.stdout).toContain('from .agents');
  });
});
