import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.ts';
import { tempDir } from '../helpers/workspace.ts';
import { hasTmux, TerminalSession } from './terminal-session.ts';

/**
 * A message of several lines in the REPL, in a real terminal (tmux): a
 * trailing backslash continues, a bracketed paste (tmux paste-buffer -p) is one
 * message, the up arrow brings the whole message back, Ctrl-C drops a message
 * being composed without quitting.
 */

const sessions: TerminalSession[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.close();
});

function userTurns(ws: string): string[] {
  const log = EventLog.open(path.join(ws, 'db'));
  const [session] = log.sessions();
  const all = session ? log.events(session.id) : [];
  log.close();
  return all.filter((e) => e.kind === 'user').map((e) => String((e.data as { text: unknown }).text));
}

async function untilTurns(ws: string, n: number): Promise<string[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const turns = userTurns(ws);
    if (turns.length >= n) return turns;
    if (Date.now() > deadline) throw new Error(`only ${turns.length} turn(s) recorded: ${JSON.stringify(turns)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!hasTmux)('the REPL: multi-line input in a real terminal (tmux)', { timeout: 120_000 }, () => {
  it('continuation, bracketed paste, history of the whole message, Ctrl-C drops a message', async () => {
    const ws = await tempDir();
    await writeFile(
      path.join(ws, 's.jsonl'),
      ['first answer', 'second answer', 'third answer'].map((text) => JSON.stringify({ text })).join('\n'),
    );
    const t = new TerminalSession(ws, ['repl', '-m', 'replay:s.jsonl', '--session-db', 'db']);
    sessions.push(t);
    await t.until('\n›');

    // A trailing backslash: the next line continues the message under '… '.
    t.type('alpha \\');
    await t.until(/\n…$/m);
    t.type('beta');
    await t.until('first answer');
    expect(await untilTurns(ws, 1)).toEqual(['alpha \nbeta']);

    // A bracketed paste of three lines: held until Enter, then one turn.
    await t.until(/— done[^\n]*\n›$/m);
    t.tmux('set-buffer', '-b', 'p', 'one\ntwo\nthree');
    t.tmux('paste-buffer', '-p', '-b', 'p', '-t', 't');
    const pasted = await t.until('… three');
    expect(pasted).toMatch(/› one\n… two\n… three/);
    expect(userTurns(ws)).toHaveLength(1); // nothing sent by the paste itself
    t.key('Enter');
    await t.until('second answer');
    expect((await untilTurns(ws, 2))[1]).toBe('one\ntwo\nthree');

    // The up arrow brings the pasted message back whole; Enter sends it again as one turn.
    await t.until(/second answer[^]*— done[^\n]*\n›$/m);
    t.key('Up');
    await t.until(/› one\n. two\n. three/);
    t.key('Enter');
    await t.until('third answer');
    expect((await untilTurns(ws, 3))[2]).toBe('one\ntwo\nthree');

    // Ctrl-C in a continued message drops it and the REPL stays.
    await t.until(/third answer[^]*— done[^\n]*\n›$/m);
    t.type('to be dropped \\');
    await t.until(/to be dropped \\\n…$/m);
    t.key('C-c');
    await t.until(/to be dropped \\\n…\s*\n›$/m);
    expect(t.screen()).not.toMatch(/exited/);
    t.type('/exit');
    await t.until('exited 0');
    expect(userTurns(ws)).toHaveLength(3);
  });
});
