// A profile's mcp: and skills: through the built CLI (profile-grants.cases.ts): the parent
// spawns `p`, the child's catalog (its session_start) and calls are read back from the log.
// Also the start-up refusals: a skill no directory has, an MCP server the recipe lacks.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../../src/store/event-log.ts';
import { bundle } from '../../helpers/cli.ts';
import { tempDir, writeTree } from '../../helpers/workspace.ts';
import { testServer } from '../../mcp/helpers.ts';
import { GRANT_CASES } from './profile-grants.cases.ts';

function run(ws: string, args: string[]) {
  const r = spawnSync(process.execPath, [bundle, ...args], { cwd: ws, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: ws } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} runbook.\n---\n# ${name}\n`;

async function workspace(profile: Record<string, unknown>, script: object[]) {
  const ws = await tempDir();
  const recipe = { mcp: { servers: { test: { command: process.execPath, args: [testServer] } } }, agents: { profiles: { p: profile } } };
  await writeTree(ws, {
    'notes.txt': 'the cache is cold\n',
    'recipe.yaml': JSON.stringify(recipe),
    '.agents/skills/alpha/SKILL.md': skill('alpha'),
    '.agents/skills/beta/SKILL.md': skill('beta'),
    's.jsonl': script.map((l) => JSON.stringify(l)).join('\n'),
  });
  return ws;
}

describe("a profile's mcp: and skills:", () => {
  it.for(GRANT_CASES.map((c) => [c.name, c] as const))('%s', { timeout: 120_000 }, async ([, c]) => {
    const calls = (c.childCalls ?? []).map((k) => ({ tool_calls: [{ name: k.name, args: k.args }] }));
    const ws = await workspace(c.profile, [
      { tool_calls: [{ name: 'spawn_agent', args: { agent: 'p', goal: 'work' } }] },
      ...(c.refused ? [] : [...calls, { text: 'done' }]),
      { text: 'ok' },
    ]);
    const r = run(ws, ['run', '-c', 'recipe.yaml', '-m', 'replay:s.jsonl', '--session-db', 'db', '--yolo', '-o', 'json', 'go']);
    expect(r.code, r.stderr).toBe(0);
    const log = EventLog.open(path.join(ws, 'db'));
    try {
      const parent = log.sessions().find((s) => !s.id.includes(':sub:'))!;
      const spawned = log.events(parent.id).find((e) => e.kind === 'tool_result' && e.data.name === 'spawn_agent')?.data.shown as {
        status: string;
      };
      if (c.refused) {
        expect(spawned.status).toMatch(c.refused);
        return;
      }
      const toolsOf = (id: string) => log.events(id).find((e) => e.kind === 'session_start')!.data.tools as string[];
      const mcpOf = (id: string) => toolsOf(id).filter((t) => t.startsWith('mcp.'));
      const child = `${parent.id}:sub:p-1`;
      expect(mcpOf(parent.id).length).toBeGreaterThan(3);
      if (c.mcp !== undefined) expect(mcpOf(child)).toEqual(c.mcp === 'parent' ? mcpOf(parent.id) : c.mcp);
      if (c.skillTool !== undefined) expect(toolsOf(child).includes('skill')).toBe(c.skillTool);
      const ran = log
        .events(child)
        .filter((e) => e.kind === 'tool_result')
        .map((e) => ({ name: e.data.name, ok: e.data.ok }));
      expect(ran).toEqual((c.childCalls ?? []).map((k) => ({ name: k.name, ok: k.ok })));
    } finally {
      log.close();
    }
  });

  it('a skill no skills directory has: the start is refused (exit 2), naming the field and the skills there are', async () => {
    const ws = await workspace({ description: 'd', skills: ['alpah'] }, [{ text: 'ok' }]);
    const r = run(ws, ['run', '-c', 'recipe.yaml', '-m', 'replay:s.jsonl', '--session-db', 'db', '--yolo', 'go']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/recipe\.yaml:\d+:\d+: agents\.profiles\.p\.skills\.0: unknown skill "alpah" — did you mean "alpha"\?/);
  });

  it('an unknown skill in a YAML recipe: its line:col, the first unknown one, without the MCP server', async () => {
    const ws = await tempDir();
    await writeTree(ws, {
      'recipe.yaml': 'agents:\n  profiles:\n    p:\n      description: d\n      skills: [alpha, alpah]\n',
      '.agents/skills/alpha/SKILL.md': skill('alpha'),
      's.jsonl': JSON.stringify({ text: 'ok' }),
    });
    const r = run(ws, ['run', '-c', 'recipe.yaml', '-m', 'replay:s.jsonl', '--session-db', 'db', '--yolo', 'go']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('recipe.yaml:5:23: agents.profiles.p.skills.1: unknown skill "alpah" — did you mean "alpha"?');
  });

  it('an MCP server the recipe does not declare: a load error at its line:col', async () => {
    const ws = await tempDir();
    await writeTree(ws, {
      'recipe.yaml': 'agents:\n  profiles:\n    p:\n      description: d\n      mcp: [gke, "gke:get_pods"]\n',
      's.jsonl': JSON.stringify({ text: 'ok' }),
    });
    const r = run(ws, ['recipe', 'validate', 'recipe.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/recipe\.yaml:5:13: agents\.profiles\.p\.mcp\.0: MCP server "gke" is not declared/);
    expect(r.stderr).toMatch(/recipe\.yaml:5:18: agents\.profiles\.p\.mcp\.1: MCP server "gke" is not declared/);
  });
});
