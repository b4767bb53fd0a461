// Cagent's delegate_agent and wait_join through the built CLI on a replay model: each case of
// delegate-agent.cases.ts as `run -o json` under tools.dialect: cagent, then the event log —
// the parent's tool results, the first child's catalog, model and calls, and the sessions.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../../src/store/event-log.ts';
import { bundle } from '../../helpers/cli.ts';
import { tempDir, writeTree } from '../../helpers/workspace.ts';
import { DELEGATE_CASES } from './delegate-agent.cases.ts';

function run(ws: string, args: string[], input = '') {
  const r = spawnSync(process.execPath, [bundle, ...args], { cwd: ws, input, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: ws } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The wanted fields with each RegExp as a string matcher, at any depth. */
function matches(want: unknown): unknown {
  if (want instanceof RegExp) return expect.stringMatching(want);
  if (Array.isArray(want)) return want.map(matches);
  if (want !== null && typeof want === 'object') return Object.fromEntries(Object.entries(want).map(([k, v]) => [k, matches(v)]));
  return want;
}

describe('delegate_agent and wait_join (tools.dialect: cagent)', () => {
  it.for(DELEGATE_CASES.map((c) => [c.name, c] as const))('%s', { timeout: 120_000 }, async ([, c]) => {
    const ws = await tempDir();
    await writeTree(ws, {
      'notes.txt': 'the cache is cold\n',
      'recipe.yaml': JSON.stringify({ tools: { dialect: 'cagent' }, ...c.recipe }),
      's.jsonl': c.script.map((l) => JSON.stringify(l)).join('\n'),
      ...c.files,
    });
    const flags = c.flags ?? ['--yolo'];
    const r = run(ws, ['run', '-c', 'recipe.yaml', '-m', 'replay:s.jsonl', '--session-db', 'db', ...flags, '-o', 'json', 'go'], c.stdin);
    expect(r.code, r.stderr).toBe(0);
    if (c.stderr) expect(r.stderr).toMatch(c.stderr);
    const log = EventLog.open(path.join(ws, 'db'));
    try {
      const sessions = log.sessions();
      const parent = sessions.find((s) => !s.id.includes(':sub:'))!;
      const results = (id: string, tool: string) =>
        log
          .events(id)
          .filter((e) => e.kind === 'tool_result' && e.data.name === tool)
          .map((e) => e.data.shown as Record<string, unknown>);
      for (const want of c.results) {
        const got = results(parent.id, want.tool);
        expect(got[want.nth ?? 0], JSON.stringify(got)).toMatchObject(matches(want.want) as object);
      }
      const delegated = results(parent.id, 'delegate_agent')[0];
      const first = `${parent.id}:sub:${String(delegated?.id)}`;
      if (c.childTools || c.childModel) {
        const start = log.events(first)[0]!;
        expect(start.kind).toBe('session_start');
        const tools = start.data.tools as string[];
        for (const t of c.childTools?.has ?? []) expect(tools, t).toContain(t);
        for (const t of c.childTools?.not ?? []) expect(tools, t).not.toContain(t);
        if (c.childModel) expect(start.data.model).toBe(c.childModel);
      }
      if (c.childCalls) {
        const calls = log
          .events(first)
          .filter((e) => e.kind === 'tool_result')
          .map((e) => ({ name: e.data.name, ok: e.data.ok, shown: e.data.shown }));
        expect(calls.map(({ name, ok }) => ({ name, ok }))).toEqual(c.childCalls.map(({ name, ok }) => ({ name, ok })));
        c.childCalls.forEach((want, i) => want.shown && expect(calls[i]!.shown).toMatchObject(matches(want.shown) as object));
      }
      const children = sessions.filter((s) => s.id.includes(':sub:')).map((s) => s.id.split(':sub:').at(-1));
      expect(children.sort()).toEqual([...c.children].sort());
      for (const s of sessions.filter((x) => x.id.includes(':sub:'))) {
        const events = log.events(s.id);
        // Linked to its parent, and closed with its outcome.
        expect(events[0]).toMatchObject({ kind: 'session_start', data: { parent: parent.id, profile: expect.any(String) } });
        expect(events.at(-1)).toMatchObject({ kind: 'agent_end' });
      }
    } finally {
      log.close();
    }
  });
});
