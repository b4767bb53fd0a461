import { execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitAtTokens } from '../../src/cli/prompt-input.ts';
import { EventLog } from '../../src/store/event-log.ts';
import { tempDir } from '../helpers/workspace.ts';
import { AT_CASES, REPL_LINE_CASES, STDIN_CASES, type PromptInputCase, type StdinSetup } from './prompt-input.cases.ts';
import { bundle } from './terminal-session.ts';

/** A run that hangs fails here, well before vitest's own timeout. */
const RUN_DEADLINE_MS = 30_000;

interface Ran {
  code: number | null;
  stderr: string;
  /** The user messages the model saw, in order (the session's `user` events). */
  turns: string[];
}

async function workspace(c: Pick<PromptInputCase, 'files' | 'recipe'>): Promise<string> {
  const ws = await tempDir();
  await writeFile(path.join(ws, 's.jsonl'), Array.from({ length: 5 }, () => JSON.stringify({ text: 'ok' })).join('\n'));
  for (const [name, content] of Object.entries(c.files ?? {})) {
    await mkdir(path.dirname(path.join(ws, name)), { recursive: true });
    await writeFile(path.join(ws, name), content);
  }
  if (c.recipe) await writeFile(path.join(ws, 'recipe.yaml'), c.recipe);
  return ws;
}

/**
 * The built CLI with stdin as the case gives it. A `pipe` is a real pipe (a FIFO,
 * as a shell's `|` makes: `cat FILE | core-agent …`); Node's own spawn pipes are
 * sockets, which is the `socket` case. An `open-pipe` is a named FIFO opened for
 * reading and writing, so it never ends and never sends anything.
 */
async function cli(ws: string, args: string[], stdin: StdinSetup, env: Record<string, string> = {}): Promise<Ran> {
  let fd: number | undefined;
  let argv = [bundle, ...args];
  let command = process.execPath;
  if (typeof stdin === 'object' && ('file' in stdin || 'pipe' in stdin)) {
    await writeFile(path.join(ws, 'stdin.in'), 'file' in stdin ? stdin.file : stdin.pipe);
    if ('file' in stdin) fd = openSync(path.join(ws, 'stdin.in'), 'r');
    else {
      command = 'sh';
      argv = ['-c', 'cat stdin.in | "$0" "$@"', process.execPath, ...argv];
    }
  } else if (typeof stdin === 'object' && 'trickle' in stdin) {
    // A shell's pipe whose writer pauses between parts, holding it open, then closes it.
    const parts = await Promise.all(
      stdin.trickle.map(async (part, i) => (await writeFile(path.join(ws, `stdin.${i}`), part), `cat stdin.${i}`)),
    );
    command = 'sh';
    argv = ['-c', `(${parts.join(`; sleep ${stdin.gapMs / 1000}; `)}) | "$0" "$@"`, process.execPath, ...argv];
  } else if (stdin === 'devnull') fd = openSync('/dev/null', 'r');
  else if (stdin === 'open-pipe') {
    execFileSync('mkfifo', [path.join(ws, 'fifo')]);
    fd = openSync(path.join(ws, 'fifo'), 'r+');
  }
  const child = spawn(command, argv, {
    cwd: ws,
    stdio: [fd ?? 'pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, HOME: ws, ...env },
  });
  if (fd !== undefined) closeSync(fd);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout!.resume();
  if (child.stdin) {
    child.stdin.on('error', () => {});
    if (typeof stdin === 'object' && 'socket' in stdin) child.stdin.end(stdin.socket);
  }
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the CLI did not exit within ${RUN_DEADLINE_MS} ms; stderr:\n${stderr}`));
    }, RUN_DEADLINE_MS);
    child.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  child.stdin?.destroy();
  const log = EventLog.open(path.join(ws, 'db'));
  const [session] = log.sessions();
  const turns = session
    ? log
        .events(session.id)
        .filter((e) => e.kind === 'user')
        .map((e) => String((e.data as { text: unknown }).text))
    : [];
  log.close();
  return { code, stderr, turns };
}

function check(c: PromptInputCase, r: Ran): void {
  expect(r.code, r.stderr).toBe(0);
  expect(r.turns, r.stderr).toHaveLength(1);
  const seen = r.turns[0]!;
  const holds = (p: string | RegExp) => (typeof p === 'string' ? seen.includes(p) : p.test(seen));
  for (const p of c.sees ?? []) expect(holds(p), `the model should see ${String(p).slice(0, 200)} in:\n${seen.slice(0, 2000)}`).toBe(true);
  for (const p of c.seesNot ?? []) expect(holds(p), `the model should not see ${String(p).slice(0, 200)}`).toBe(false);
  for (const p of c.says ?? []) expect(r.stderr).toMatch(p);
  for (const p of c.saysNot ?? []) expect(r.stderr).not.toMatch(p);
}

const runArgs = (c: PromptInputCase) => [
  'run',
  '-m',
  'replay:s.jsonl',
  '--session-db',
  'db',
  ...(c.recipe ? ['-c', 'recipe.yaml'] : []),
  '--',
  c.prompt,
];

describe('core-agent run: piped stdin appended to the prompt', { timeout: RUN_DEADLINE_MS + 10_000 }, () => {
  it.each(STDIN_CASES)('$name', async (c) => {
    const ws = await workspace(c);
    check(c, await cli(ws, runArgs(c), c.stdin ?? 'devnull', c.env));
  });
});

describe('@path in a prompt: the file through read_file and its gate', { timeout: RUN_DEADLINE_MS + 10_000 }, () => {
  it.each(AT_CASES)('run: $name', async (c) => {
    const ws = await workspace(c);
    check(c, await cli(ws, runArgs(c), c.stdin ?? 'devnull'));
  });

  it.each(AT_CASES)('repl: $name', async (c) => {
    const ws = await workspace(c);
    const args = ['repl', '-m', 'replay:s.jsonl', '--session-db', 'db', ...(c.recipe ? ['-c', 'recipe.yaml'] : [])];
    check(c, await cli(ws, args, { pipe: `${c.prompt}\n` }));
  });

  it('the token grammar: what is a path and what stays text', () => {
    const paths = (s: string) => splitAtTokens(s).flatMap((p) => ('paths' in p ? [p.paths] : []));
    expect(paths('a @x.ts b')).toEqual([['x.ts']]);
    expect(paths('@x.ts, @y.')).toEqual([
      ['x.ts,', 'x.ts'],
      ['y.', 'y'],
    ]);
    expect(paths('bob@x.com \\@y @"a b" @\'c d\' @"open')).toEqual([['a b'], ['c d']]);
    expect(splitAtTokens('x \\@y')).toEqual([{ text: 'x @y' }]);
    expect(paths('@ @\t@')).toEqual([]);
  });
});

describe('the REPL: a message of several lines (piped input)', { timeout: RUN_DEADLINE_MS + 10_000 }, () => {
  it.each(REPL_LINE_CASES)('$name', async (c) => {
    const ws = await workspace({ files: { 'a.txt': 'A\n' } });
    const r = await cli(ws, ['repl', '-m', 'replay:s.jsonl', '--session-db', 'db'], { pipe: c.input });
    expect(r.code, r.stderr).toBe(0);
    expect(r.turns).toEqual(c.turns);
  });
});
