// spawn_agent through the built CLI on a replay model: each case of spawn-agent.cases.ts as
// `run -o json`, then the event log: the parent's spawn_agent result and the children's sessions.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../../src/store/event-log.ts';
import { bundle } from '../../helpers/cli.ts';
import { tempDir, writeTree } from '../../helpers/workspace.ts';
import { SPAWN_CASES } from './spawn-agent.cases.ts';

function run(ws: string, args: string[]) {
  const r = spawnSync(process.execPath, [bundle, ...args], { cwd: ws, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: ws } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const matches = (want: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(want).map(([k, v]) => [k, v instanceof RegExp ? expect.stringMatching(v) : v]));

describe('spawn_agent', () => {
  it.for(SPAWN_CASES.map((c) => [c.name, c] as const))('%s', { timeout: 120_000 }, async ([, c]) => {
    const ws = await tempDir();
    await writeTree(ws, {
      'notes.txt': 'the cache is cold\n',
      'recipe.yaml': JSON.stringify(c.recipe ?? {}),
      's.jsonl': c.script.map((l) => JSON.stringify(l)).join('\n'),
    });
    const r = run(ws, [
      'run',
      '-c',
      'recipe.yaml',
      '-m',
      'replay:s.jsonl',
      '--session-db',
      'db',
      ...(c.flags ?? ['--yolo']),
      '-o',
      'json',
      'go',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const log = EventLog.open(path.join(ws, 'db'));
    try {
      const sessions = log.sessions();
      const parent = sessions.find((s) => !s.id.includes(':sub:'))!;
      // What spawn_agent returned in a session (a failed call's shown is {error}).
      const spawnedIn = (id: string) =>
        log
          .events(id)
          .filter((e) => e.kind === 'tool_result' && e.data.name === 'spawn_agent')
          .map((e) => e.data.shown as Record<string, unknown>);
      const spawned = spawnedIn(parent.id);
      expect(spawned[0], JSON.stringify(spawned)).toMatchObject(matches(c.result));
      // The parent's own first child, by the name its spawn returned (sessions are not listed in creation order within a second).
      const first = { id: `${parent.id}:sub:${String(spawned[0]?.name)}` };
      if (c.childCalls) {
        const calls = log
          .events(first.id)
          .filter((e) => e.kind === 'tool_result')
          .map((e) => ({ name: e.data.name, ok: e.data.ok }));
        expect(calls).toEqual(c.childCalls);
      }
      if (c.childError) {
        const failed = log.events(first.id).find((e) => e.kind === 'tool_result' && e.data.ok === false);
        expect((failed?.data.shown as { error?: string } | undefined)?.error).toMatch(c.childError);
      }
      if (c.childResult) {
        expect(spawnedIn(first.id)[0]).toMatchObject(matches(c.childResult));
      }
      const children = sessions.filter((s) => s.id.includes(':sub:')).map((s) => s.id.split(':sub:').at(-1));
      expect(children.sort()).toEqual([...(c.children ?? [])].sort());

      // -o json: each child's start and end, with its session; its spend is in the parent's turn.
      const lines = r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const childIds = sessions.filter((x) => x.id.includes(':sub:')).map((x) => x.id);
      for (const type of ['agent_start', 'agent_end'])
        expect(
          lines.filter((l) => l.type === type).map((l) => l.session),
          type,
        ).toEqual(expect.arrayContaining(childIds.map((id) => id)));
      expect(lines.filter((l) => l.type === 'agent_end')).toHaveLength(childIds.length);
      const tokensOf = (id: string) =>
        log
          .events(id)
          .filter((e) => e.kind === 'response')
          .reduce((n, e) => n + (e.data.usage as { inputTokens: number }).inputTokens, 0);
      const turnEnd = lines.find((l) => l.type === 'turn_end') as { usage: { inputTokens: number; costUsd: number | null } };
      // Exactly the parent's own calls and every descendant's: nothing counted twice, nothing lost.
      expect(turnEnd.usage.inputTokens).toBe([parent.id, ...childIds].reduce((n, id) => n + tokensOf(id), 0));
      if (c.cost) {
        const result = lines.find((l) => l.type === 'result') as { cost_usd: number };
        // A child's cost includes its own children's: only the parent's direct children add up to its share.
        const direct = (l: Record<string, unknown>) => String(l.session).split(':sub:').length === 2;
        const childCost = lines.filter((l) => l.type === 'agent_end' && direct(l)).reduce((n, l) => n + (l.cost_usd as number), 0);
        expect(childCost).toBeGreaterThan(0);
        expect(result.cost_usd).toBeGreaterThan(childCost);
        expect(result.cost_usd).toBeCloseTo(turnEnd.usage.costUsd!, 9);
      }
      for (const s of sessions.filter((x) => x.id.includes(':sub:'))) {
        const events = log.events(s.id);
        // Linked to its parent, and closed with its outcome.
        expect(events[0]).toMatchObject({ kind: 'session_start', data: { parent: expect.any(String), profile: expect.any(String) } });
        expect(events.at(-1)).toMatchObject({ kind: 'agent_end' });
      }
    } finally {
      log.close();
    }
  });
});
