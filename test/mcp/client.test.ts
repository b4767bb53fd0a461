import { describe, expect, it } from 'vitest';
import { setup } from '../helpers/workspace.ts';
import { eventually, httpServer, recipeWith, stdioServer } from './helpers.ts';

describe('MCP servers as tool sources (the test server as a real process)', () => {
  it('registers the tools under mcp.<server>.<tool>, with model-facing names and read-only classification', async () => {
    const rt = await setup({ recipe: recipeWith(stdioServer({ poll_allow: ['fail'] })) });
    const echo = rt.catalog.get('mcp.test.echo')!;
    expect(echo.modelName).toBe('test_echo');
    expect(rt.catalog.get('test_echo')).toBe(echo);
    expect(echo.readOnly).toBe(true); // readOnlyHint
    expect(rt.catalog.get('mcp.test.write_thing')!.readOnly).toBe(false);
    expect(rt.catalog.get('mcp.test.fail')!.readOnly).toBe(true); // poll_allow
    expect(echo.description).toBe('Echo the text back.');
    expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    // Names differing only in characters providers refuse stay distinct; a long one is cut to 64.
    const dotted = rt.catalog.get('mcp.test.get.pod')!.modelName;
    const slashed = rt.catalog.get('mcp.test.get/pod')!.modelName;
    expect(dotted).not.toBe(slashed);
    for (const n of [dotted, slashed]) expect(n).toMatch(/^test_get_pod_[0-9a-f]{8}$/);
    const long = rt.catalog.get(`mcp.test.long_${'x'.repeat(95)}`)!.modelName;
    expect(long.length).toBe(64);
    expect(rt.catalog.list().every((t) => /^[A-Za-z0-9_-]{1,64}$/.test(t.modelName))).toBe(true);
  });

  it('calls a tool by either name; an MCP error is a model-visible refusal', async () => {
    const rt = await setup({ recipe: recipeWith(stdioServer()), flags: { mode: 'yolo' } });
    expect(await rt.ok('test_echo', { text: 'hi' })).toEqual({ text: 'hi' });
    expect(await rt.ok('mcp.test.echo', { text: 'again' })).toEqual({ text: 'again' });
    expect(await rt.refused('test_fail', { message: 'the disk is on fire' })).toBe('test_fail: the disk is on fire');
    // The server validates its own schema; its complaint reaches the model.
    expect(await rt.refused('test_echo', { text: 42 })).toMatch(/text|string|Invalid/i);
  });

  it('bounds what crosses: a verbose error is cut at 8,000 characters, oversized arguments are never sent', async () => {
    const rt = await setup({ recipe: recipeWith(stdioServer()), flags: { mode: 'yolo' } });
    const verbose = await rt.refused('test_fail', { message: `start ${'e'.repeat(50_000)} end` });
    expect(verbose.length).toBeLessThanOrEqual(8000);
    expect(verbose).toMatch(/^test_fail: start e+ …\[\d+ of 50021 characters cut\]… e+ end$/);
    expect(await rt.refused('test_echo', { text: 'x'.repeat(5 * 1024 * 1024) })).toBe(
      'test_echo: invalid arguments: the arguments are 5242891 bytes of JSON, above the 4194304 bytes an MCP call may carry; send less (a filter, a reference instead of the data)',
    );
    expect(await rt.ok('test_echo', { text: 'still there' })).toEqual({ text: 'still there' });
  });

  it('a server that dies mid-call costs one error; it restarts and the next call works', async () => {
    const rt = await setup({ recipe: recipeWith(stdioServer({ read_only: true })) });
    const before = (await rt.ok('test_pid', {})).text;
    expect(await rt.refused('test_crash', {})).toMatch(/server "test" went away during the call.*being restarted/);
    expect(await rt.ok('test_echo', { text: 'back' })).toEqual({ text: 'back' });
    expect((await rt.ok('test_pid', {})).text).not.toBe(before);
  });

  it('a server killed between calls (kill -9) is back for the next call', async () => {
    const rt = await setup({ recipe: recipeWith(stdioServer({ read_only: true })) });
    const pid = Number((await rt.ok('test_pid', {})).text);
    process.kill(pid, 'SIGKILL');
    await eventually(async () => {
      const r = await rt.dispatcher.call('test_pid', {});
      return r.ok && Number(r.result.text) !== pid;
    });
  });

  it('a slow call times out (call_timeout_seconds); a hung server is restarted', async () => {
    const rt = await setup({ recipe: recipeWith(stdioServer({ read_only: true, call_timeout_seconds: 0.5 })) });
    expect(await rt.refused('test_slow', { ms: 3000 })).toMatch(/timed out/i);
    expect(await rt.ok('test_echo', { text: 'still up' })).toEqual({ text: 'still up' });
    const pid = Number((await rt.ok('test_pid', {})).text);
    expect(await rt.refused('test_hang', {})).toMatch(/timed out/i);
    // No answer to a ping: the process is replaced.
    await eventually(async () => {
      const r = await rt.dispatcher.call('test_pid', {});
      return r.ok && Number(r.result.text) !== pid;
    }, 20_000);
  });

  it('follows tools/list_changed', async () => {
    const rt = await setup({ recipe: recipeWith(stdioServer()), flags: { mode: 'yolo' } });
    expect(rt.catalog.has('test_late_tool')).toBe(false);
    await rt.ok('test_add_tool', { name: 'late_tool' });
    await eventually(() => rt.catalog.has('test_late_tool'));
    expect(await rt.ok('test_late_tool', {})).toEqual({ text: 'hello from late_tool' });
  });

  it('passes only declared variables to a stdio server, with ${NAME} expanded', async () => {
    const rt = await setup({
      recipe: recipeWith(stdioServer({ env: { GREETING: 'say ${GREETING}', OTHER: '${env:OTHER}' } })),
      env: { GREETING: 'hello', OTHER: 'x', SECRET_TOKEN: 'do-not-pass', PATH: process.env.PATH },
      flags: { mode: 'yolo' },
    });
    expect(await rt.ok('test_env', { name: 'GREETING' })).toEqual({ text: 'say hello' });
    expect(await rt.ok('test_env', { name: 'OTHER' })).toEqual({ text: 'x' });
    expect(await rt.ok('test_env', { name: 'SECRET_TOKEN' })).toEqual({ text: '(unset)' });
  });

  it('a server that cannot start leaves the run going, and says why', async () => {
    const rt = await setup({
      recipe: recipeWith(
        JSON.stringify({
          missing: { command: '/nonexistent/mcp-server' },
          unset: { command: process.execPath, env: { TOKEN: '${NOT_SET_ANYWHERE}' } },
          ...JSON.parse(stdioServer()),
        }),
      ),
    });
    expect(rt.catalog.has('read_file')).toBe(true);
    expect(rt.catalog.has('test_echo')).toBe(true);
    const status = Object.fromEntries(rt.mcp!.status().map((s) => [s.server, s.status]));
    expect(status.test).toBe('up');
    expect(status.missing).toMatch(/^down: .*ENOENT/);
    expect(status.unset).toMatch(/^down: env.TOKEN: \$\{NOT_SET_ANYWHERE\} is not set/);
  });

  it('gates MCP tools under mcp.<server>.<tool>: headless approval, allow and deny rules', async () => {
    const ask = await setup({ recipe: recipeWith(stdioServer()) });
    const refusal = await ask.refused('test_write_thing', { value: 'v' });
    expect(refusal).toContain('add "mcp.test.write_thing" to permissions.allow');
    expect(await ask.ok('test_echo', { text: 'read-only runs' })).toEqual({ text: 'read-only runs' });

    const allowed = await setup({ recipe: recipeWith(stdioServer(), 'permissions:\n  allow: ["mcp.test.write_*"]\n') });
    expect(await allowed.ok('test_write_thing', { value: 'v' })).toEqual({ text: 'wrote v' });

    const denied = await setup({ recipe: recipeWith(stdioServer(), 'permissions:\n  deny: ["mcp.test"]\n'), flags: { mode: 'yolo' } });
    expect(await denied.refused('test_echo', { text: 'x' })).toContain('denied by permissions.deny rule "mcp.test"');
  });

  it('plan_mode required holds back every MCP tool, read-only ones too, until a plan is recorded', async () => {
    const rt = await setup({
      recipe: recipeWith(stdioServer(), 'permissions:\n  plan_mode: required\n'),
      tree: { 'notes.txt': 'before the plan\n' },
    });
    expect(await rt.refused('test_echo', { text: 'x' })).toContain('requires record_plan');
    // A local read is no MCP tool: it runs before the plan.
    expect((await rt.ok('read_file', { path: 'notes.txt' })).content).toContain('before the plan');
    const plan = await rt.ok('record_plan', { plan: '1. look at the pods' });
    // Named as the model calls it, not by its catalog name (mcp.test.echo).
    expect(String(plan.message)).toMatch(/Now unblocked for this session: .*\btest_echo\b/);
    expect(String(plan.message)).not.toContain('mcp.test.echo');
    expect(await rt.ok('test_echo', { text: 'now' })).toEqual({ text: 'now' });
  });

  it('filters tools: the server’s allow/deny lists and --allow-tool / --deny-tool', async () => {
    const lists = await setup({ recipe: recipeWith(stdioServer({ tools: { allow: ['echo', 'get*', 'slow'], deny: ['get/pod'] } })) });
    const mcpNames = () => lists.catalog.names().filter((n) => n.startsWith('mcp.'));
    expect(mcpNames()).toEqual(['mcp.test.echo', 'mcp.test.slow', 'mcp.test.get.pod']);

    const flags = await setup({
      recipe: recipeWith(stdioServer()),
      flags: { allowTools: ['read_file', 'mcp.test.echo', 'mcp.test.pid'], denyTools: ['mcp.test.pid'] },
    });
    expect(flags.catalog.names()).toEqual(['read_file', 'mcp.test.echo']);

    // The rule grammar: a * anywhere.
    const glob = await setup({ recipe: recipeWith(stdioServer()), flags: { denyTools: ['mcp.test.get*', 'mcp.*.long_*'] } });
    const left = glob.catalog.names().filter((n) => n.startsWith('mcp.'));
    expect(left).toContain('mcp.test.echo');
    expect(left.filter((n) => n.startsWith('mcp.test.get') || n.startsWith('mcp.test.long_'))).toEqual([]);
  });

  it('reads .agents/mcp.json from a trusted workspace; the recipe wins on a name both declare', async () => {
    const rt = await setup({
      flags: { trustWorkspace: true },
      tree: {
        '.agents/mcp.json': JSON.stringify({
          version: 1,
          servers: { ...JSON.parse(stdioServer()), ...JSON.parse(stdioServer({}, 'other')) },
        }),
      },
      recipe: recipeWith(stdioServer({ tools: { allow: ['echo'] } })),
    });
    expect(rt.catalog.names().filter((n) => n.startsWith('mcp.test.'))).toEqual(['mcp.test.echo']);
    expect(rt.catalog.has('mcp.other.pid')).toBe(true);
  });

  it('Streamable HTTP: bearer token from the environment, ${NAME} in headers, list_changed', async () => {
    const { url } = await httpServer({ TEST_MCP_TOKEN: 'sekrit' });
    const rt = await setup({
      recipe: recipeWith(JSON.stringify({ web: { url, bearer_token_env: 'MCP_TOKEN', headers: { 'X-Trace': '${TRACE}' } } })),
      env: { MCP_TOKEN: 'sekrit', TRACE: 't-1' },
      flags: { mode: 'yolo' },
    });
    expect(await rt.ok('web_echo', { text: 'over http' })).toEqual({ text: 'over http' });
    await rt.ok('web_add_tool', { name: 'via_http' });
    await eventually(() => rt.catalog.has('web_via_http'));

    const wrong = await setup({
      recipe: recipeWith(JSON.stringify({ web: { url, bearer_token_env: 'MCP_TOKEN' } })),
      env: { MCP_TOKEN: 'nope' },
    });
    expect(wrong.catalog.has('web_echo')).toBe(false);
    expect(wrong.mcp!.status()[0]!.status).toMatch(/^down: .*unauthorized/);
  });

  it('does not start what an untrusted workspace declares', async () => {
    const rt = await setup({
      tree: { '.agents/mcp.json': JSON.stringify({ servers: JSON.parse(stdioServer({}, 'repo')) }) },
    });
    expect(rt.mcp).toBeUndefined();
    expect(rt.catalog.names().some((n) => n.startsWith('mcp.'))).toBe(false);
  });
});
