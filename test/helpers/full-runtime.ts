import path from 'node:path';
import { BUILTIN_TOOL_NAMES } from '../../src/tools/index.ts';
import { UnattendedAsker } from '../../src/runtime/askers.ts';
import { ChildAgents } from '../../src/runtime/child-agents.ts';
import { installSciontool } from './sciontool.ts';
import { setup, tempDir, writeTree } from './workspace.ts';

/**
 * A runtime with every built-in tool registered, as the richest recipe gets it:
 * url_scope, a search provider, an alert target, a kubeconfig, a skill, plan-first,
 * sciontool on the PATH, a peer hub's (empty) roster with call_peer enabled, the delegation engine,
 * the session services and a store. Nothing it names is ever contacted — the
 * tests that use it stop at argument validation, or use only local tools.
 */
export async function fullRuntime() {
  const dir = await tempDir();
  const kubeconfig = path.join(dir, 'kubeconfig.yaml');
  await writeTree(dir, {
    'kubeconfig.yaml': 'apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n',
    '.agents/skills/demo/SKILL.md': '---\nname: demo\ndescription: A demo skill.\n---\n# demo\n',
  });
  const sciontool = await installSciontool();
  const rt = await setup({
    workspace: dir,
    commandEnv: { ...process.env, PATH: `${sciontool.bin}:${process.env.PATH}` },
    services: {
      asker: new UnattendedAsker(),
      checkpointer: { request: () => undefined },
      scheduler: { request: () => null },
      peerRoster: { peers: () => [] },
      delegator: new ChildAgents(),
    },
    rawStore: true,
    // A state directory: a user home, so the memory tools are registered.
    stateDir: await tempDir('core-agent-state-'),
    flags: { mode: 'yolo' },
    env: { HOME: dir, KUBECONFIG: kubeconfig, HOOK_URL: 'http://127.0.0.1:9/hook' },
    recipe: [
      'permissions:',
      '  plan_mode: required',
      '  url_scope: { allow: [example.com] }',
      'web_search: { provider: searxng, url: "http://127.0.0.1:9/search" }',
      'alerts:',
      '  targets:',
      '    oncall: { url_env: HOOK_URL }',
      'peers: { hub: true }',
      // Every tool, the other dialects' too: two for some jobs, on purpose.
      'tools: { call_peer: { enabled: true }, enable: [apply_patch, web_fetch, request_user_input, update_plan, delegate_agent, ask_user_question, memory_view, memory_write, memory_create, memory_insert, memory_str_replace, memory_rename, memory_delete], allow_overlap: true }',
      '',
    ].join('\n'),
  });
  const missing = BUILTIN_TOOL_NAMES.filter((n) => !rt.catalog.has(n));
  if (missing.length > 0) throw new Error(`fullRuntime: not registered: ${missing.join(', ')}`);
  return rt;
}
