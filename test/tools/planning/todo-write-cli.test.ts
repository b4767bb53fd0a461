import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/workspace.ts';

const bundle = fileURLToPath(new URL('../../../dist/core-agent.mjs', import.meta.url));

describe('TodoWrite through the built CLI (run --dialect golem)', () => {
  it("its list is shown in the JSON stream as update_plan's is", async () => {
    const ws = await tempDir();
    const todos = [
      { content: 'read the config', status: 'completed' },
      { content: 'fix the port', status: 'in_progress' },
      { content: 'restart' },
    ];
    const script = [{ tool_calls: [{ name: 'TodoWrite', args: { todos } }] }, { text: 'done' }];
    await writeFile(path.join(ws, 's.jsonl'), script.map((l) => JSON.stringify(l)).join('\n'));
    const r = spawnSync(
      process.execPath,
      [bundle, 'run', '--dialect', 'golem', '-m', 'replay:s.jsonl', '--session-db', ':memory:', '-o', 'json', 'go'],
      {
        cwd: ws,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: ws },
        timeout: 30_000,
      },
    );
    expect(r.status, r.stderr).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.find((e) => e.type === 'plan')).toMatchObject({
      plan: [
        { step: 'read the config', status: 'completed' },
        { step: 'fix the port', status: 'in_progress' },
        { step: 'restart', status: 'pending' },
      ],
    });
    expect(JSON.stringify(events)).toContain('3 todos recorded');
  });
});
