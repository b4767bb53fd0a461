// Declarative subagents through the built CLI on a replay model: each case of
// profile-tools.cases.ts as `run -o json`, then the event log — the parent's offered tools and
// the named tool's result, the first child's catalog and calls, and the sessions.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../../src/store/event-log.ts';
import { bundle } from '../../helpers/cli.ts';
import { tempDir, writeTree } from '../../helpers/workspace.ts';
import { PROFILE_TOOL_CASES } from './profile-tools.cases.ts';

function run(ws: string, args: string[]) {
  const r = spawnSync(process.execPath, [bundle, ...args], { cwd: ws, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: ws } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function matches(want: unknown): unknown {
  if (want instanceof RegExp) return expect.stringMatching(want);
  if (want !== null && typeof want === 'object') return Object.fromEntries(Object.entries(want).map(([k, v]) => [k, matches(v)]));
  return want;
}

describe('declarative subagents: agent_<profile> {request}', () => {
  it.for(PROFILE_TOOL_CASES.map((c) => [c.name, c] as const))('%s', { timeout: 120_000 }, async ([, c]) => {
    const ws = await tempDir();
    await writeTree(ws, {
      'notes.txt': 'the cache is cold\n',
      'recipe.yaml': JSON.stringify(c.recipe ?? {}),
      's.jsonl': c.script.map((l) => JSON.stringify(l)).join('\n'),
    });
    const flags = c.flags ?? ['--yolo'];
    const r = run(ws, ['run', '-c', 'recipe.yaml', '-m', 'replay:s.jsonl', '--session-db', 'db', ...flags, '-o', 'json', 'go']);
    expect(r.code, r.stderr).toBe(0);
    const log = EventLog.open(path.join(ws, 'db'));
    try {
      const sessions = log.sessions();
      const parent = sessions.find((s) => !s.id.includes(':sub:'))!;
      const toolsOf = (id: string) => (log.events(id).find((e) => e.kind === 'session_start')?.data.tools as string[] | undefined) ?? [];
      for (const t of c.offered ?? []) expect(toolsOf(parent.id), t).toContain(t);
      for (const t of c.notOffered ?? []) expect(toolsOf(parent.id), t).not.toContain(t);
      const results = log
        .events(parent.id)
        .filter((e) => e.kind === 'tool_result' && e.data.name === c.tool)
        .map((e) => e.data.shown as Record<string, unknown>);
      expect(results[0], JSON.stringify(results)).toMatchObject(matches(c.result) as Record<string, unknown>);
      const children = sessions.filter((s) => s.id.includes(':sub:')).map((s) => s.id.split(':sub:').at(-1));
      expect(children.sort()).toEqual([...c.children].sort());
      const first = `${parent.id}:sub:${c.children[0] ?? ''}`;
      if (c.childCalls) {
        const calls = log
          .events(first)
          .filter((e) => e.kind === 'tool_result')
          .map((e) => ({ name: e.data.name, ok: e.data.ok }));
        expect(calls).toEqual(c.childCalls);
      }
      for (const t of c.childNotOffered ?? []) expect(toolsOf(first), t).not.toContain(t);
    } finally {
      log.close();
    }
  });
});
