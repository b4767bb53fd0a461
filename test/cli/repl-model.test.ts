import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.ts';
import { bundle, runCli } from '../helpers/cli.ts';
import { fakeProvider, type FakeServer } from '../helpers/fake-providers.ts';
import { tempDir } from '../helpers/workspace.ts';
import { MODEL_REFUSALS } from './repl-model.cases.ts';

const servers: FakeServer[] = [];
afterAll(async () => Promise.all(servers.map((s) => s.close())));

/** The REPL as a process fed `input` (asynchronous: a fake provider in this process must answer it). */
function repl(cwd: string, input: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bundle, 'repl', ...args], { cwd, env: { PATH: process.env.PATH, HOME: cwd, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(input);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const script = (ws: string, name: string, texts: string[]) =>
  writeFile(path.join(ws, name), texts.map((text) => JSON.stringify({ text })).join('\n'));

describe('/model PROVIDER:MODEL in the REPL', () => {
  it('switches mid-session: the next turn is the new model, the log says so, --resume continues on it', async () => {
    const ws = await tempDir();
    await script(ws, 'a.jsonl', ['from a']);
    await script(ws, 'b.jsonl', ['from b', 'from b again', 'b resumed']);
    const r = await repl(ws, 'first\n/model\n/model replay:b.jsonl\n/model\nsecond\n/exit\n', [
      '-m',
      'replay:a.jsonl',
      '--session-db',
      'db',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /from a[\s\S]*model replay:a\.jsonl\n[\s\S]*model replay:b\.jsonl \(was replay:a\.jsonl\)[\s\S]*model replay:b\.jsonl\n[\s\S]*from b/,
    );
    const id = /session (s-[\w-]+)/.exec(r.stdout)![1]!;
    const log = EventLog.open(path.join(ws, 'db'));
    expect(log.session(id)!.model).toBe('replay:b.jsonl');
    const events = log.events(id);
    expect(events.filter((e) => e.kind === 'model_switch').map((e) => e.data)).toEqual([{ from: 'replay:a.jsonl', to: 'replay:b.jsonl' }]);
    // The conversation carried on: the second turn's request holds the first turn.
    const requests = events.filter((e) => e.kind === 'request').map((e) => Number(e.data.messages));
    expect(requests[1]).toBeGreaterThan(requests[0]!);
    log.close();
    // Resumed with no --model: the session's latest model, not the first. (A replay script resumes
    // past the responses the session recorded: two, so b answers with its third line; a has none left.)
    const resumed = await runCli(['run', '--resume', id, '--session-db', 'db', 'third'], ws);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('b resumed');
  });

  it('/stats prices each model for its own turns: the replay turn free, then claude-opus-4 at its price', async () => {
    const ws = await tempDir();
    await script(ws, 'a.jsonl', ['from a']);
    const priced = await fakeProvider('anthropic', [{ text: 'from claude' }]);
    servers.push(priced);
    const r = await repl(
      ws,
      'first\n/stats\n/model anthropic:claude-opus-4-1\nsecond\n/stats\n/exit\n',
      ['-m', 'replay:a.jsonl', '--session-db', ':memory:'],
      {
        ANTHROPIC_API_KEY: 'k',
        ANTHROPIC_BASE_URL: priced.url,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const costs = [...r.stdout.matchAll(/cost \$(\d+\.\d+)/g)].map((m) => Number(m[1]));
    expect(costs).toHaveLength(2);
    expect(costs[0]).toBe(0);
    expect(costs[1]).toBeGreaterThan(0);
    expect(r.stdout).toContain('from claude');
    // The provider was sent the conversation so far, the replay model's turn included.
    expect(JSON.stringify(priced.requests[0]!.body)).toContain('from a');
  });

  it.each(MODEL_REFUSALS)('/model $arg is refused, and the session stays on its model', async ({ arg, says, env }) => {
    const ws = await tempDir();
    await script(ws, 'a.jsonl', ['from a', 'still a']);
    const r = await repl(ws, `first\n/model ${arg}\nsecond\n/exit\n`, ['-m', 'replay:a.jsonl', '--session-db', ':memory:'], env);
    expect(r.code, r.stderr).toBe(0);
    const said = r.stdout + r.stderr;
    expect(said).toMatch(says);
    expect(said).toMatch(/still on replay:a\.jsonl/);
    expect(said.length).toBeLessThan(4000);
    expect(r.stdout).toMatch(/from a[\s\S]*still a/);
  });
});
