import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.ts';
import { tempDir } from '../helpers/workspace.ts';
import { bundle, hasTmux, processesRunning, TerminalSession, until, uniqueSleep } from './terminal-session.ts';

/**
 * The CLI in a real terminal (tmux), driven by replayed model scripts: what a
 * person sees after each step. The screens asserted here are the ones shown in
 * docs/terminal.md.
 */

const sessions: TerminalSession[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.close();
});

async function workspace(script: object[], files: Record<string, string> = {}): Promise<string> {
  const ws = await tempDir();
  await writeFile(path.join(ws, 's.jsonl'), script.map((l) => JSON.stringify(l)).join('\n'));
  for (const [name, content] of Object.entries(files)) await writeFile(path.join(ws, name), content);
  return ws;
}

function repl(ws: string, ...extra: string[]): TerminalSession {
  const t = new TerminalSession(ws, ['repl', '-m', 'replay:s.jsonl', '--session-db', 'db', ...extra]);
  sessions.push(t);
  return t;
}

function events(ws: string) {
  const log = EventLog.open(path.join(ws, 'db'));
  const [session] = log.sessions();
  const all = session ? log.events(session.id) : [];
  log.close();
  return all;
}

/** Each step polls with its own deadline; the whole test gets room for several on a loaded machine. */
const TERMINAL_TEST_MS = 120_000;

describe.skipIf(!hasTmux)('the REPL in a real terminal (tmux)', { timeout: TERMINAL_TEST_MS }, () => {
  it('the approval dialog shows the diff and stays put while waiting; the streamed answer stays on screen', async () => {
    const ws = await workspace(
      [
        { tool_calls: [{ name: 'edit_file', args: { path: 'config.yaml', old_string: 'port: 80', new_string: 'port: 8080' } }] },
        { text: 'I changed the port to 8080 in config.yaml.' },
      ],
      { 'config.yaml': 'port: 80\nhost: example\n' },
    );
    const t = repl(ws);
    await t.until('\n›');
    t.type('fix the port in config.yaml');
    const waiting = await t.until('Allow edit_file?');
    for (const line of [
      '? edit_file asks for approval',
      '  path: config.yaml',
      '  --- a/config.yaml',
      '  +++ b/config.yaml',
      '  -port: 80',
      '  +port: 8080',
      '   host: example',
    ])
      expect(waiting).toContain(`${line}\n`);
    // Unmoved: no spinner redraws over (or under) the question while nobody answers.
    await new Promise((r) => setTimeout(r, 1500));
    expect(t.screen()).toBe(waiting);
    t.type('y');
    const done = await t.until('— done');
    expect(done).toMatch(/✓ edit_file .*\(\d+ ms\)\nI changed the port to 8080 in config.yaml.\n— done, 2 step\(s\)/);
    expect(await readFile(path.join(ws, 'config.yaml'), 'utf8')).toBe('port: 8080\nhost: example\n');
    // The time at the prompt (over 1.5 s) is not the tool's.
    expect(Number(/✓ edit_file .*\((\d+) ms\)/.exec(done)![1])).toBeLessThan(1500);
    t.type('/exit');
    await t.until('exited 0');
    // docs/terminal.md shows this session: its dialog and answer are the ones seen here.
    const doc = await readFile(fileURLToPath(new URL('../../docs/terminal.md', import.meta.url)), 'utf8');
    const dialog = /› fix the port in config\.yaml\n[\s\S]*?\nAllow edit_file\?[^\n]*\n/.exec(done)![0];
    expect(doc).toContain(dialog);
    expect(doc).toContain('\nI changed the port to 8080 in config.yaml.\n— done, 2 step(s), ');
  });

  it("apply_patch's dialog shows every file the patch touches; a deny with a note reaches the model", async () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: a.txt',
      '@@',
      '-one',
      '+ONE',
      '*** Add File: b.txt',
      '+new file',
      '*** End Patch',
    ].join('\n');
    const ws = await workspace(
      [{ tool_calls: [{ name: 'apply_patch', args: { patch } }] }, { text: 'Understood, I left both files alone.' }],
      {
        'a.txt': 'one\ntwo\n',
      },
    );
    // Cagent's patch tool: its dialect.
    const t = repl(ws, '--dialect', 'cagent');
    await t.until('\n›');
    t.type('patch it');
    const dialog = await t.until('Allow apply_patch?');
    for (const line of ['--- a/a.txt', '+++ b/a.txt', '-one', '+ONE', '--- /dev/null', '+++ b/b.txt', '+new file'])
      expect(dialog).toContain(`  ${line}\n`);
    t.type('m');
    await t.until('Note to the model:');
    t.type('not on a Friday');
    await t.until('Understood, I left both files alone.');
    t.type('/exit');
    await t.until('exited 0');
    expect(await readFile(path.join(ws, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
    const result = events(ws).find((e) => e.kind === 'tool_result');
    expect(JSON.stringify(result?.data)).toContain('who says: not on a Friday');
  });

  it('update_plan shows live under the working indicator and is gone at the turn end', async () => {
    const plan = [
      { step: 'read the config', status: 'completed' },
      { step: 'fix the port', status: 'in_progress' },
    ];
    const ws = await workspace([
      { tool_calls: [{ name: 'update_plan', args: { explanation: 'found it', plan } }] },
      { tool_calls: [{ name: 'bash', args: { command: 'sleep 3' } }] },
      { text: 'The port is fixed.' },
    ]);
    const t = repl(ws, '--yolo', '--dialect', 'cagent');
    await t.until('\n›');
    t.type('go');
    const live = await t.until(/bash \d+\.\ds\n· plan — found it\n {2}✓ read the config\n {2}▶ fix the port\n$/);
    expect(live).toContain('✓ update_plan');
    const done = await t.until('— done');
    expect(done).toContain('The port is fixed.\n');
    expect(done).not.toContain('▶ fix the port');
    expect(done).not.toMatch(/bash \d+\.\ds/); // the spinner line is gone too
  });

  it('Ctrl-C during a bash sleep cancels the turn, kills the sleep, returns to the prompt; Ctrl-C at an empty prompt quits (130)', async () => {
    const sleep = uniqueSleep();
    const ws = await workspace([{ tool_calls: [{ name: 'bash', args: { command: sleep } }] }, { text: 'never shown' }]);
    const t = repl(ws, '--yolo');
    await t.until('\n›');
    t.type('wait');
    await until(() => (processesRunning(sleep).length > 0 ? true : undefined), 'the sleep to start');
    await t.until(/bash \d+\.\ds/);
    t.key('C-c');
    const back = await t.until(/— cancelled: .*\n(.*\n)?›/, 10_000);
    expect(back).toMatch(/✗ bash .*cancelled/);
    expect(back).not.toContain('never shown');
    await until(() => (processesRunning(sleep).length === 0 ? true : undefined), 'the sleep to be gone', 5_000);
    // Still usable: the next line is a command.
    t.type('/stats');
    await t.until(/turns 1, /);
    // Ctrl-C with something typed drops it, as shells do, and stays.
    t.tmux('send-keys', '-t', 't', '-l', 'half typed');
    await t.until(/› half typed\n$/);
    await new Promise((r) => setTimeout(r, 1100)); // not a double press
    t.key('C-c');
    await t.until(/\n›\n$/);
    await new Promise((r) => setTimeout(r, 1100));
    t.key('C-c'); // at an empty prompt: quits
    await t.until('exited 130');
    expect(events(ws).some((e) => e.kind === 'error' && (e.data as { cancelled?: boolean }).cancelled === true)).toBe(true);
  });

  it('a second Ctrl-C within a second quits during a turn, leaving no process behind', async () => {
    const sleep = uniqueSleep();
    const ws = await workspace([{ tool_calls: [{ name: 'bash', args: { command: sleep } }] }, { text: 'never shown' }]);
    const t = repl(ws, '--yolo');
    await t.until('\n›');
    t.type('wait');
    await until(() => (processesRunning(sleep).length > 0 ? true : undefined), 'the sleep to start');
    t.key('C-c');
    t.key('C-c');
    await t.until('exited 130');
    await until(() => (processesRunning(sleep).length === 0 ? true : undefined), 'the sleep to be gone', 5_000);
  });

  it('run on a terminal: the same approval dialog, answered from the terminal', async () => {
    const ws = await workspace([
      { tool_calls: [{ name: 'write_file', args: { path: 'notes.txt', content: 'hello\n' } }] },
      { text: 'Wrote notes.txt.' },
    ]);
    const t = new TerminalSession(ws, ['run', '-m', 'replay:s.jsonl', '--session-db', ':memory:', 'take a note']);
    sessions.push(t);
    const dialog = await t.until('Allow write_file?');
    for (const line of ['? write_file asks for approval', '  path: notes.txt', '  --- /dev/null', '  +++ b/notes.txt', '  +hello'])
      expect(dialog).toContain(`${line}\n`);
    await new Promise((r) => setTimeout(r, 1000));
    expect(t.screen()).toBe(dialog);
    t.type('y');
    const end = await t.until('exited 0');
    expect(end).toMatch(/✓ write_file .*\nWrote notes.txt.\n— done/);
    expect(await readFile(path.join(ws, 'notes.txt'), 'utf8')).toBe('hello\n');
  });

  it("run on a terminal: ask_user's question is not drawn over while it waits", async () => {
    const ws = await workspace([
      { tool_calls: [{ name: 'ask_user', args: { question: 'Which port?' } }] },
      { text: 'Using the port you gave.' },
    ]);
    const t = new TerminalSession(ws, ['run', '--ask', 'stdin', '-m', 'replay:s.jsonl', '--session-db', ':memory:', 'set it up']);
    sessions.push(t);
    const asking = await t.until(/\? Which port\?\n>/);
    await new Promise((r) => setTimeout(r, 1000));
    expect(t.screen()).toBe(asking);
    t.type('8080');
    const end = await t.until('exited 0');
    expect(end).toMatch(/> 8080\n✓ ask_user .*\nUsing the port you gave.\n— done/);
  });

  it('run on a terminal: the streamed answer is on screen after the command ends', async () => {
    const ws = await workspace([{ tool_calls: [{ name: 'list_dir', args: { path: '.' } }] }, { text: 'There is one file, s.jsonl.' }]);
    const t = new TerminalSession(ws, ['run', '-m', 'replay:s.jsonl', '--session-db', ':memory:', 'what is here']);
    sessions.push(t);
    const end = await t.until('exited 0');
    expect(end).toMatch(/✓ list_dir .*\nThere is one file, s.jsonl.\n— done, 2 step\(s\)/);
  });

  it("keeps typed lines as history per directory: Up brings back the last session's line", async () => {
    const ws = await workspace([{ text: 'first answer' }, { text: 'second answer' }]);
    const first = repl(ws);
    await first.until('\n›');
    first.type('remember this line');
    await first.until('first answer');
    first.type('/exit');
    await first.until('exited 0');
    first.close();
    const second = repl(ws);
    await second.until('\n›');
    second.key('Up');
    await second.until(/› \/exit\s*$/);
    second.key('Up');
    await second.until(/› remember this line\s*$/);
    second.key('C-u');
    second.type('/exit');
    await second.until('exited 0');
  });
});

describe('headless run and SIGINT', { timeout: TERMINAL_TEST_MS }, () => {
  it('cancels the turn, kills the running tool, records the cancellation and exits 130', async () => {
    const sleep = uniqueSleep();
    const ws = await workspace([{ tool_calls: [{ name: 'bash', args: { command: sleep } }] }, { text: 'never shown' }]);
    const child = spawn(process.execPath, [bundle, 'run', '--yolo', '-m', 'replay:s.jsonl', '--session-db', 'db', 'wait'], {
      cwd: ws,
      env: { PATH: process.env.PATH, HOME: ws },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await until(() => (processesRunning(sleep).length > 0 ? true : undefined), 'the sleep to start');
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    expect(stderr).toContain('cancelled');
    await until(() => (processesRunning(sleep).length === 0 ? true : undefined), 'the sleep to be gone', 5_000);
    const recorded = events(ws).find((e) => e.kind === 'error');
    expect(recorded?.data).toMatchObject({ cancelled: true });
  });
});
