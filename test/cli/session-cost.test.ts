// --max-session-cost-usd: the cases of session-cost.cases.ts as `run -o json` of the built CLI.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.ts';
import { bundle } from '../helpers/cli.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';
import { SESSION_COST_CASES } from './session-cost.cases.ts';

describe('--max-session-cost-usd', () => {
  it.for(SESSION_COST_CASES.map((c) => [c.name, c] as const))('%s', { timeout: 120_000 }, async ([, c]) => {
    const ws = await tempDir();
    await writeTree(ws, {
      'notes.txt': 'the cache is cold\n'.repeat(20),
      'recipe.yaml': JSON.stringify(c.priced === false ? {} : { context: { price: { input: 1000, output: 1000 } } }),
      's.jsonl': (c.script ?? [{ text: 'x' }]).map((l) => JSON.stringify(l)).join('\n'),
    });
    const r = spawnSync(
      process.execPath,
      [bundle, 'run', '-c', 'recipe.yaml', '-m', 'replay:s.jsonl', '--session-db', 'db', '--yolo', '-o', 'json', ...c.args, 'go'],
      { cwd: ws, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: ws } },
    );
    expect(r.status, r.stderr + r.stdout).toBe(c.exit);
    if (c.stderr) expect(r.stderr + r.stdout).toMatch(c.stderr);
    const lines = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const result = lines.find((l) => l.type === 'result');
    expect(result?.status).toBe(c.status);
    if (c.parentCalls === undefined) return;
    const log = EventLog.open(path.join(ws, 'db'));
    try {
      const parent = log.sessions().find((s) => !s.id.includes(':sub:'))!;
      expect(log.events(parent.id).filter((e) => e.kind === 'response')).toHaveLength(c.parentCalls);
      const ends = lines.filter((l) => l.type === 'agent_end').map((l) => [l.name, l.stop_reason]);
      expect(Object.fromEntries(ends)).toEqual(c.children ?? {});
      if (c.status === 'cost_limit') {
        const turnEnd = lines.find((l) => l.type === 'turn_end') as { text: string; session_usage: { costUsd: number } };
        expect(turnEnd.text).toMatch(/^stopped: the session has cost \$[\d.]+, past --max-session-cost-usd/);
        const limit = Number(c.args.at(-1));
        expect(turnEnd.session_usage.costUsd).toBeGreaterThan(limit);
      }
    } finally {
      log.close();
    }
  });
});
