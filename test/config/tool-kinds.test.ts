// tools.kinds: a recipe says which kinds of built-in tool it allows, and every tool of another
// kind stays out — the ones this build has and any added later (the check runs over the whole
// built-in list, not a list of names).
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { TOOL_KINDS, type ToolKind } from '../../src/core/tool-kinds.ts';
import { BUILTIN_PROFILES } from '../../src/runtime/child-agents.ts';
import { BUILTIN_TOOLS } from '../../src/tools/index.ts';
import { setup, tempDir } from '../helpers/workspace.ts';

const bundle = fileURLToPath(new URL('../../dist/core-agent.mjs', import.meta.url));
const recipes = fileURLToPath(new URL('../../recipes/', import.meta.url));
const kindOf = new Map(BUILTIN_TOOLS.map((t) => [t.name, t.kind] as const));

describe('tools.kinds', () => {
  // Each kind alone, then the incident recipes' set: nothing of another kind is registered.
  const allowedSets: ToolKind[][] = [...TOOL_KINDS.map((k) => [k]), ['read', 'read_remote', 'send', 'lifecycle', 'ask']];
  for (const allowed of allowedSets) {
    it(`[${allowed.join(', ')}]: only built-in tools of those kinds are registered`, async () => {
      const rt = await setup({ recipe: `tools:\n  kinds: [${allowed.join(', ')}]\n` });
      for (const t of rt.catalog.list()) {
        if (t.name.startsWith('mcp.')) continue;
        expect(allowed, `${t.name} (${t.def.kind})`).toContain(t.def.kind);
      }
      const out = BUILTIN_TOOLS.filter((t) => !allowed.includes(t.kind));
      for (const t of out) {
        expect(rt.catalog.has(t.name), t.name).toBe(false);
        expect(rt.catalog.notRegistered(t.name), t.name).toMatch(
          new RegExp(`its kind \\(${t.kind}\\) is not among the kinds this recipe allows`),
        );
      }
    });
  }

  it('a tool enabled by name is the exception', async () => {
    const rt = await setup({ recipe: 'tools:\n  kinds: [read]\n  enable: [write_file]\n' });
    expect(rt.catalog.has('write_file')).toBe(true);
    expect(rt.catalog.has('edit_file')).toBe(false);
  });

  it('an unknown kind is an error naming the field and the kinds', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'r.yaml'), 'tools:\n  kinds: [reed]\n');
    const r = spawnSync(process.execPath, [bundle, 'recipe', 'validate', 'r.yaml'], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: dir },
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/tools\.kinds\.0/);
    expect(r.stderr).toMatch(/read_remote/);
  });

  for (const recipe of ['k8s-incident.yaml', 'gke-incident.yaml', 'k8s-watch.yaml', 'k8s-remediate.yaml']) {
    it(`recipes/${recipe}: no built-in tool that edits, executes or changes`, async () => {
      const r = spawnSync(process.execPath, [bundle, 'recipe', 'validate', path.join(recipes, recipe)], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: await tempDir() },
      });
      expect(r.status, r.stderr).toBe(0);
      const listed = /tools \(\d+, dialect [a-z-]+\): (.*)/.exec(r.stdout)![1]!.split(', ');
      expect(listed).toEqual(expect.arrayContaining(['read_file', 'wait_and_verify']));
      for (const name of listed) expect(['read', 'read_remote', 'send', 'lifecycle', 'ask'], name).toContain(kindOf.get(name));
    });
  }

  // `recipe validate` lists no delegation tool (it starts no agent), so the one exception the
  // incident recipes make — spawn_agent, to hand a long log to a child — is checked here: every
  // profile they let a headless run spawn is read-only, and none may be spawned unnamed.
  for (const recipe of ['k8s-incident.yaml', 'gke-incident.yaml']) {
    it(`recipes/${recipe}: spawn_agent is its only exception, pre-approved for read-only profiles only`, async () => {
      const r = parseYaml(await readFile(path.join(recipes, recipe), 'utf8')) as {
        tools: { enable?: string[] };
        agents?: { profiles?: Record<string, { read_only?: boolean }> };
        permissions: { allow: string[] };
      };
      expect(r.tools.enable).toEqual(['spawn_agent']);
      expect(r.permissions.allow).not.toContain('tool.spawn_agent');
      const spawnable = r.permissions.allow.filter((rule) => rule.startsWith('tool.spawn_agent:')).map((rule) => rule.slice(17));
      expect(spawnable.length).toBeGreaterThan(0);
      for (const name of spawnable) {
        const own = r.agents?.profiles?.[name];
        const readOnly = own ? own.read_only === true : BUILTIN_PROFILES.find((p) => p.name === name)?.readOnly;
        expect(readOnly, `${recipe}: profile ${name} is read-only`).toBe(true);
      }
    });
  }
});
