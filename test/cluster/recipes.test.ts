// The shipped incident recipes against the local control plane: what their catalogs can
// reach, MCP tools included.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { setup } from '../helpers/workspace.ts';
import { KUBECONFIG, kubectl, pathWithKubernetesMcpServer, requireCluster, withNamespace } from './kube.ts';
import { kindTraits } from '../../src/tools/framework/kinds.ts';

const recipes = fileURLToPath(new URL('../../recipes/', import.meta.url));
/** Tools that change nothing in the cluster although they are not read-only: session bookkeeping and the escalation. */
// Session bookkeeping and the alert: they change nothing in the cluster or the workspace.
const NOT_CLUSTER_WRITES = new Set(['todo', 'record_plan', 'update_plan', 'change_working_directory', 'alert']);

describe('recipes/k8s-incident.yaml', () => {
  it('has no tool that can write to the cluster or read a Secret — built-in or MCP', async () => {
    await requireCluster();
    await withNamespace('recipe', {}, async (ns) => {
      await kubectl(['-n', ns, 'create', 'secret', 'generic', 'db', '--from-literal=password=hunter2']);
      const rt = await setup({
        flags: { recipe: path.join(recipes, 'k8s-incident.yaml') },
        env: { KUBECONFIG: KUBECONFIG!, PATH: pathWithKubernetesMcpServer(), ONCALL_WEBHOOK_URL: 'http://127.0.0.1:9/hook' },
      });
      const tools = rt.catalog.list();
      const mcpTools = tools.filter((t) => t.name.startsWith('mcp.kubernetes.'));
      expect(mcpTools.length).toBeGreaterThan(5);
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['k8s_get', 'k8s_list', 'wait_and_verify', 'skill', 'alert']));
      for (const t of tools) {
        if (NOT_CLUSTER_WRITES.has(t.name)) continue;
        expect(t.readOnly, `${t.name} is read-only`).toBe(true);
        expect(kindTraits(t.def.kind).destructive, `${t.name} is not destructive`).toBe(false);
      }
      // kubernetes-mcp-server in --read-only mode offers no writing tool; the kubeconfig viewer is off.
      for (const t of mcpTools) expect(t.name).not.toMatch(/create|update|delete|patch|scale|exec|run|configuration_view/);
      expect(tools.some((t) => ['bash', 'write_file', 'edit_file', 'delete_file'].includes(t.name))).toBe(false);

      // Every route to a Secret is closed (after the plan: plan-first holds back every cluster read).
      await rt.ok('record_plan', { plan: '1. look' });
      expect(await rt.refused('k8s_get', { kind: 'Secret', name: 'db', namespace: ns })).toMatch(/Secrets are always refused/);
      expect(await rt.refused('k8s_list', { kind: 'secrets', namespace: ns })).toMatch(/Secrets are always refused/);
      const viaMcp = await rt.dispatcher.call('kubernetes_resources_get', { apiVersion: 'v1', kind: 'Secret', name: 'db', namespace: ns });
      expect(viaMcp.ok).toBe(false);
      expect(viaMcp.ok ? '' : viaMcp.error).toMatch(/denied|forbidden|not allowed/i);
      expect(JSON.stringify(viaMcp)).not.toContain('hunter2');
      const listed = await rt.dispatcher.call('kubernetes_resources_list', { apiVersion: 'v1', kind: 'Secret', namespace: ns });
      expect(JSON.stringify(listed)).not.toContain('hunter2');
      expect(JSON.stringify(listed)).not.toContain('aHVudGVyMg'); // base64 of the password
    });
  }, 120_000);
});
