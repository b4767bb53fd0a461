import { describe, expect, it } from 'vitest';
import { canonicalName, modelFacingName } from '../../src/mcp/names.ts';
import { gateNamespace, parseRule, ruleMatches } from '../../src/permissions/rules.ts';
import { recipeProblems } from '../helpers/recipe.ts';
import { setup } from '../helpers/workspace.ts';

const problems = recipeProblems;

describe('MCP declarations', () => {
  it('accepts stdio and http servers in a recipe', async () => {
    expect(
      await problems(`mcp:
  servers:
    k8s: {command: npx, args: [kubernetes-mcp-server, --read-only], env: {KUBECONFIG: "\${KUBECONFIG}"}, read_only: true}
    gke:
      url: https://container.googleapis.com/mcp
      google_auth: {scopes: [https://www.googleapis.com/auth/cloud-platform]}
      poll_allow: [get_cluster]
      call_timeout_seconds: 60
`),
    ).toEqual([]);
  });

  it('reports mistakes with their position and the fix', async () => {
    const found = await problems(`mcp:
  servers:
    a: {command: x, read_onyl: true}
    b: {url: "https://h/mcp", command: y}
    c: {args: [z]}
    "bad name": {command: x}
    d: {url: "https://user:pw@h/mcp"}
`);
    expect(found).toEqual([
      expect.stringMatching(/^r\.yaml:3:21: mcp\.servers\.a: unknown key "read_onyl" — did you mean "read_only"\?/),
      expect.stringMatching(/^r\.yaml:4:\d+: mcp\.servers\.b\.command: command is for stdio servers; this one is http/),
      expect.stringMatching(/^r\.yaml:5:\d+: mcp\.servers\.c\.command: a stdio server needs command/),
      expect.stringMatching(/^r\.yaml:6:\d+: mcp\.servers\.bad name: a server name starts with a letter/),
      expect.stringMatching(/^r\.yaml:7:\d+: mcp\.servers\.d\.url: no user:password@/),
    ]);
  });

  it('a broken .agents/mcp.json stops the run with its position', async () => {
    await expect(
      setup({ flags: { trustWorkspace: true }, tree: { '.agents/mcp.json': '{"servers": {"x": {"comand": "y"}}}' } }),
    ).rejects.toThrow(/mcp\.json:1:\d+: servers\.x: unknown key "comand" — did you mean "command"\?/);
  });
});

describe('MCP names', () => {
  const none = () => false;
  it('keeps a legal name, and hashes one that is not legal or too long', () => {
    expect(modelFacingName('gke', 'get_k8s_resource', none)).toBe('gke_get_k8s_resource');
    const long = modelFacingName('server', 'y'.repeat(100), none);
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^server_y+_[0-9a-f]{8}$/);
    const a = modelFacingName('s', 'get.pod', none);
    const b = modelFacingName('s', 'get/pod', none);
    const c = modelFacingName('s', 'get pod', none);
    expect(new Set([a, b, c]).size).toBe(3);
    for (const n of [a, b, c]) expect(n).toMatch(/^s_get_pod_[0-9a-f]{8}$/);
    // Stable: the same tool gets the same name every time.
    expect(modelFacingName('s', 'get.pod', none)).toBe(a);
  });

  it('never collides: a taken name (a built-in, another tool) gets a hash, then a longer one', () => {
    const taken = new Set(['read_file']);
    const n = modelFacingName('read', 'file', (x) => taken.has(x));
    expect(n).toMatch(/^read_file_[0-9a-f]{8}$/);
    taken.add(n);
    expect(modelFacingName('read', 'file', (x) => taken.has(x))).toMatch(/^read_file_[0-9a-f]{12}$/);
    // 100-character names that differ only at the end stay distinct after the cut.
    const x = modelFacingName('s', `${'z'.repeat(99)}1`, none);
    const y = modelFacingName('s', `${'z'.repeat(99)}2`, none);
    expect(x).not.toBe(y);
    expect(canonicalName('s', 'get.pod')).toBe('mcp.s.get.pod');
  });
});

describe('permission rules for MCP tools', () => {
  const matches = (rule: string, tool: string) => ruleMatches(parseRule(rule), gateNamespace(tool), [], 'any');
  it('mcp.<server> covers the server, mcp.<server>.<tool> one tool, * anywhere', () => {
    expect(matches('mcp.gke', 'mcp.gke.get_pods')).toBe(true);
    expect(matches('mcp.gke', 'mcp.gke2.get_pods')).toBe(false);
    expect(matches('mcp.gke.get_*', 'mcp.gke.get_pods')).toBe(true);
    expect(matches('mcp.gke.get_*', 'mcp.gke.delete_pod')).toBe(false);
    expect(matches('mcp.*', 'mcp.any.thing')).toBe(true);
    expect(matches('mcp.*', 'read_file')).toBe(false);
    expect(matches('tool.*', 'mcp.gke.get_pods')).toBe(false);
    expect(matches('*', 'mcp.gke.get_pods')).toBe(true);
    expect(matches('mcp.fs.get.pod', 'mcp.fs.get.pod')).toBe(true);
  });

  it('refuses a :pattern on an MCP rule', () => {
    expect(() => parseRule('mcp.gke.get_pods:prod/*')).toThrow(/take no ":pattern"/);
    expect(() => parseRule('mcp.')).toThrow(/not a permission rule/);
  });
});
