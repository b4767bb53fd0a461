import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bundle = path.join(root, 'dist/core-agent.mjs');

function run(args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; input?: string }) {
  const r = spawnSync(process.execPath, [bundle, ...args], {
    cwd: opts.cwd,
    input: opts.input ?? '',
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: opts.cwd, ...opts.env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const jsonLines = (s: string) =>
  s
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

async function script(dir: string, lines: object[]): Promise<string> {
  const file = path.join(dir, 'script.jsonl');
  await writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n'));
  return file;
}

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

describe('core-agent run with the replay model', () => {
  it('runs the shipped example end to end and leaves a session sessions show prints', async () => {
    const ws = await tempDir();
    spawnSync('cp', ['-R', `${path.join(root, 'examples/workspace')}/.`, ws]);
    const db = path.join(ws, 'sessions.db');
    const script = `replay:${path.join(root, 'examples/replay/fix-greeting.jsonl')}`;
    const r = run(['run', '--model', script, '--mode', 'accept-edits', '--session-db', db, 'Fix the placeholder greeting'], { cwd: ws });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/now uses the caller's name/);
    expect(r.stderr).toMatch(/✓ edit_file/);
    expect(await readFile(path.join(ws, 'src/handler.ts'), 'utf8')).toContain('`Hello, ${name}!`');
    const id = /session (s-[\w-]+)/.exec(r.stderr)![1]!;
    const list = run(['sessions', 'list', '--session-db', db], { cwd: ws });
    expect(list.stdout).toContain(id);
    const show = run(['sessions', 'show', id, '--session-db', db], { cwd: ws });
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/user: Fix the placeholder greeting/);
    expect(show.stdout).toMatch(/tool_result: edit_file ok/);
    expect(show.stdout).toMatch(/turn_end: done after 5 step/);
    const showJson = JSON.parse(run(['sessions', 'show', id, '--json', '--session-db', db], { cwd: ws }).stdout) as { events: unknown[] };
    expect(showJson.events.length).toBeGreaterThan(10);
  });

  it('--output json is a JSON Lines stream ending in the exit status', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'a.txt': 'hello\n' });
    const file = await script(ws, [{ tool_calls: [{ name: 'read_file', args: { path: 'a.txt' } }] }, { text: 'It says hello.' }]);
    const r = run(['run', '-m', `replay:${file}`, '-o', 'json', '--session-db', ':memory:', 'read a.txt'], { cwd: ws });
    expect(r.code).toBe(0);
    const events = jsonLines(r.stdout);
    expect(events.map((e) => e.type)).toEqual(['session', 'tool_start', 'tool_end', 'text', 'turn_end', 'result', 'exit']);
    expect(events.at(-1)).toMatchObject({ type: 'exit', status: 0 });
    expect(events[4]).toMatchObject({ status: 'done', text: 'It says hello.', steps: 2 });
  });

  it('refuses a headless write in ask mode and the model sees the refusal', async () => {
    const ws = await tempDir();
    const file = await script(ws, [
      { tool_calls: [{ name: 'write_file', args: { path: 'x.txt', content: 'x' } }] },
      { text: 'I was not allowed.' },
    ]);
    const r = run(['run', '-m', `replay:${file}`, '-o', 'json', '--session-db', ':memory:', 'write'], { cwd: ws });
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout).find((e) => e.type === 'tool_end')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/needs approval/),
    });
  });

  it('--allow-tool and --deny-tool only remove tools', async () => {
    const ws = await tempDir();
    const file = await script(ws, [{ tool_calls: [{ name: 'grep', args: { pattern: 'x' } }] }, { text: 'ok' }]);
    const args = [
      'run',
      '-m',
      `replay:${file}`,
      '-o',
      'json',
      '--session-db',
      ':memory:',
      '--allow-tool',
      'read_file,grep',
      '--deny-tool',
      'grep',
      'go',
    ];
    expect(jsonLines(run(args, { cwd: ws }).stdout).find((e) => e.type === 'tool_end')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/grep is not registered: it is turned off here/),
    });
    expect(run(['run', '-m', `replay:${file}`, '--allow-tool', 'gerp', 'go'], { cwd: ws }).stderr).toMatch(
      /--allow-tool: unknown tool "gerp"/,
    );
  });

  it('usage and configuration errors exit 2 with the reason', async () => {
    const ws = await tempDir();
    expect(run(['run', 'hello'], { cwd: ws })).toMatchObject({ code: 2, stderr: expect.stringMatching(/no model/) });
    expect(run(['run', '-m', 'replay:/nonexistent.jsonl', 'hello'], { cwd: ws })).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/cannot use the replay script: \/nonexistent\.jsonl: cannot read a replay script \(no such file\)/),
    });
    // A FIFO with no writer is refused, not waited on forever.
    execFileSync('mkfifo', [path.join(ws, 'script.fifo')]);
    expect(run(['run', '-m', 'replay:script.fifo', 'hello'], { cwd: ws })).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/script\.fifo: not a regular file \(a FIFO\); give a JSON Lines replay script/),
    });
    await writeFile(path.join(ws, 'bad.jsonl'), '{"text": 5}\n');
    expect(run(['run', '-m', 'replay:bad.jsonl', 'hello'], { cwd: ws }).stderr).toMatch(/bad.jsonl:1: text:/);
    expect(run(['run', '-m', 'nonsense', 'hello'], { cwd: ws }).stderr).toMatch(/model "nonsense" names no provider: write PROVIDER:MODEL/);
    expect(run(['run', '-m', 'google:gemini-2.5-flash', 'hello'], { cwd: ws })).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/set GOOGLE_API_KEY/),
    });
    expect(run(['run', '-m', 'replay:x', '--output', 'yaml', 'hello'], { cwd: ws }).code).toBe(2);
    expect(run(['run', '-m', 'replay:x'], { cwd: ws }).stderr).toMatch(/needs a PROMPT/);
  });
});

describe('sessions survive kill -9', () => {
  it('resumes an interrupted turn: the cut call is reported, the script continues', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'r.yaml': 'tools:\n  json_query: { timeout_seconds: 120 }\n' });
    const file = await script(ws, [
      { tool_calls: [{ name: 'stat', args: { path: '.' } }] },
      { tool_calls: [{ name: 'json_query', args: { expression: 'def f: f; f', data: '1' } }] },
      { text: 'The query never finished.' },
    ]);
    const db = path.join(ws, 's.db');
    const child = spawn(
      process.execPath,
      [bundle, 'run', '-m', `replay:${file}`, '-o', 'json', '-c', 'r.yaml', '--session-db', db, 'loop'],
      {
        cwd: ws,
        env: { PATH: process.env.PATH, HOME: ws },
      },
    );
    let out = '';
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('"name":"json_query"')) resolve();
      });
      child.on('close', () => resolve()); // never hang the suite if the run ends early
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.on('close', r));
    const id = String(jsonLines(out)[0]!.id);

    const log = EventLog.open(db);
    const before = log.events(id).map((e) => e.kind);
    log.close();
    expect(before).toEqual(['session_start', 'user', 'request', 'response', 'tool_result', 'request', 'response']);

    const r = run(['run', '-m', `replay:${file}`, '-o', 'json', '--session-db', db, '--resume', id], { cwd: ws });
    expect(r.code, r.stderr).toBe(0);
    expect(jsonLines(r.stdout).find((e) => e.type === 'turn_end')).toMatchObject({ status: 'done', text: 'The query never finished.' });
    const after = EventLog.open(db);
    const results = after.events(id).filter((e) => e.kind === 'tool_result');
    after.close();
    expect(results.map((e) => e.data.name)).toEqual(['stat', 'json_query']);
    expect(results[1]!.data.shown).toMatchObject({ error: expect.stringMatching(/^interrupted/) });

    // A finished session is continued with a new prompt, not replayed.
    expect(run(['run', '-m', `replay:${file}`, '--session-db', db, '--resume', id], { cwd: ws }).stderr).toMatch(/no interrupted turn/);
  });
});

describe('the watchdog in headless runs', () => {
  it('cuts a looping turn (exit 1); three cut turns halt the session until --reset-watchdog', async () => {
    const ws = await tempDir();
    const loop = Array.from({ length: 5 }, () => ({ tool_calls: [{ name: 'stat', args: { path: '.' } }] }));
    const file = await script(ws, [...loop, ...loop, ...loop, { text: 'finally something else' }]);
    const db = path.join(ws, 's.db');
    const first = run(['run', '-m', `replay:${file}`, '-o', 'json', '--session-db', db, 'look around'], { cwd: ws });
    expect(first.code).toBe(1);
    const events = jsonLines(first.stdout);
    expect(events.find((e) => e.type === 'watchdog')).toMatchObject({ action: 'cut', alert: { signal: 'repeated-tool-call' } });
    expect(events.find((e) => e.type === 'turn_end')).toMatchObject({ status: 'cut' });
    const id = String(events[0]!.id);
    const again = (extra: string[] = []) =>
      run(['run', '-m', `replay:${file}`, '--session-db', db, '--resume', id, ...extra, 'try again'], { cwd: ws });
    expect(again().code).toBe(1);
    const third = again();
    expect(third.code).toBe(1);
    const halted = again();
    expect(halted.code).toBe(1);
    expect(halted.stderr).toMatch(/watchdog halted the agent: 3 turns in a row were cut .*--reset-watchdog/);
    const reset = again(['--reset-watchdog']);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toMatch(/finally something else/);
  });

  it('--watchdog warn only reports', async () => {
    const ws = await tempDir();
    const loop = Array.from({ length: 6 }, () => ({ tool_calls: [{ name: 'stat', args: { path: '.' } }] }));
    const file = await script(ws, [...loop, { text: 'done' }]);
    const r = run(['run', '-m', `replay:${file}`, '--watchdog', 'warn', '--session-db', ':memory:', 'go'], { cwd: ws });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/! watchdog critical repeated-tool-call \(logged\)/);
  });

  it('lifecycle flags: --checkpoint operator, --ask auto headless, --autonomous', async () => {
    const ws = await tempDir();
    const file = await script(ws, [
      {
        tool_calls: [
          { name: 'ask_user', args: { question: 'ok?' } },
          { name: 'schedule_next_turn', args: { wake_in_sec: 0, next_prompt: 'second turn' } },
        ],
      },
      { text: 'first' },
      { text: 'second' },
    ]);
    const r = run(
      [
        'run',
        '-m',
        `replay:${file}`,
        '-o',
        'json',
        '--ask',
        'auto',
        '--autonomous',
        '--checkpoint',
        'operator',
        '--session-db',
        ':memory:',
        'go',
      ],
      { cwd: ws },
    );
    expect(r.code, r.stderr).toBe(0);
    const events = jsonLines(r.stdout);
    expect(events.filter((e) => e.type === 'tool_end').map((e) => [e.name, e.ok])).toEqual([
      ['ask_user', true],
      ['schedule_next_turn', true],
    ]);
    expect(events.find((e) => e.type === 'sleep')).toBeDefined();
    expect(events.find((e) => e.type === 'turn_end')).toMatchObject({ text: 'second' });
    const mark = await script(ws, [{ tool_calls: [{ name: 'mark_task_done', args: { detail: 'x' } }] }, { text: 'ok' }]);
    const withheld = run(['run', '-m', `replay:${mark}`, '-o', 'json', '--checkpoint', 'operator', '--session-db', ':memory:', 'go'], {
      cwd: ws,
    });
    expect(jsonLines(withheld.stdout).find((e) => e.type === 'tool_end')).toMatchObject({
      ok: false,
      error: expect.stringMatching(
        /mark_task_done is not registered: no session checkpoints here \(tools call, or --checkpoint=operator\)/,
      ),
    });
    expect(run(['run', '-m', `replay:${mark}`, '--watchdog', 'sometimes', 'go'], { cwd: ws }).stderr).toMatch(
      /--watchdog: unknown value "sometimes"/,
    );
  });
});
