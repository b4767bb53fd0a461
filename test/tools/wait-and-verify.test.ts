import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup } from '../helpers/workspace.ts';
import { recipeWith, stdioServer } from '../mcp/helpers.ts';

// Fast polls for tests: the operator's floor (default 1 s) lowered in the recipe.
const FAST = 'tools:\n  wait_and_verify: { min_interval_seconds: 0.05 }\n';

describe('wait_and_verify', () => {
  it('polls until the condition holds and reports the observation trail', async () => {
    // The file appears only once the first poll has looked (at the second poll's gate), whatever the machine's load.
    let stats = 0;
    let dir = '';
    const rt = await setup({
      recipe: FAST,
      afterGate: async (tool) => {
        if (tool === 'stat' && ++stats === 2) await writeFile(path.join(dir, 'ready.txt'), 'ok');
      },
    });
    dir = rt.dir;
    const r = await rt.ok('wait_and_verify', {
      tool: 'stat',
      args_json: '{"path": "ready.txt"}',
      expect_jq: '.exists',
      interval_seconds: 0.05,
      timeout_seconds: 10,
    });
    expect(r).toMatchObject({ verified: true, outcome: 'verified', tool: 'stat', condition: 'expect_jq=.exists', interval_seconds: 0.05 });
    const trail = r.observations as Array<{ attempt: number; matched: boolean }>;
    expect(trail.length).toBeGreaterThan(1);
    expect(trail.at(-1)).toMatchObject({ matched: true, attempt: trail.length });
    expect(trail.slice(0, -1).every((o) => !o.matched)).toBe(true);
    expect(r.last_result).toMatchObject({ exists: true, type: 'file' });
  });

  it('ANDs the conditions; a poll error is recorded and the loop goes on', async () => {
    const rt = await setup({ recipe: FAST });
    setTimeout(() => void writeFile(path.join(rt.dir, 'status.txt'), 'phase: Running\n').catch(() => {}), 300);
    const r = await rt.ok('wait_and_verify', {
      tool: 'read_file',
      args: { path: 'status.txt' },
      expect_contains: 'Running',
      expect_not_contains: 'CrashLoopBackOff',
      expect_jq: '.total_lines == 1',
      interval_seconds: 0.05,
      timeout_seconds: 10,
    });
    expect(r.verified).toBe(true);
    expect(r.condition).toBe('expect_jq=.total_lines == 1 AND expect_contains="Running" AND expect_not_contains="CrashLoopBackOff"');
    expect((r.observations as Array<{ error?: string }>)[0]!.error).toMatch(/not found|no such file/i);
  });

  it('an impossible condition is a result, not an error: timeout or attempts_exhausted, with the trail', async () => {
    const rt = await setup({ recipe: FAST, tree: { 'a.txt': 'x' } });
    const timedOut = await rt.ok('wait_and_verify', {
      tool: 'stat',
      args_json: '{"path":"a.txt"}',
      expect_jq: '.size == 99',
      interval_seconds: 0.1,
      timeout_seconds: 0.5,
    });
    expect(timedOut).toMatchObject({ verified: false, outcome: 'timeout' });
    expect((timedOut.attempts as number) >= 2).toBe(true);
    const exhausted = await rt.ok('wait_and_verify', {
      tool: 'stat',
      args_json: '{"path":"a.txt"}',
      expect_contains: 'nope',
      interval_seconds: 0.05,
      max_attempts: 3,
    });
    expect(exhausted).toMatchObject({ verified: false, outcome: 'attempts_exhausted', attempts: 3 });
    expect(exhausted.observations).toHaveLength(3);
  });

  it('a cancelled wait says canceled', async () => {
    const rt = await setup({ recipe: FAST, tree: { 'a.txt': 'x' } });
    const r = await rt.dispatcher.call(
      'wait_and_verify',
      { tool: 'stat', args_json: '{"path":"a.txt"}', expect_contains: 'nope', interval_seconds: 0.05, timeout_seconds: 30 },
      AbortSignal.timeout(300),
    );
    expect(r.ok && r.result).toMatchObject({ verified: false, outcome: 'canceled' });
  });

  it('holds the operator ceilings: past one is an error, and a low ceiling lowers the default', async () => {
    const rt = await setup({
      recipe: 'tools:\n  wait_and_verify: { max_timeout_seconds: 2, max_attempts: 5, min_interval_seconds: 0.05 }\n',
      tree: { 'a.txt': 'x' },
    });
    const base = { tool: 'stat', args_json: '{"path":"a.txt"}', expect_contains: 'nope' };
    expect(await rt.refused('wait_and_verify', { ...base, timeout_seconds: 60 })).toMatch(
      /timeout_seconds 60 is above the operator's ceiling of 2/,
    );
    expect(await rt.refused('wait_and_verify', { ...base, max_attempts: 50 })).toMatch(
      /max_attempts 50 is above the operator's ceiling of 5/,
    );
    const r = await rt.ok('wait_and_verify', { ...base, interval_seconds: 0.05 });
    expect(r).toMatchObject({ verified: false, outcome: 'attempts_exhausted', attempts: 5, timeout_seconds: 2 });
    // Below the floor, the interval is raised and the result says so.
    const raised = await rt.ok('wait_and_verify', { ...base, interval_seconds: 0.001, max_attempts: 2 });
    expect(raised.interval_seconds).toBe(0.05);
  });

  it('refuses a malformed expect_jq before the first poll, and aborts on a jq runtime error', async () => {
    let polls = 0;
    const rt = await setup({ recipe: FAST, tree: { 'a.txt': 'x' }, afterGate: (t) => void (t === 'stat' && polls++) });
    expect(await rt.refused('wait_and_verify', { tool: 'stat', args_json: '{"path":"a.txt"}', expect_jq: '.exists ==' })).toMatch(
      /expect_jq is not a valid jq expression/,
    );
    expect(polls).toBe(0);
    expect(await rt.refused('wait_and_verify', { tool: 'stat', args_json: '{"path":"a.txt"}', expect_jq: '.size | test("x")' })).toMatch(
      /expect_jq failed on attempt 1/,
    );
    expect(polls).toBe(1);
  });

  it('counts the expect_jq evaluation against the budget: a runaway expression ends the wait on time as a timeout', async () => {
    let polls = 0;
    const rt = await setup({ recipe: FAST, tree: { 'a.txt': 'x' }, afterGate: (t) => void (t === 'stat' && polls++) });
    const started = performance.now();
    const r = await rt.ok('wait_and_verify', {
      tool: 'stat',
      args_json: '{"path":"a.txt"}',
      expect_jq: '[limit(1000000000; repeat(1))] | length > 0',
      timeout_seconds: 2,
    });
    const seconds = (performance.now() - started) / 1000;
    // The budget plus a margin for a loaded machine; before, the compile check alone ran it for 5 s and then failed.
    expect(seconds).toBeLessThan(4);
    expect(seconds).toBeGreaterThan(1.5);
    expect(r).toMatchObject({ verified: false, outcome: 'timeout', attempts: 1 });
    expect(polls).toBe(1); // checking the expression compiled it without running it: the one poll ran
    expect(r.last_error).toMatch(/^expect_jq was still running when the wait's budget ran out \([\d.]+ s were left\) and was stopped$/);
    expect((r.observations as Array<{ error?: string }>)[0]!.error).toBe(r.last_error);
    expect(r.last_result).toMatchObject({ exists: true });
  });

  it("an expect_jq that exhausts jq's memory ends the wait with a sentence saying so", async () => {
    const rt = await setup({ recipe: FAST, tree: { 'a.txt': 'x' } });
    const error = await rt.refused('wait_and_verify', {
      tool: 'stat',
      args_json: '{"path":"a.txt"}',
      expect_jq: '[range(0; 100000000)] | length > 0',
      timeout_seconds: 60,
    });
    expect(error).toMatch(
      /^wait_and_verify: expect_jq failed on attempt 1: the jq expression used more memory than jq is allowed \(256 MB\); narrow it/,
    );
  });

  it('polls only read-only tools: never a write, itself or ask_user; a condition is required', async () => {
    const rt = await setup({ recipe: FAST });
    expect(await rt.refused('wait_and_verify', { tool: 'write_file', args: { path: 'x', content: 'y' }, expect_contains: 'x' })).toMatch(
      /write_file changes state, so it cannot be polled/,
    );
    expect(await rt.refused('wait_and_verify', { tool: 'wait_and_verify', expect_contains: 'x' })).toMatch(
      /wait_and_verify cannot be polled/,
    );
    expect(await rt.refused('wait_and_verify', { tool: 'gerp', expect_contains: 'x' })).toMatch(
      /no tool named "gerp" to poll; pollable tools: .*stat/,
    );
    expect(await rt.refused('wait_and_verify', { tool: 'stat', args_json: '{}' })).toMatch(/give a condition/);
    expect(await rt.refused('wait_and_verify', { tool: 'stat', args_json: '[1]', expect_contains: 'x' })).toMatch(
      /args_json must be a JSON object/,
    );
  });

  it('stops at once when a poll is refused by the gate (waiting cannot fix it)', async () => {
    const rt = await setup({ recipe: `${FAST}permissions:\n  deny: ["tool.stat"]\n`, tree: { 'a.txt': 'x' } });
    expect(
      await rt.refused('wait_and_verify', { tool: 'stat', args_json: '{"path":"a.txt"}', expect_contains: 'x', timeout_seconds: 30 }),
    ).toMatch(/polling stat cannot succeed: stat: permission denied: stat is denied by permissions\.deny rule "tool\.stat"/);
  });

  it('judges an MCP {text: "<JSON>"} result by the JSON inside', async () => {
    const rt = await setup({ recipe: recipeWith(stdioServer(), FAST) });
    const text = JSON.stringify({ status: { phase: 'Running', ready: true } });
    expect(await rt.ok('wait_and_verify', { tool: 'test_echo', args: { text }, expect_jq: '.status.phase == "Running"' })).toMatchObject({
      verified: true,
    });
    expect(await rt.ok('wait_and_verify', { tool: 'test_echo', args: { text }, expect_contains: '"ready":true' })).toMatchObject({
      verified: true,
    });
  });

  it('polls MCP tools: readOnlyHint yes, a destructive one no, unless the operator vouches for it', async () => {
    const rt = await setup({ recipe: recipeWith(stdioServer(), FAST) });
    const r = await rt.ok('wait_and_verify', { tool: 'test_echo', args_json: '{"text":"Ready"}', expect_jq: '.text == "Ready"' });
    expect(r).toMatchObject({ verified: true, attempts: 1 });
    expect(await rt.refused('wait_and_verify', { tool: 'test_write_thing', args_json: '{"value":"v"}', expect_contains: 'x' })).toMatch(
      /test_write_thing changes state/,
    );
    const vouched = await setup({ recipe: recipeWith(stdioServer({ poll_allow: ['write_thing'] }), FAST), flags: { mode: 'yolo' } });
    expect(
      await vouched.ok('wait_and_verify', { tool: 'test_write_thing', args_json: '{"value":"v"}', expect_contains: 'wrote v' }),
    ).toMatchObject({
      verified: true,
    });
  });
});
