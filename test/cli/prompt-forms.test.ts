import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.ts';
import { tempDir } from '../helpers/workspace.ts';
import { PROMPT_FORM_CASES } from './prompt-forms.cases.ts';
import { bundle } from './terminal-session.ts';

/** The built CLI, stdin a shell's pipe (with `stdin`) or /dev/null; the prompts the model got, from the session. */
async function cli(ws: string, argv: string[], stdin: string | undefined) {
  await writeFile(path.join(ws, 'stdin.in'), stdin ?? '');
  const child = spawn(
    'sh',
    [
      '-c',
      `${stdin === undefined ? '' : 'cat stdin.in | '}"$0" "$@"${stdin === undefined ? ' </dev/null' : ''}`,
      process.execPath,
      bundle,
      ...argv,
    ],
    {
      cwd: ws,
      env: { PATH: process.env.PATH, HOME: ws },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  let turns: string[] = [];
  try {
    const log = EventLog.open(path.join(ws, 'db'));
    const [session] = log.sessions();
    turns = session ? log.events(session.id).flatMap((e) => (e.kind === 'user' ? [String((e.data as { text: unknown }).text)] : [])) : [];
    log.close();
  } catch {
    // no database: nothing ran
  }
  return { code, stdout, stderr, turns };
}

describe('a prompt without `run`: -p PROMPT, a first word that is no command, did-you-mean', { timeout: 60_000 }, () => {
  it.each(PROMPT_FORM_CASES)('$name', async (c) => {
    const ws = await tempDir();
    await writeFile(path.join(ws, 's.jsonl'), `${JSON.stringify({ text: 'ok' })}\n`);
    const r = await cli(ws, c.argv, c.stdin);
    expect(r.code, r.stderr).toBe(c.code);
    expect(r.turns, r.stderr).toEqual(c.sees === undefined ? [] : [c.sees]);
    if (c.stdout) expect(r.stdout).toMatch(c.stdout);
    if (c.stderr) expect(r.stderr).toMatch(c.stderr);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});
