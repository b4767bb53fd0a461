import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../../src/store/event-log.ts';
import { tempDir } from '../../helpers/workspace.ts';

const bundle = fileURLToPath(new URL('../../../dist/core-agent.mjs', import.meta.url));
const QUESTION = { question: 'Which port should the server listen on?', header: 'Port', options: ['8080', '443'] };

/** The built CLI under --dialect golem over a replay script that asks, then answers with `then`. */
async function run(extra: string[], input: string) {
  const ws = await tempDir();
  const script = [{ tool_calls: [{ name: 'AskUserQuestionTool', args: { questions: [QUESTION] } }] }, { text: 'Listening as told.' }];
  await writeFile(path.join(ws, 's.jsonl'), script.map((l) => JSON.stringify(l)).join('\n'));
  const db = path.join(ws, 'sessions.db');
  const r = spawnSync(
    process.execPath,
    [bundle, 'run', '--dialect', 'golem', '-m', 'replay:s.jsonl', '--session-db', db, '-o', 'json', ...extra, 'set up the server'],
    { cwd: ws, encoding: 'utf8', input, env: { PATH: process.env.PATH, HOME: ws }, timeout: 30_000 },
  );
  const events = r.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { r, events, db };
}

describe('AskUserQuestionTool through the built CLI (run --dialect golem)', () => {
  it('--ask stdin: the terminal answers inside the turn, and the model goes on from it', async () => {
    const { r, events } = await run(['--ask', 'stdin'], '2\n');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/\? \[Port\] Which port should the server listen on\?\n {2}1\) 8080\n {2}2\) 443\nChoose 1-2: /);
    expect(events.find((e) => e.type === 'tool_end')).toMatchObject({ name: 'AskUserQuestionTool', ok: true });
    expect(JSON.stringify(events)).toContain('The user answered:\\n- Which port should the server listen on?: 443');
    expect(events.find((e) => e.type === 'result')).toMatchObject({ is_error: false });
    expect(JSON.stringify(events)).toContain('Listening as told.');
  });

  it('--ask auto with no terminal: the questions are posted with the session and the run ends, exit 0', async () => {
    const { r, events, db } = await run(['--ask', 'auto'], '');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.stringify(events)).toContain('Waiting for your answers:\\n- [Port] Which port should the server listen on? (8080 / 443)');
    const log = EventLog.open(db);
    try {
      const sid = log.sessions()[0]!.id;
      const question = log.events(sid).find((e) => e.kind === 'question');
      expect(question?.data).toMatchObject({ questions: [QUESTION], expires_at: expect.any(String) });
      // The turn ended on the ask: the script's second line was never asked for.
      expect(log.events(sid).filter((e) => e.kind === 'request')).toHaveLength(1);
    } finally {
      log.close();
    }
  });

  it('--ask off (run’s default): refused, the model told to carry on', async () => {
    const { r, events } = await run([], '');
    expect(r.status, r.stderr).toBe(0);
    expect(events.find((e) => e.type === 'tool_end')).toMatchObject({ name: 'AskUserQuestionTool', ok: false });
    expect(JSON.stringify(events)).toMatch(/asking is off/);
  });
});
