import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chooseOnLines } from '../../src/runtime/choices.ts';
import { UnattendedAsker } from '../../src/runtime/askers.ts';
import { EventLog } from '../../src/store/event-log.ts';
import type { Asker } from '../../src/tools/framework/services.ts';
import { setupIn, tempDir } from '../helpers/workspace.ts';

// Cagent's tool: its catalog.
const setup = setupIn('cagent');
import { ARG_CASES, REPLY_CASES, THREE } from './request-user-input.cases.ts';

const bundle = fileURLToPath(new URL('../../dist/core-agent.mjs', import.meta.url));

/** A fake terminal: the prompts it was shown, and the lines it types (null once they run out). */
function terminal(lines: string[]) {
  const shown: string[] = [];
  const queue = [...lines];
  return { shown, read: async (prompt: string) => (shown.push(prompt), queue.length > 0 ? queue.shift()! : null) };
}

const picksFirst: Asker = {
  ask: async () => ({ answer: 'x' }),
  choose: async (qs) => ({ answers: qs.map((q) => ({ id: q.id, choice: q.options[0]!.label })) }),
};

async function replayScript(dir: string, questions: unknown[]): Promise<void> {
  const lines = [{ tool_calls: [{ name: 'request_user_input', args: { questions } }] }, { text: 'I need to know the port.' }];
  await writeFile(path.join(dir, 's.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n'));
}

const QUESTIONS = [
  {
    id: 'port',
    header: 'Port',
    question: 'Which port should the server listen on?',
    options: [
      { label: '8080', description: 'the default' },
      { label: '443', description: 'behind TLS' },
    ],
  },
  {
    id: 'db',
    header: 'Database',
    question: 'Keep the existing database?',
    options: [
      { label: 'Keep', description: 'migrate in place' },
      { label: 'Drop', description: 'start empty' },
    ],
  },
];

/** The built CLI, with a hard bound: a hang fails the test instead of stalling the suite. */
function cli(args: string[], cwd: string, input = ''): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bundle, ...args], { cwd, env: { PATH: process.env.PATH, HOME: cwd } });
    let stdout = '';
    let stderr = '';
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(input);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

describe('request_user_input: the arguments', () => {
  it.each(ARG_CASES)('%s', async (_what, args, refused) => {
    const rt = await setup({ services: { asker: picksFirst } });
    if (refused === null) {
      const r = await rt.ok('request_user_input', args);
      const questions = (args as { questions: { id: string; options: { label: string }[] }[] }).questions;
      expect(r).toEqual({ answers: questions.map((q) => ({ id: q.id, choice: q.options[0]!.label })) });
    } else {
      expect(await rt.refused('request_user_input', args)).toMatch(refused);
    }
  });
});

describe('request_user_input on a line terminal (a fake one: the replies as data)', () => {
  it.each(REPLY_CASES)('%s', async (_what, questions, lines, expected) => {
    const reply = await chooseOnLines(questions, terminal(lines).read);
    expect(reply).toEqual('unavailable' in (expected as object) ? expected : { answers: expected });
  });

  it('shows each question as a numbered list, the options then "None of the above"', async () => {
    const t = terminal(['9', '4', 'mine']);
    await chooseOnLines(THREE, t.read);
    expect(t.shown[0]).toBe(
      '? [PORT] Which port?\n  1) a — pick a\n  2) b — pick b\n  3) c — pick c\n  4) None of the above — type your own answer\nChoose 1-4: ',
    );
    expect(t.shown[1]).toBe('9 is not one of 1-4; choose again: ');
    expect(t.shown[2]).toBe('Your answer: ');
  });
});

describe('request_user_input with nobody to answer', () => {
  it.each([
    ['no asker (--ask off)', undefined, /--ask is off/],
    ['an unattended asker', new UnattendedAsker(), /running unattended/],
    ['an asker with no choice list', { ask: async () => ({ answer: 'x' }) }, /cannot show a choice list/],
  ] as const)('%s: a model-visible failure, and the questions recorded for the run', async (_what, asker, reason) => {
    const rt = await setup({ services: { asker } });
    expect(rt.catalog.has('request_user_input')).toBe(true);
    const error = await rt.refused('request_user_input', { questions: QUESTIONS });
    expect(error).toMatch(reason);
    expect(error).toMatch(/the run will end as failed, naming these questions \(port, db\)/);
    expect(rt.session.unansweredQuestions).toEqual([
      { id: 'port', header: 'Port', question: 'Which port should the server listen on?' },
      { id: 'db', header: 'Database', question: 'Keep the existing database?' },
    ]);
  });

  it.each([
    ['--ask off (run’s default)', []],
    ['--ask auto, no terminal', ['--ask', 'auto']],
    ['--ask stdin, stdin closed', ['--ask', 'stdin']],
  ])('run %s: exit 1 naming the questions, promptly', async (_what, extra) => {
    const ws = await tempDir();
    await replayScript(ws, QUESTIONS);
    const r = await cli(
      ['run', '--dialect', 'cagent', '-m', 'replay:s.jsonl', '--session-db', ':memory:', ...extra, 'set up the server'],
      ws,
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /core-agent: the model asked questions nobody answered here .*\[port\] Port: Which port should the server listen on\?; \[db\] Database: Keep the existing database\?/,
    );
    // The model's answer is still printed: the failure is about the run, not the text.
    expect(r.stdout).toMatch(/I need to know the port/);
    // Generous: a hang would be stopped at 30 s.
    expect(r.ms).toBeLessThan(25_000);
  });

  it('run -o json: an unanswered_questions line, then exit status 1', async () => {
    const ws = await tempDir();
    await replayScript(ws, QUESTIONS.slice(0, 1));
    const r = await cli(['run', '--dialect', 'cagent', '-m', 'replay:s.jsonl', '-o', 'json', '--session-db', ':memory:', 'go'], ws);
    expect(r.code, r.stderr).toBe(1);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.find((e) => e.type === 'tool_end')).toMatchObject({ name: 'request_user_input', ok: false });
    expect(events.find((e) => e.type === 'unanswered_questions')).toMatchObject({
      message: expect.stringMatching(/asked a question nobody answered/),
      questions: [{ id: 'port', header: 'Port', question: 'Which port should the server listen on?' }],
    });
    // The stream ends with the failure said once, the summary and the status (docs/json-stream.md).
    expect(events.slice(-3)).toMatchObject([
      { type: 'error', exit: 1 },
      { type: 'result', is_error: true },
      { type: 'exit', status: 1 },
    ]);
  });

  it('a run that never asks still exits 0 (the failure is only for unanswered questions)', async () => {
    const ws = await tempDir();
    await writeFile(path.join(ws, 's.jsonl'), JSON.stringify({ text: 'fine' }));
    const r = spawnSync(
      process.execPath,
      [bundle, 'run', '--dialect', 'cagent', '-m', 'replay:s.jsonl', '--session-db', ':memory:', 'go'],
      {
        cwd: ws,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: ws },
        timeout: 30_000,
      },
    );
    expect(r.status, r.stderr).toBe(0);
  });
});

describe('request_user_input with --ask stdin (run, answers piped in)', () => {
  it('reads every answer, even when the lines arrive before the questions', async () => {
    const ws = await tempDir();
    await replayScript(ws, QUESTIONS);
    const r = await cli(
      ['run', '--dialect', 'cagent', '-m', 'replay:s.jsonl', '--ask', 'stdin', '--session-db', 'db', 'go'],
      ws,
      '1\nkeep only users\n',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('? [Database] Keep the existing database?');
    const id = /session (s-[\w-]+)/.exec(r.stderr)![1]!;
    const log = EventLog.open(path.join(ws, 'db'));
    const result = log.events(id).find((e) => e.kind === 'tool_result');
    log.close();
    expect(JSON.stringify(result?.data)).toContain(
      JSON.stringify({
        answers: [
          { id: 'port', choice: '8080' },
          { id: 'db', choice: null, note: 'keep only users' },
        ],
      }),
    );
  });
});

const hasTmux = spawnSync('tmux', ['-V']).status === 0;

describe.skipIf(!hasTmux)('request_user_input in the REPL on a real terminal (tmux)', () => {
  it('the numbered list on the terminal; the choice and the note reach the model', async () => {
    const ws = await tempDir();
    await replayScript(ws, QUESTIONS);
    // A private tmux server (its own socket), so nothing else running tmux is touched.
    const socket = `core-agent-test-${process.pid}`;
    const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
    const screen = () => tmux('capture-pane', '-p', '-t', 't', '-S', '-200');
    const until = async (text: string) => {
      const deadline = Date.now() + 20_000;
      while (!screen().includes(text)) {
        if (Date.now() > deadline) throw new Error(`the terminal never showed ${JSON.stringify(text)}:\n${screen()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const command = [process.execPath, bundle, 'repl', '--dialect', 'cagent', '-m', 'replay:s.jsonl', '--session-db', 'db']
      .map((a) => `'${a}'`)
      .join(' ');
    tmux('new-session', '-d', '-s', 't', '-x', '160', '-y', '50', '-c', ws, `env HOME='${ws}' ${command}; echo "repl exited $?"; sleep 30`);
    try {
      await until('\n›');
      tmux('send-keys', '-t', 't', 'set up the server', 'Enter');
      await until('Choose 1-3:'); // capture-pane drops trailing spaces
      expect(screen()).toContain('  2) 443 — behind TLS');
      tmux('send-keys', '-t', 't', '2', 'Enter');
      await until('? [Database] Keep the existing database?');
      tmux('send-keys', '-t', 't', '3', 'Enter');
      await until('Your answer:');
      tmux('send-keys', '-t', 't', 'keep the users table only', 'Enter');
      await until('I need to know the port.');
      tmux('send-keys', '-t', 't', '/exit', 'Enter');
      await until('repl exited 0');
    } finally {
      tmux('kill-server');
    }
    const log = EventLog.open(path.join(ws, 'db'));
    const [session] = log.sessions();
    const events = session ? log.events(session.id) : [];
    log.close();
    const result = events.find((e) => e.kind === 'tool_result');
    expect(JSON.stringify(result?.data)).toContain(
      JSON.stringify({
        answers: [
          { id: 'port', choice: '443' },
          { id: 'db', choice: null, note: 'keep the users table only' },
        ],
      }),
    );
  });
});

describe('request_user_input in the REPL (piped input: the same line reader a terminal feeds)', () => {
  it('asks each question as a numbered list; the choice and the note reach the model', async () => {
    const ws = await tempDir();
    await replayScript(ws, QUESTIONS);
    const r = await cli(
      ['repl', '--dialect', 'cagent', '-m', 'replay:s.jsonl', '--session-db', 'db'],
      ws,
      'set up the server\n2\n3\nkeep the users table only\n',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      '? [Port] Which port should the server listen on?\n  1) 8080 — the default\n  2) 443 — behind TLS\n  3) None of the above',
    );
    expect(r.stdout).toContain('? [Database] Keep the existing database?');
    expect(r.stdout).toContain('Your answer: ');
    expect(r.stderr).toMatch(/✓ request_user_input/);
    const id = /session (s-[\w-]+)/.exec(r.stdout)![1]!;
    const log = EventLog.open(path.join(ws, 'db'));
    const result = log.events(id).find((e) => e.kind === 'tool_result');
    log.close();
    expect(JSON.stringify(result?.data)).toContain(
      JSON.stringify({
        answers: [
          { id: 'port', choice: '443' },
          { id: 'db', choice: null, note: 'keep the users table only' },
        ],
      }),
    );
  });
});
