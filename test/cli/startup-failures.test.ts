import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/workspace.ts';
import { STARTUP_FAILURE_CASES, type StartupFailureCase } from './startup-failures.cases.ts';
import { hasTmux, processesRunning, TerminalSession, until, uniqueSleep } from './terminal-session.ts';

/**
 * Start-up on a real terminal (tmux): a start-up failure prints its sentence and the process is
 * gone with status 2 without a key being pressed (issue 37: the REPL held the terminal and only
 * Ctrl-D ended it); Ctrl-C while the system is still being built ends the process.
 */

const sessions: TerminalSession[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.close();
});

/** The entry points that build a system on a terminal: the REPL by name, by no command word, and run. */
const ENTRIES: Array<{ name: string; argv: (args: string[]) => string[] }> = [
  { name: 'repl', argv: (args) => ['repl', ...args] },
  { name: 'no command', argv: (args) => args },
  { name: 'run', argv: (args) => ['run', 'hello', ...args] },
];

async function workspace(c: Pick<StartupFailureCase, 'files' | 'dirs'>): Promise<string> {
  const ws = await tempDir();
  await writeFile(path.join(ws, 's.jsonl'), JSON.stringify({ text: 'never reached' }));
  for (const [name, content] of Object.entries(c.files ?? {})) {
    await mkdir(path.dirname(path.join(ws, name)), { recursive: true });
    await writeFile(path.join(ws, name), content);
  }
  for (const dir of c.dirs ?? []) await mkdir(path.join(ws, dir), { recursive: true });
  return ws;
}

function terminal(ws: string, argv: string[], env: Record<string, string> = {}): TerminalSession {
  const t = new TerminalSession(ws, argv, env);
  sessions.push(t);
  return t;
}

describe.skipIf(!hasTmux)('a start-up failure on a terminal: the sentence, then the process is gone (2)', { timeout: 120_000 }, () => {
  it.each(STARTUP_FAILURE_CASES)('$name', async (c) => {
    await Promise.all(
      ENTRIES.map(async (entry) => {
        const ws = await workspace(c);
        const t = terminal(ws, entry.argv(c.args), c.env);
        // No key is sent: the process must end by itself.
        const screen = await t.until(/exited \d+/);
        expect(screen, entry.name).toMatch(c.says);
        expect(screen, entry.name).toContain('exited 2\n');
        expect(screen, entry.name).not.toMatch(/^\s+at /m);
      }),
    );
  });
});

describe.skipIf(!hasTmux)('Ctrl-C while the system is still being built ends the process', { timeout: 120_000 }, () => {
  // A start-up held on its thread (as a loaded machine holds it): no handler of ours could run.
  it.each(ENTRIES)('$name, start-up held on its thread', async (entry) => {
    const ws = await workspace({});
    const t = terminal(ws, entry.argv(['-m', 'replay:s.jsonl', '--session-db', 'db']), { CORE_AGENT_DEBUG_START_DELAY_MS: '60000' });
    await new Promise((r) => setTimeout(r, 2000));
    t.key('C-c');
    // Well before the hold (60 s) is over.
    const screen = await t.until(/exited \d+/, 20_000);
    expect(screen).toContain('exited 130\n');
    expect(screen).not.toContain('core-agent — session');
  });

  // A start-up waiting on an MCP server that never answers: the process is inside the build.
  it.each([
    { name: 'repl', argv: ['repl'] },
    { name: 'run', argv: ['run', 'hello'] },
    { name: 'run -o json', argv: ['run', 'hello', '-o', 'json'] },
  ])('$name, waiting for an MCP server', async ({ name, argv }) => {
    const sleep = uniqueSleep();
    const [program, ...args] = sleep.split(' ');
    const ws = await workspace({ files: { '.agents/mcp.json': JSON.stringify({ servers: { slow: { command: program, args } } }) } });
    const t = terminal(ws, [...argv, '-m', 'replay:s.jsonl', '--session-db', 'db', '--trust-workspace']);
    await until(() => (processesRunning(sleep).length > 0 ? true : undefined), 'the MCP server to start');
    t.key('C-c');
    const screen = await t.until(/exited \d+/, 20_000);
    expect(screen, name).toContain('exited 130\n');
    if (name === 'run -o json') expect(screen).toMatch(/"type":"cancelled".*"reason":"SIGINT"[^]*"type":"exit".*"status":130/);
    await until(() => (processesRunning(sleep).length === 0 ? true : undefined), 'the MCP server to be gone', 10_000);
  });
});
