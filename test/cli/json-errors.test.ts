import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { JSON_EVENT } from '../../src/cli/json-events.ts';
import { bundle } from '../helpers/cli.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';
import { JSON_ERROR_CASES } from './json-errors.cases.ts';

describe('run -o json: a mistake is one error event on stdout, the exit status unchanged', () => {
  it.each(JSON_ERROR_CASES.map((c) => ({ ...c, label: c.argv.join(' ').slice(0, 70) })))('$label', async (c) => {
    const home = await tempDir();
    await writeTree(home, { 's.jsonl': '{"text":"hi"}\n', ...c.files });
    const r = spawnSync(process.execPath, [bundle, ...c.argv], {
      cwd: home,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: home, ...c.env },
    });
    const exit = c.exit ?? 2;
    expect(r.status, r.stderr).toBe(exit);
    if (c.json === false) {
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(c.message);
      return;
    }
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines, r.stdout).toHaveLength(1);
    const event = JSON_EVENT.parse(JSON.parse(lines[0]!));
    expect(event).toMatchObject({ type: 'error', exit, message: expect.stringMatching(c.message) });
    // What only a human needs is gone; what a program needs is all there.
    expect(event.type === 'error' && event.message).not.toMatch(/^core-agent: |Run "core-agent/m);
    expect(r.stderr).not.toMatch(/^\s+at |TypeError|ERR_PARSE_ARGS/m);
  });
});
