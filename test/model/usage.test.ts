import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundle, runCli } from '../helpers/cli.ts';
import { fakeProvider, type FakeOptions, type FakeServer, type FakeTurn } from '../helpers/fake-providers.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';

/**
 * Usage from OpenAI-compatible servers, through the built CLI against a server on
 * 127.0.0.1 speaking the chat-completions stream: one that reports usage only when
 * asked with `stream_options.include_usage` (vLLM, llama.cpp's server, Ollama), one that
 * never does (counted from the text, and said to be estimated everywhere usage is shown),
 * and one that refuses `stream_options` with a 400 (asked once more without it, and not
 * sent again in the session).
 */
const servers: FakeServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

type Event = Record<string, unknown>;
const events = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Event);
const one = (es: Event[], type: string) => es.find((e) => e.type === type)!;

/** A priced model (the recipe's context.price), so that a cost is there to be estimated. */
const RECIPE = 'context:\n  price: { input: 1, output: 2 }\n';

async function session(turns: FakeTurn[], options: FakeOptions) {
  const server = await fakeProvider('openai', turns, options);
  servers.push(server);
  const ws = await tempDir();
  await writeTree(ws, { 'notes.txt': 'alpha\n', 'r.yaml': RECIPE });
  return { server, ws, env: { OPENAI_COMPATIBLE_BASE_URL: server.url } };
}

const TOOL_THEN_ANSWER: FakeTurn[] = [
  { text: 'Looking.', toolCalls: [{ name: 'read_file', args: '{"path":"notes.txt"}' }] },
  { text: 'It says alpha.' },
];
const runJson = (ws: string, env: NodeJS.ProcessEnv, db = ':memory:') =>
  runCli(['run', '-m', 'openai-compatible:local-model', '-c', 'r.yaml', '-o', 'json', '--session-db', db, 'read notes.txt'], ws, env);

describe('usage from an OpenAI-compatible server', () => {
  it('asks for usage (stream_options.include_usage) and reports what the server counted', async () => {
    const { server, ws, env } = await session([...TOOL_THEN_ANSWER], { usage: 'when-asked' });
    const r = await runJson(ws, env);
    expect(r.code, r.stderr).toBe(0);
    for (const req of server.requests) expect(req.body.stream_options).toEqual({ include_usage: true });
    const es = events(r.stdout);
    // 7 in and 3 out a call, two calls, at $1 / $2 per million.
    expect(one(es, 'turn_end').usage).toEqual({ inputTokens: 14, outputTokens: 6, costUsd: (14 * 1 + 6 * 2) / 1e6 });
    expect(one(es, 'result').usage).toEqual({ input_tokens: 14, output_tokens: 6 });
  });

  it('a server that never reports usage: counted from the text, and said to be estimated', async () => {
    const { server, ws, env } = await session([...TOOL_THEN_ANSWER], { usage: 'never' });
    const db = path.join(ws, 'sessions.db');
    const r = await runJson(ws, env, db);
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests).toHaveLength(2);
    const es = events(r.stdout);
    const usage = one(es, 'turn_end').usage as { inputTokens: number; outputTokens: number; costUsd: number; estimatedCalls: number };
    // The prompt (instructions, the tools' declarations, the conversation) at 4 characters a token: thousands, not 0.
    expect(usage.inputTokens).toBeGreaterThan(1000);
    expect(usage.outputTokens).toBeGreaterThan(0);
    expect(usage.costUsd).toBeCloseTo((usage.inputTokens * 1 + usage.outputTokens * 2) / 1e6, 12);
    expect(usage.estimatedCalls).toBe(2);
    expect(one(es, 'result').usage).toEqual({ input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, estimated_calls: 2 });

    // The text output's summary line, and sessions show, say it too.
    const text = await runCli(['run', '-m', 'openai-compatible:local-model', '-c', 'r.yaml', '--session-db', ':memory:', 'hi'], ws, env);
    expect(text.stderr).toMatch(/ \d+ in \/ \d+ out tokens \(estimated: the server reported no usage\), \$0\.\d{4}\n/);
    const shown = await runCli(['sessions', 'show', String(one(es, 'session').id), '--session-db', db], ws);
    expect(shown.stdout).toMatch(/ response: .*\[\d+ in \/ \d+ out, estimated\]/);
  });

  it("the REPL's /stats says the session's figures are estimated", async () => {
    const { ws, env } = await session([{ text: 'Hello.' }], { usage: 'never' });
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [bundle, 'repl', '-m', 'openai-compatible:local-model', '-c', 'r.yaml', '--session-db', ':memory:'],
        {
          cwd: ws,
          env: { PATH: process.env.PATH, HOME: ws, ...env },
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdin.end('hi\n/stats\n/exit\n');
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/turns 1, \d+ input \/ \d+ output tokens \(estimated: the server reported no usage\), cost \$0\.\d{4}, /m);
  });

  it('a server that refuses stream_options: asked once more without it, and not sent again in the session', async () => {
    const { server, ws, env } = await session([...TOOL_THEN_ANSWER], { rejectStreamOptions: true, usage: 'never' });
    const r = await runJson(ws, env);
    expect(r.code, r.stderr).toBe(0);
    const sent = server.requests.map((q) => q.body.stream_options !== undefined);
    // The first request with it (400), again without it, and the next step without it from the start.
    expect(sent).toEqual([true, false, false]);
    const es = events(r.stdout);
    expect(es.filter((e) => e.type === 'text').map((e) => e.text)).toEqual(['Looking.', 'It says alpha.']);
    expect(one(es, 'turn_end').usage).toMatchObject({ estimatedCalls: 2 });
  });

  it('a 400 that is not about stream_options is not retried twice, and usage is still asked for', async () => {
    const refusal = { status: 400, errorBody: { error: { message: 'model local-model does not support tools' } } };
    const { server, ws, env } = await session([refusal, refusal, refusal], { usage: 'when-asked' });
    const r = await runJson(ws, env);
    expect(r.code).toBe(3);
    expect(server.requests.map((q) => q.body.stream_options !== undefined)).toEqual([true, false]);
    expect(one(events(r.stdout), 'error').message).toMatch(
      /HTTP 400: the request was refused \("model local-model does not support tools"\)/,
    );
  });
});
