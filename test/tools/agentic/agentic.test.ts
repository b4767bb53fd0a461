// The agentic wrappers on a real runtime (catalog, gate, path scope, dispatcher) with the engine
// attached to a session of an event log, and a replay model whose steps are addressed to the
// child (agentic.cases.ts). The parent's call goes through the dispatcher as a model's would.
import { describe, expect, it } from 'vitest';
import type { ReplayStep } from '../../../src/model/replay.ts';
import type { Price } from '../../../src/model/pricing.ts';
import type { EventLog } from '../../../src/store/event-log.ts';
import { delegatingRuntime } from '../../helpers/child-agents.ts';
import { countingServer } from '../../helpers/http-servers.ts';
import { AGENTIC_CASES, type AgenticCase } from './agentic.cases.ts';

const TREE = { 'app.log': 'INFO start\nERROR disk full\nINFO retry\nERROR disk full\n', 'secret.txt': 's3cret\n' };

async function wrapperRun(c: Pick<AgenticCase, 'recipe' | 'dialect' | 'agenticModel'>, steps: ReplayStep[], price: Price | null = null) {
  const server = await countingServer('127.0.0.2', (_req, res) => {
    res.setHeader('content-type', 'text/plain');
    res.end('Runbook: restart the api.\n');
  });
  const { rt, log } = await delegatingRuntime(
    {
      tree: TREE,
      recipe: c.recipe,
      flags: { ...(c.dialect ? { dialect: c.dialect } : {}), ...(c.agenticModel ? { agenticSmallModel: c.agenticModel } : {}) },
    },
    {
      steps: steps.map((s) => JSON.parse(JSON.stringify(s).replaceAll('{origin}', server.origin)) as ReplayStep),
      spec: 'replay:parent',
      price,
      // Any other model is the same script under its own name: the child's session says which it ran on.
      otherModels: 'same-script',
    },
  );
  return { rt, log, server };
}

const matches = (want: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(want).map(([k, v]) => [k, v instanceof RegExp ? expect.stringMatching(v) : v]));

/** The child sessions of the parent, with their events. */
function childSessions(log: EventLog, parent: string) {
  return log
    .sessions()
    .filter((s) => s.id.startsWith(`${parent}:sub:`))
    .map((s) => ({ id: s.id, events: log.events(s.id) }));
}

describe('agentic wrappers', () => {
  it.for(AGENTIC_CASES.map((c) => [c.name, c] as const))('%s', { timeout: 60_000 }, async ([, c]) => {
    const { rt, log } = await wrapperRun(
      c,
      (c.child ?? []).map((s) => ({ ...s, agent: 'explore' })),
    );
    if (c.absent) {
      expect(rt.catalog.has(c.tool)).toBe(false);
      expect(rt.catalog.notRegistered(c.tool)).toMatch(c.absent);
      return;
    }
    expect(rt.catalog.has(c.tool), rt.catalog.notRegistered(c.tool)).toBe(true);
    const r = await rt.dispatcher.call(c.tool, { request: c.request ?? 'What went wrong in app.log?' });
    const { error, ...fields } = c.result ?? {};
    if (error instanceof RegExp) {
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(error);
      expect(childSessions(log, rt.session.sessionId!)).toEqual([]);
      return;
    }
    expect(r.ok, r.ok ? '' : r.error).toBe(true);
    if (!r.ok) return;
    expect(r.result).toMatchObject(matches(fields));
    if (c.whole) expect(r.result).not.toHaveProperty('truncated');
    if (c.words !== undefined) expect(String(r.result.digest).split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(c.words);
    // The result has the contract's fields and nothing else.
    expect(Object.keys(r.result).every((k) => ['digest', 'truncated', 'turns_used', 'cost_usd'].includes(k))).toBe(true);

    const [child, ...more] = childSessions(log, rt.session.sessionId!);
    expect(more).toEqual([]);
    expect(child!.id).toBe(`${rt.session.sessionId}:sub:${c.tool}-1`);
    const start = child!.events[0]!;
    expect(start).toMatchObject({ kind: 'session_start', data: { parent: rt.session.sessionId, profile: 'explore' } });
    if (c.childTools) expect(start.data.tools).toEqual(c.childTools);
    if (c.childModel) expect(start.data.model).toBe(c.childModel);
    if (c.childCalls) {
      const calls = child!.events.filter((e) => e.kind === 'tool_result').map((e) => e.data);
      expect(calls.map((d) => ({ name: d.name, ok: d.ok }))).toEqual(c.childCalls.map(({ name, ok }) => ({ name, ok })));
      c.childCalls.forEach((want, i) => {
        if (want.error) expect(JSON.stringify(calls[i]!.shown)).toMatch(want.error);
      });
    }
    expect(child!.events.at(-1)).toMatchObject({ kind: 'agent_end', data: { profile: 'explore' } });
  });
});

describe('agentic wrappers: cost, descriptions, inheritance', () => {
  it("carries the child's cost when its model has a price, and no cost_usd when it has none", async () => {
    const priced = await wrapperRun(
      {},
      [
        { agent: 'explore', ...{ tool_calls: [{ name: 'read_file', args: { path: 'app.log' } }] } },
        { agent: 'explore', text: 'ok' },
      ],
      {
        input: 1,
        output: 1,
      },
    );
    const r = await priced.rt.ok('agentic_read_file', { request: 'read app.log' });
    expect(r.cost_usd).toEqual(expect.any(Number));
    expect(r.cost_usd as number).toBeGreaterThan(0);
    const unpriced = await wrapperRun({}, [{ agent: 'explore', text: 'ok' }]);
    expect(await unpriced.rt.ok('agentic_read_file', { request: 'read app.log' })).toEqual({ digest: 'ok', turns_used: 1 });
  });

  it("read_file's description points to agentic_read_file when it is registered, and golem's names ReadFile", async () => {
    const on = await wrapperRun({}, []);
    expect(on.rt.catalog.get('read_file')!.description).toContain('`agentic_read_file` reads it in a sub-agent');
    expect(on.rt.catalog.get('agentic_read_file')!.description).toContain('INSTEAD OF `read_file`');
    expect(on.rt.catalog.get('agentic_read_file')!.description).toContain('at most 500 words');
    expect(on.rt.catalog.get('agentic_research')!.description).toContain('at most 800 words');
    const off = await wrapperRun({ recipe: 'agents:\n  max_concurrent: 0\n' }, []);
    expect(off.rt.catalog.get('read_file')!.description).not.toContain('agentic');
    const golem = await wrapperRun({ dialect: 'golem' }, []);
    const d = golem.rt.catalog.get('agentic_read_file')!.description;
    expect(d).toContain('INSTEAD OF `ReadFile`');
    expect(d).not.toContain('read_file`');
  });

  it('a child that inherits its tools (general, explore) does not get the wrappers; their grant is read-only', async () => {
    const { rt } = await wrapperRun({}, []);
    const children = rt.services.delegator!;
    for (const p of children.profiles()) {
      expect(p.tools.filter((t) => t.startsWith('agentic_'))).toEqual([]);
    }
    for (const t of ['agentic_read_file', 'agentic_grep', 'agentic_research', 'agentic_fetch_url']) {
      if (rt.catalog.has(t)) expect(rt.catalog.get(t)!.readOnly).toBe(true);
    }
  });
});
