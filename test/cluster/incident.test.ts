// The operator's scenario end to end, on the local control plane: a Deployment whose pods
// crash-loop (the KWOK stage in test/cluster/stages/), the remediation recipe, the model's
// decisions replayed from a script and every tool call real — the built-in Kubernetes
// tools, kubernetes-mcp-server as a process, the k8s-triage skill, wait_and_verify, and an
// alert to a webhook on 127.0.0.1. The session log holds it all.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';
import {
  KUBECONFIG,
  kubectl,
  pathWithKubernetesMcpServer,
  kubectlJson,
  podReady,
  requireCluster,
  until,
  webDeployment,
  withNamespace,
  type Pod,
} from './kube.ts';
import { webhook } from './webhook.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

const deployment = (ns: string, crash: boolean) => webDeployment(ns, { crash });

describe('incident end to end (replayed model, real tools)', () => {
  it('crash-looping Deployment → plan, skill, diagnosis, a patch through MCP, verified, alert', async () => {
    await requireCluster();
    await withNamespace('incident', {}, async (ns) => {
      await kubectl(['apply', '-f', '-'], JSON.stringify(deployment(ns, true)));
      await until('pods crash-looping', 30_000, async () => {
        const pods = await kubectlJson<{ items: Pod[] }>(['-n', ns, 'get', 'pods', '-l', 'app=web']);
        return pods.items.length === 2 && JSON.stringify(pods.items).includes('CrashLoopBackOff');
      });
      const hook = await webhook();

      // The shipped remediation recipe, with the one write this run makes pre-approved
      // (headless, nobody can answer the prompt) and paths made absolute.
      const ws = await tempDir();
      const shipped = await readFile(path.join(root, 'recipes/k8s-remediate.yaml'), 'utf8');
      const recipe = shipped
        .replace('dirs: [../skills]', `dirs: [${JSON.stringify(path.join(root, 'skills'))}]`)
        .replace('${CORE_AGENT_RECIPE_DIR}', path.join(root, 'recipes'))
        .replace('  allow: [tool.alert]\n', '  allow: [tool.alert, mcp.kubernetes.resources_create_or_update]\n');
      await writeFile(path.join(ws, 'remediate.yaml'), recipe);

      const target = { kind: 'Deployment', name: 'web', namespace: ns };
      const turns = [
        {
          text: 'Recording the plan first.',
          tool_calls: [
            {
              name: 'record_plan',
              args: { plan: `1. Triage deployment web in ${ns} with k8s-triage.\n2. Fix the cause.\n3. Verify convergence.` },
            },
          ],
        },
        { tool_calls: [{ name: 'skill', args: { name: 'k8s-triage' } }] },
        {
          tool_calls: [
            { name: 'k8s_rollout_status', args: target },
            { name: 'k8s_list', args: { kind: 'pods', namespace: ns, label_selector: 'app=web' } },
            { name: 'kubernetes_pods_list_in_namespace', args: { namespace: ns } },
          ],
        },
        {
          tool_calls: [
            { name: 'skill', args: { name: 'k8s-triage', file: 'references/crashloopbackoff.md' } },
            { name: 'k8s_events', args: { namespace: ns, kind: 'Deployment', name: 'web' } },
            { name: 'k8s_get', args: target },
          ],
        },
        { tool_calls: [{ name: 'kubernetes_resources_create_or_update', args: { resource: JSON.stringify(deployment(ns, false)) } }] },
        {
          tool_calls: [
            {
              name: 'wait_and_verify',
              args: {
                tool: 'k8s_rollout_status',
                args: target,
                expect_jq: '.converged and .ready == 2',
                interval_seconds: 1,
                timeout_seconds: 90,
              },
            },
          ],
        },
        {
          tool_calls: [
            {
              name: 'alert',
              args: {
                target: 'oncall',
                level: 'resolved',
                summary: `RESOLVED ${ns}/web: crash-looping pods replaced`,
                details: 'The pod template crash flag was turned off; rollout verified.',
              },
            },
          ],
        },
        { text: `RESOLVED ${ns}/web: verified by wait_and_verify (2/2 ready).` },
      ];
      const script = path.join(ws, 'script.jsonl');
      await writeFile(script, turns.map((t) => JSON.stringify(t)).join('\n'));
      const db = path.join(ws, 'sessions.db');
      // Asynchronously: the webhook receiver lives in this process.
      const r = await runCli(
        [
          'run',
          '-m',
          `replay:${script}`,
          '-c',
          path.join(ws, 'remediate.yaml'),
          '-o',
          'json',
          '--session-db',
          db,
          `Pods of deployment web in ${ns} are crash-looping`,
        ],
        ws,
        { KUBECONFIG, ONCALL_WEBHOOK_URL: hook.url, PATH: pathWithKubernetesMcpServer() },
      );
      expect(r.code, r.stderr).toBe(0);

      const log = EventLog.open(db);
      const id = log.sessions()[0]!.id;
      type Result = {
        name: string;
        ok: boolean;
        shown: Record<string, unknown>;
        source?: string;
        call_id: string;
        parent_call_id?: string;
      };
      const all = log
        .events(id)
        .filter((e) => e.kind === 'tool_result')
        .map((e) => e.data as Result);
      log.close();
      // The model's calls; wait_and_verify's polls are on the record too, under their parent.
      const results = all.filter((x) => x.source !== 'poll');
      const polls = all.filter((x) => x.source === 'poll');
      const wait = results.find((x) => x.name === 'wait_and_verify')!;
      expect(polls.length).toBeGreaterThan(0);
      expect(polls.every((p) => p.name === 'k8s_rollout_status' && p.parent_call_id === wait.call_id)).toBe(true);
      expect(polls.at(-1)!.shown).toMatchObject({ converged: true });
      // Every call succeeded. Read-only calls of one response run concurrently and are logged
      // as they finish; the rest keep the script's order.
      expect(results.filter((x) => !x.ok)).toEqual([]);
      const names = results.map((x) => x.name);
      expect([...names].sort()).toEqual(
        [
          'record_plan',
          'skill',
          'k8s_rollout_status',
          'k8s_list',
          'kubernetes_pods_list_in_namespace',
          'skill',
          'k8s_events',
          'k8s_get',
          'kubernetes_resources_create_or_update',
          'wait_and_verify',
          'alert',
        ].sort(),
      );
      expect(names.slice(0, 2)).toEqual(['record_plan', 'skill']);
      expect(names.slice(-3)).toEqual(['kubernetes_resources_create_or_update', 'wait_and_verify', 'alert']);
      const byName = (n: string) => results.find((x) => x.name === n)!.shown;
      expect(byName('k8s_rollout_status')).toMatchObject({ converged: false });
      expect(JSON.stringify(byName('k8s_list'))).toContain('CrashLoopBackOff');
      expect(byName('wait_and_verify'), JSON.stringify(byName('wait_and_verify')).slice(0, 3000)).toMatchObject({
        verified: true,
        outcome: 'verified',
      });

      // The alert reached the receiver, and the cluster really is healthy.
      expect(hook.received).toHaveLength(1);
      expect(JSON.stringify(hook.received[0])).toContain(`RESOLVED ${ns}/web`);
      const pods = await kubectlJson<{ items: Pod[] }>(['-n', ns, 'get', 'pods', '-l', 'app=web']);
      const live = pods.items.filter((p) => !p.metadata.deletionTimestamp);
      expect(live.filter(podReady)).toHaveLength(2);
    });
  }, 200_000);
});
