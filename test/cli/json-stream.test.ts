import { spawn, spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INLINE_LIMIT_CHARS, JSON_EVENT, JSON_STREAM_SCHEMA_VERSION, PREVIEW_CHARS, type JsonEvent } from '../../src/cli/json-events.ts';
import { bundle, runCli } from '../helpers/cli.ts';
import { fakeProvider, type FakeServer } from '../helpers/fake-providers.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';

/**
 * `run -o json` against its schema (src/cli/json-events.ts, docs/json-stream.md):
 * every line of every run here must parse as a JSON_EVENT, in time order, the
 * session event first with the schema version, result and exit last.
 */
function events(stdout: string): JsonEvent[] {
  const lines = stdout.trim().split('\n');
  const parsed = lines.map((l, i) => {
    const r = JSON_EVENT.safeParse(JSON.parse(l));
    if (!r.success) throw new Error(`line ${i + 1} does not match the schema: ${r.error.message}\n${l.slice(0, 500)}`);
    return r.data;
  });
  const times = parsed.map((e) => Date.parse(e.ts));
  expect(times).toEqual([...times].sort((a, b) => a - b));
  return parsed;
}

const of = <T extends JsonEvent['type']>(es: JsonEvent[], type: T) =>
  es.filter((e): e is Extract<JsonEvent, { type: T }> => e.type === type);

function run(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [bundle, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: cwd } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function script(dir: string, lines: object[]): Promise<string> {
  const file = path.join(dir, 'script.jsonl');
  await writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n'));
  return `replay:${file}`;
}

const servers: FakeServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

describe('run -o json: every event of a replayed run matches the schema', () => {
  it('tool calls: args as objects, the shown result, truncated, digest, elided, refused, plan', async () => {
    const ws = await tempDir();
    const tree: Record<string, string> = {
      'many.txt': Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n'),
      'big.txt': Array.from({ length: 3000 }, () => 'x'.repeat(200)).join('\n'),
      // Caps cut many.txt at 5 lines; raised for big.txt so the event, not the caps, bounds it.
      // update_plan (Cagent's) beside write_file (core-agent's): both, on purpose.
      'small.yaml': 'tool_output:\n  per_tool:\n    read_file: { max_lines: 5 }\ntools: { enable: [update_plan], allow_overlap: true }\n',
      'big.yaml': 'tool_output:\n  max_bytes: 2000000\n  max_lines: 100000\n',
    };
    for (let i = 0; i < 200; i++) tree[`d/g${i}.txt`] = `needle ${String(i).padStart(100, '0')}\n`;
    await writeTree(ws, tree);
    const model = await script(ws, [
      { tool_calls: [{ name: 'read_file', args: { path: 'many.txt' } }] },
      { tool_calls: [{ name: 'grep', args: { pattern: 'needle', path: 'd' } }] },
      { tool_calls: [{ name: 'write_file', args: { path: 'x.txt', content: 'x' } }] },
      { tool_calls: [{ name: 'update_plan', args: { plan: [{ step: 'look', status: 'in_progress' }] } }] },
      { text: 'Done looking.' },
    ]);
    const r = run(['run', '-m', model, '-o', 'json', '-c', 'small.yaml', '--session-db', ':memory:', 'look'], ws);
    expect(r.code, r.stderr).toBe(0);
    const es = events(r.stdout);
    expect(es[0]).toMatchObject({ type: 'session', schema_version: JSON_STREAM_SCHEMA_VERSION, resumed: false });
    expect(es.slice(-3).map((e) => e.type)).toEqual(['turn_end', 'result', 'exit']);
    expect(of(es, 'tool_start').map((e) => e.args)).toEqual([
      { path: 'many.txt' },
      { pattern: 'needle', path: 'd' },
      { path: 'x.txt', content: 'x' },
      { plan: [{ step: 'look', status: 'in_progress' }] },
    ]);
    const [read, grep, write] = of(es, 'tool_end');
    expect(read).toMatchObject({
      ok: true,
      truncated: true,
      result: { content: 'line 0\nline 1\nline 2\nline 3\nline 4\n', truncated: true },
    });
    // The digest's reference is the call_id the model passes to retrieve_raw.
    expect(grep).toMatchObject({ ok: true, digest: { raw_ref: expect.stringMatching(/^raw_\d+$/) }, result: { digest: { count: 200 } } });
    expect(grep!.result!.call_id).toBe(grep!.digest!.raw_ref);
    expect(grep).not.toHaveProperty('truncated');
    expect(write).toMatchObject({ ok: false, kind: 'denied', error: expect.stringMatching(/write_file needs approval/) });
    expect(write).not.toHaveProperty('result');
    expect(of(es, 'plan')).toMatchObject([{ plan: [{ step: 'look', status: 'in_progress' }] }]);
    expect(of(es, 'result')[0]).toMatchObject({ status: 'done', is_error: false, exit: 0, cost_usd: 0 });
    expect(of(es, 'result')[0]!.usage.input_tokens).toBeGreaterThan(0);

    // A result above the inline bound: its size and the head of its JSON, never the blob.
    const big = await script(ws, [{ tool_calls: [{ name: 'read_file', args: { path: 'big.txt' } }] }, { text: 'Big.' }]);
    const b = run(['run', '-m', big, '-o', 'json', '-c', 'big.yaml', '--session-db', ':memory:', 'read big'], ws);
    expect(b.code, b.stderr).toBe(0);
    const end = of(events(b.stdout), 'tool_end')[0]!;
    expect(end).not.toHaveProperty('result');
    expect(end.result_elided!.chars).toBeGreaterThan(INLINE_LIMIT_CHARS);
    expect(end.result_elided!.preview).toHaveLength(PREVIEW_CHARS);
    expect(end.result_elided!.preview.startsWith('{"path":"big.txt","content":"xxx')).toBe(true);
    expect(b.stdout.split('\n').every((l) => l.length < INLINE_LIMIT_CHARS)).toBe(true);
  });

  it('the step limit, then a resumed session counts only this run in result', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'a.txt': 'a\n' });
    const model = await script(ws, [
      { tool_calls: [{ name: 'stat', args: { path: 'a.txt' } }] },
      { text: 'Stopped at the limit.' },
      { text: 'Second turn.' },
    ]);
    const db = path.join(ws, 's.db');
    const first = run(['run', '-m', model, '-o', 'json', '--max-steps', '1', '--session-db', db, 'go'], ws);
    expect(first.code, first.stderr).toBe(0);
    const es = events(first.stdout);
    expect(of(es, 'step_limit')).toMatchObject([{ steps: 1 }]);
    expect(of(es, 'result')[0]).toMatchObject({ status: 'step_limit', exit: 0 });
    const id = of(es, 'session')[0]!.id;
    const again = run(['run', '-m', model, '-o', 'json', '--session-db', db, '--resume', id, 'again'], ws);
    expect(again.code, again.stderr).toBe(0);
    const second = events(again.stdout);
    expect(second[0]).toMatchObject({ type: 'session', id, resumed: true });
    const turnEnd = of(second, 'turn_end')[0]!;
    expect(of(second, 'result')[0]!.usage).toEqual({ input_tokens: turnEnd.usage.inputTokens, output_tokens: turnEnd.usage.outputTokens });
    expect(turnEnd.session_usage.inputTokens).toBeGreaterThan(turnEnd.usage.inputTokens);
  });

  it('Ctrl-C: cancelled, one error event with exit 130, result, exit', async () => {
    const ws = await tempDir();
    const model = await script(ws, [{ tool_calls: [{ name: 'bash', args: { command: 'sleep 30' } }] }, { text: 'never' }]);
    const child = spawn(process.execPath, [bundle, 'run', '-m', model, '-o', 'json', '--yolo', '--session-db', ':memory:', 'wait'], {
      cwd: ws,
      env: { PATH: process.env.PATH, HOME: ws },
    });
    let out = '';
    let sent = false;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      // Once: a second SIGINT quits at once, and one after the run let go of it would kill it.
      if (!sent && out.includes('"type":"tool_start"')) sent = child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    const es = events(out);
    expect(es.slice(-4).map((e) => e.type)).toEqual(['cancelled', 'error', 'result', 'exit']);
    expect(of(es, 'error')).toMatchObject([{ exit: 130, message: expect.stringMatching(/stopped by Ctrl-C.*--resume s-/) }]);
    expect(of(es, 'result')[0]).toMatchObject({ status: 'cancelled', is_error: true, exit: 130 });
  });
});

describe('run -o json against a provider on 127.0.0.1', () => {
  it('two failed attempts are two retry events, then the answer; no price is cost_usd null', async () => {
    const server = await fakeProvider('openai', [{ status: 503 }, { status: 429 }, { text: 'Third time lucky.' }]);
    servers.push(server);
    const ws = await tempDir();
    const r = await runCli(['run', '-m', 'openai-compatible:local-model', '-o', 'json', '--session-db', ':memory:', 'hi'], ws, {
      OPENAI_COMPATIBLE_BASE_URL: server.url,
    });
    expect(r.code, r.stderr).toBe(0);
    const es = events(r.stdout);
    expect(of(es, 'retry')).toEqual([
      expect.objectContaining({ attempt: 1, attempts: 5, delay_ms: 0, reason: expect.stringMatching(/^HTTP 503: /) }),
      expect.objectContaining({ attempt: 2, attempts: 5, delay_ms: 0, reason: expect.stringMatching(/^HTTP 429: /) }),
    ]);
    expect(server.requests).toHaveLength(3);
    expect(of(es, 'text').map((e) => e.text)).toEqual(['Third time lucky.']);
    expect(of(es, 'result')[0]).toMatchObject({ status: 'done', cost_usd: null });
  });

  it('arguments that are not a JSON object: args null, the raw text beside it (bounded)', async () => {
    const server = await fakeProvider('openai', [{ toolCalls: [{ name: 'read_file', args: '{"path": ' }] }, { text: 'Oops.' }]);
    servers.push(server);
    const ws = await tempDir();
    const r = await runCli(['run', '-m', 'openai-compatible:m', '-o', 'json', '--session-db', ':memory:', 'hi'], ws, {
      OPENAI_COMPATIBLE_BASE_URL: server.url,
    });
    expect(r.code, r.stderr).toBe(0);
    const es = events(r.stdout);
    expect(of(es, 'tool_start')).toMatchObject([{ name: 'read_file', args: null, args_raw: '{"path": ' }]);
    expect(of(es, 'tool_end')).toMatchObject([{ ok: false, kind: 'invalid_args' }]);
  });

  it('a priced model has a cost; a failure retrying cannot fix is one error event, exit 3', async () => {
    const priced = await fakeProvider('openai', [{ text: 'Priced.' }]);
    const refused = await fakeProvider('openai', [{ status: 401 }]);
    servers.push(priced, refused);
    const ws = await tempDir();
    const ok = await runCli(['run', '-m', 'openai:gpt-4.1-mini', '-o', 'json', '--session-db', ':memory:', 'hi'], ws, {
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: priced.url,
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(of(events(ok.stdout), 'result')[0]!.cost_usd).toBeGreaterThan(0);

    const bad = await runCli(['run', '-m', 'openai:gpt-4.1-mini', '-o', 'json', '--session-db', ':memory:', 'hi'], ws, {
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: refused.url,
    });
    expect(bad.code).toBe(3);
    const es = events(bad.stdout);
    expect(of(es, 'retry')).toEqual([]);
    expect(of(es, 'error')).toMatchObject([{ exit: 3, message: expect.stringMatching(/^model call failed: openai answered HTTP 401: /) }]);
    expect(es.slice(-3).map((e) => e.type)).toEqual(['error', 'result', 'exit']);
    expect(of(es, 'result')[0]).toMatchObject({ status: 'error', is_error: true, exit: 3 });
  });
});
