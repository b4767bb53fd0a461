import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planGated } from '../../src/tools/planning/record-plan.ts';
import { SessionState } from '../../src/tools/framework/session.ts';
import { recipeWith, stdioServer } from '../mcp/helpers.ts';
import { setup, tempDir, writeTree } from '../helpers/workspace.ts';
import { GATED_ARGS, OPEN_WORLD, RUNS_BEFORE_PLAN } from './plan-first.cases.ts';
import { kindTraits } from '../../src/tools/framework/kinds.ts';
import { installSciontool } from '../helpers/sciontool.ts';
import { ChildAgents } from '../../src/runtime/child-agents.ts';

const PLAN_FIRST = /plan-first mode requires record_plan/;

/** A runtime in which every built-in tool is registered — a cluster, url_scope, search, alerts, skills, the session services — and an MCP server. */
async function everything() {
  const config = await tempDir('core-agent-plan-first-');
  const kubeconfig = path.join(config, 'kubeconfig');
  // Nothing listens on port 1: a call that got past the gate would fail to connect, never reach a cluster.
  await writeFile(
    kubeconfig,
    'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\n' +
      'users: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u, namespace: default}}]\ncurrent-context: x\n',
  );
  await writeTree(path.join(config, 'skills'), { 'demo/SKILL.md': '---\nname: demo\ndescription: A demo skill.\n---\n\n# demo\n' });
  const session = new SessionState();
  const services = {
    asker: { ask: async () => ({ answer: 'default' as const }) },
    checkpointer: { request: () => {} },
    scheduler: { request: () => null },
    peerRoster: { peers: () => [] },
    delegator: new ChildAgents(),
  };
  const sciontool = await installSciontool();
  const rt = await setup({
    commandEnv: { ...process.env, PATH: `${sciontool.bin}:${process.env.PATH}` },
    tree: { 'a.txt': 'alpha\n', 'data.json': '{"k": 1}', 'del.txt': 'x' },
    flags: { mode: 'yolo' }, // only plan-first may refuse here
    env: { HOOK: 'http://127.0.0.2:9/' },
    rawStore: true,
    // A home of the user's own: the memory tools and the skill writers are registered.
    stateDir: path.join(config, 'state'),
    session,
    services,
    recipe: recipeWith(
      stdioServer(),
      'permissions:\n  plan_mode: required\n  url_scope: { allow: ["http://127.0.0.1"] }\n' +
        'web_search: { provider: searxng, url: "http://127.0.0.2:9/" }\n' +
        'alerts:\n  targets:\n    oncall: { url_env: HOOK }\n' +
        `kubernetes: { kubeconfig: ${JSON.stringify(kubeconfig)} }\n` +
        `skills: { dirs: [${JSON.stringify(path.join(config, 'skills'))}] }\n` +
        'peers: { hub: true }\n' +
        // Every tool, the other dialects' too (two for some jobs, on purpose): plan-first holds each.
        'tools: { call_peer: { enabled: true }, enable: [apply_patch, web_fetch, request_user_input, update_plan, memory_view, memory_write, memory_create, memory_insert, memory_str_replace, memory_rename, memory_delete], allow_overlap: true }\n',
    ),
  });
  return rt;
}

/**
 * A built-in tool in neither table (a new one) is judged by the rule itself, stated
 * apart from planGated: it may run before the plan when it only reads this machine
 * or keeps the session's own books; anything else waits.
 */
function localByKind(t: { name: string; def: { kind: Parameters<typeof kindTraits>[0] } }): boolean {
  if (t.name.startsWith('mcp.')) return false;
  const k = kindTraits(t.def.kind);
  return (k.readOnly && !k.openWorld) || k.lifecycle;
}

describe('plan-first: what waits for record_plan', () => {
  it('holds back every tool that changes state or reaches outside the machine, and only those', async () => {
    const rt = await everything();
    // Every built-in is registered, so a new conditional tool cannot slip past this test unconfigured.
    expect(rt.catalog.skipped).toEqual([]);
    const tools = rt.catalog.list();
    expect(tools.some((t) => t.name.startsWith('mcp.'))).toBe(true);
    const gated: string[] = [];
    const gatedAsOffered: string[] = [];
    for (const t of tools) {
      if (t.name === 'record_plan') continue;
      const local = RUNS_BEFORE_PLAN[t.name] ?? (GATED_ARGS[t.name] || !localByKind(t) ? undefined : { args: {}, ok: false });
      const r = await rt.dispatcher.call(t.modelName, local?.args ?? GATED_ARGS[t.name] ?? {});
      if (local) {
        if (local.ok) expect(r.ok, `${t.name} runs before the plan: ${r.ok ? '' : r.error}`).toBe(true);
        else expect(r.ok ? '' : r.error, `${t.name} is not held back`).not.toMatch(PLAN_FIRST);
        expect(planGated(t.def), t.name).toBe(false);
      } else {
        expect(r.ok ? 'ran' : r.error, `${t.name} waits for the plan`).toMatch(
          new RegExp(`^${t.modelName}: permission denied: ${PLAN_FIRST.source}`),
        );
        expect(planGated(t.def), t.name).toBe(true);
        gated.push(t.name);
        gatedAsOffered.push(t.modelName);
      }
    }
    // What the record_plan description promises is what the gate does (it is rendered with the
    // built-in catalog, before MCP servers report their tools; the result below names those too).
    const description = rt.catalog.get('record_plan')!.description;
    for (const t of tools.filter((t) => !t.name.startsWith('mcp.')))
      expect(description.includes(`\`${t.name}\``), t.name).toBe(gated.includes(t.name));
    expect(gated).toEqual(
      expect.arrayContaining(['fetch_url', 'web_fetch', 'web_search', 'k8s_get', 'k8s_api_resources', 'bash', 'write_file']),
    );

    // After the plan nothing is held back: each call now fails, if at all, for its own reasons.
    const plan = await rt.ok('record_plan', { plan: '1. Look.\n2. Change nothing.' });
    expect(String(plan.message)).toContain(`Now unblocked for this session: ${gatedAsOffered.join(', ')}.`);
    for (const t of tools) {
      if (t.name.startsWith('mcp.') || !gated.includes(t.name)) continue;
      const r = await rt.dispatcher.call(t.modelName, GATED_ARGS[t.name] ?? {});
      expect(r.ok ? '' : r.error, t.name).not.toMatch(PLAN_FIRST);
    }
  }, 60_000);

  it('marks exactly the tools that reach outside the machine as open-world (mcp serve: openWorldHint)', async () => {
    const rt = await everything();
    const openWorld = rt.catalog
      .list()
      .filter((t) => !t.name.startsWith('mcp.') && kindTraits(t.def.kind).openWorld)
      .map((t) => t.name);
    expect(openWorld.sort()).toEqual([...OPEN_WORLD].sort());
  });
});

describe('plan-first speaks the dialect the model sees', () => {
  for (const [dialect, writer, record] of [
    ['golem', 'WriteFile', { path: 'b.txt', content: 'x' }],
    ['core-agent', 'write_file', { path: 'b.txt', content: 'x' }],
  ] as const) {
    it(`${dialect}: the refusal and the unblocked list name ${writer}`, async () => {
      const rt = await setup({
        tree: { 'a.txt': 'alpha\n' },
        flags: { mode: 'yolo' },
        recipe: `permissions:\n  plan_mode: required\ntools: { dialect: ${dialect} }\n`,
      });
      const refused = await rt.dispatcher.call(writer, record);
      expect(refused.ok ? 'ran' : refused.error).toMatch(new RegExp(`^${writer}: permission denied: ${PLAN_FIRST.source}`));
      // Only the name the model was offered: never the other dialect's name for the same tool.
      if (writer !== 'write_file') expect(refused.ok ? '' : refused.error).not.toContain('write_file');
      const plan = await rt.ok('record_plan', { plan: '1. Write b.txt.' });
      expect(String(plan.message)).toMatch(new RegExp(`Now unblocked for this session: .*\\b${writer}\\b`));
      if (writer !== 'write_file') expect(String(plan.message)).not.toContain('write_file');
      expect((await rt.dispatcher.call(writer, record)).ok).toBe(true);
    });
  }
});
