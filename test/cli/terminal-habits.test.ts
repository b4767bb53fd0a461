import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';
import { hasTmux, processesRunning, TerminalSession, until } from './terminal-session.ts';

/**
 * Habits from Claude Code and Gemini CLI in the REPL, in a real terminal (tmux) with replayed
 * model scripts (issue 37): Esc interrupts a turn, Tab completes /commands and @paths, /mode
 * switches the permission mode, "s" saves an always-allow rule to the workspace's config, and
 * !COMMAND runs the operator's own command without the gate, its output read by the model.
 */

const sessions: TerminalSession[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.close();
});

async function workspace(script: object[], files: Record<string, string> = {}): Promise<string> {
  const ws = await tempDir();
  await writeFile(path.join(ws, 's.jsonl'), script.map((l) => JSON.stringify(l)).join('\n'));
  await writeTree(ws, files);
  return ws;
}

function repl(ws: string, ...extra: string[]): TerminalSession {
  const t = new TerminalSession(ws, ['repl', '-m', 'replay:s.jsonl', '--session-db', 'db', ...extra]);
  sessions.push(t);
  return t;
}

function events(ws: string) {
  const log = EventLog.open(path.join(ws, 'db'));
  const all = log.sessions().flatMap((s) => log.events(s.id));
  log.close();
  return all;
}

const userTexts = (ws: string) => events(ws).flatMap((e) => (e.kind === 'user' ? [String((e.data as { text: unknown }).text)] : []));

describe.skipIf(!hasTmux)('REPL habits in a real terminal (tmux)', { timeout: 120_000 }, () => {
  it('Esc interrupts a turn: the running tool is killed, the REPL stays', async () => {
    const sleep = `sleep 30.${String(Math.floor(Math.random() * 9000) + 1000)}`;
    const ws = await workspace([{ tool_calls: [{ name: 'bash', args: { command: sleep } }] }, { text: 'never shown' }]);
    const t = repl(ws, '--yolo');
    await t.until('\n›');
    t.type('wait');
    await until(() => (processesRunning(sleep).length > 0 ? true : undefined), 'the sleep to start');
    t.key('Escape');
    const back = await t.until(/— cancelled: .*\n(.*\n)?›/, 15_000);
    expect(back).not.toContain('never shown');
    expect(back).not.toContain('exited');
    await until(() => (processesRunning(sleep).length === 0 ? true : undefined), 'the sleep to be gone', 5_000);
    expect(events(ws).some((e) => e.kind === 'error' && /\(Esc\)/.test(String((e.data as { message: unknown }).message)))).toBe(true);
    // Esc at the prompt does nothing; the session goes on. (A key within half a second of an Esc
    // is readline's Meta-key, as in bash: wait that out before typing.)
    t.key('Escape');
    await new Promise((r) => setTimeout(r, 1000));
    t.type('/stats');
    await t.until(/turns 1, /);
    t.type('/exit');
    await t.until('exited 0');
  });

  it('Tab completes a /command and an @path, and the file is attached', async () => {
    const ws = await workspace([{ text: 'It prints hello.' }], { 'src/app.ts': 'console.log("hello");\n', 'scripts/x.sh': '' });
    const t = repl(ws);
    await t.until('\n›');
    t.tmux('send-keys', '-t', 't', '-l', '/sta');
    t.key('Tab');
    await t.until(/› \/stats\s*$/);
    t.key('Enter');
    await t.until(/turns 0, /);
    t.tmux('send-keys', '-t', 't', '-l', 'explain @sr');
    t.key('Tab');
    await t.until(/› explain @src\/\s*$/);
    t.tmux('send-keys', '-t', 't', '-l', 'a');
    t.key('Tab');
    await t.until(/› explain @src\/app\.ts\s*$/);
    t.key('Enter');
    await t.until('It prints hello.');
    expect(userTexts(ws)[0]).toMatch(
      /^explain @src\/app\.ts\n\nFile src\/app\.ts \(lines 1-1 of 1\):\n```\nconsole\.log\("hello"\);\n```$/,
    );
  });

  it('/mode switches the permission mode mid-session: an edit then runs without asking', async () => {
    const ws = await workspace([
      { tool_calls: [{ name: 'write_file', args: { path: 'notes.txt', content: 'hi\n' } }] },
      { text: 'Written.' },
    ]);
    const t = repl(ws);
    await t.until('mode ask.');
    t.type('/mode');
    await t.until(/mode ask \(\/mode ask\|accept-edits\|plan\|yolo switches\)/);
    t.type('/mode sometimes');
    await t.until(/unknown permission mode "sometimes".*; still ask/);
    t.type('/mode accept-edits');
    await t.until('mode accept-edits (was ask)');
    t.type('take a note');
    const done = await t.until('Written.');
    expect(done).not.toContain('Allow write_file?');
    expect(await readFile(path.join(ws, 'notes.txt'), 'utf8')).toBe('hi\n');
    expect(events(ws).find((e) => e.kind === 'operator')?.data).toEqual({
      action: 'mode',
      from: 'ask',
      to: 'accept-edits',
      principal: 'repl',
    });
  });

  it('"s" saves the always-allow rule to .agents/config.yaml (0600), and the next trusted session uses it', async () => {
    const call = { tool_calls: [{ name: 'bash', args: { command: 'echo saved-rule-ran' } }] };
    const ws = await workspace([call, { text: 'First done.' }]);
    const first = repl(ws);
    await first.until('\n›');
    first.type('run it');
    const dialog = await first.until('Allow bash?');
    expect(dialog).toContain('  [s] always: save the rule "tool.bash:echo saved-rule-ran" to the workspace config (.agents/config.yaml)\n');
    first.type('s');
    const saved = await first.until('First done.');
    // The line is wider than the terminal: read it unwrapped.
    expect(saved.replace(/\s+/g, ' ')).toContain(
      `saved: "tool.bash:echo saved-rule-ran" in ${path.join(ws, '.agents/config.yaml')} (a project file's allow rules apply with --trust-workspace)`,
    );
    expect(saved).toMatch(/✓ bash .*saved-rule-ran/);
    const file = path.join(ws, '.agents/config.yaml');
    expect(await readFile(file, 'utf8')).toBe('permissions:\n  allow:\n    - tool.bash:echo saved-rule-ran\n');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    first.type('/exit');
    await first.until('exited 0');
    first.close();
    // A second session, trusted: the saved rule allows the same call without a dialog.
    await writeFile(path.join(ws, 's.jsonl'), [call, { text: 'Second done.' }].map((l) => JSON.stringify(l)).join('\n'));
    const second = repl(ws, '--trust-workspace');
    await second.until('\n›');
    second.type('again');
    const again = await second.until('Second done.');
    expect(again).not.toContain('Allow bash?');
    expect(again).toMatch(/✓ bash .*saved-rule-ran/);
  });

  it('!COMMAND runs without the gate (ask and plan mode, search-shaped too); the model reads it with the next message', async () => {
    const ws = await workspace([{ text: 'I see what you ran.' }], { 'notes.txt': 'needle here\n' });
    const t = repl(ws, '--mode', 'plan');
    await t.until('mode plan.');
    t.type('!echo from-the-operator > out.txt; cat out.txt; exit 3');
    await t.until(/from-the-operator\n\[exit 3\]\n/);
    t.type('!grep -n needle notes.txt');
    await t.until('1:needle here\n');
    const screen = t.screen();
    expect(screen).not.toContain('Allow bash?');
    expect(screen).not.toContain('permission denied');
    expect(await readFile(path.join(ws, 'out.txt'), 'utf8')).toBe('from-the-operator\n');
    t.type('what did I run?');
    await t.until('I see what you ran.');
    const [seen] = userTexts(ws);
    expect(seen).toContain(
      'The operator ran `echo from-the-operator > out.txt; cat out.txt; exit 3` in the shell (exit 3), output:\n```\nfrom-the-operator\n```',
    );
    expect(seen).toContain('The operator ran `grep -n needle notes.txt` in the shell (exit 0), output:\n```\n1:needle here\n```');
    expect(seen).toMatch(/\n\nwhat did I run\?$/);
    // Recorded as the operator's calls.
    const calls = events(ws).filter((e) => e.kind === 'tool_result');
    expect(calls.map((e) => (e.data as { source?: unknown }).source)).toEqual(['operator', 'operator']);
  });
});
