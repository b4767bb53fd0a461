// The built-in Kubernetes tools and wait_and_verify against the local control plane
// (or any cluster KUBECONFIG reaches). Each test makes its own namespace.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup, tempDir } from '../helpers/workspace.ts';
import { KUBECONFIG, kubectl, requireCluster, until, withNamespace } from './kube.ts';

const FAST = 'tools:\n  wait_and_verify: { min_interval_seconds: 0.2 }\n';

async function runtime(recipe = FAST, kubeconfig = KUBECONFIG!) {
  return setup({ recipe, env: { KUBECONFIG: kubeconfig } });
}

describe('Kubernetes tools on a real API server', () => {
  it('get, list, events and rollout status of a Deployment; wait_and_verify sees a scale-up converge', async () => {
    await requireCluster();
    await withNamespace('k8s-tools', {}, async (ns) => {
      await kubectl(['-n', ns, 'create', 'deployment', 'web', '--image=registry.k8s.io/pause:3.10', '--replicas=2']);
      await kubectl(['-n', ns, 'annotate', 'deployment', 'web', 'kubectl.kubernetes.io/last-applied-configuration={"big":"copy"}']);
      const rt = await runtime();

      const converged = await rt.ok('wait_and_verify', {
        tool: 'k8s_rollout_status',
        args: { kind: 'deploy', name: 'web', namespace: ns },
        expect_jq: '.converged and .ready == 2',
        interval_seconds: 0.5,
        timeout_seconds: 60,
      });
      expect(converged).toMatchObject({ verified: true, outcome: 'verified' });

      const deploy = await rt.ok('k8s_get', { kind: 'deployments.apps', name: 'web', namespace: ns });
      expect(deploy).toMatchObject({ kind: 'Deployment', metadata: { name: 'web', namespace: ns }, status: { readyReplicas: 2 } });
      const text = JSON.stringify(deploy);
      expect(text).not.toContain('managedFields');
      expect(text).not.toContain('last-applied-configuration');

      const pods = await rt.ok('k8s_list', { kind: 'po', namespace: ns, label_selector: 'app=web' });
      expect(pods).toMatchObject({ kind: 'Pod', namespace: ns, count: 2 });
      for (const p of pods.items as Array<Record<string, unknown>>) {
        expect(p).toMatchObject({ namespace: ns, phase: 'Running', ready: '1/1', restarts: 0 });
        expect(String(p.owner)).toMatch(/^ReplicaSet\/web-/);
      }
      // KWOK's kubelet serves every container the same log (test/cluster/up.sh).
      const podName = String((pods.items as Array<{ name: string }>)[0]!.name);
      const tail = await rt.ok('k8s_logs', { pod: podName, namespace: ns, tail_lines: 2 });
      expect(tail).toMatchObject({ pod: podName, namespace: ns });
      expect(String(tail.log).trim().split('\n')).toEqual(['GET /healthz 200 in 3ms (request 60)', 'ready']);
      const capped = await rt.ok('k8s_logs', { pod: podName, namespace: ns, tail_lines: 1000, max_bytes: 1024 });
      expect(capped).toMatchObject({ truncated: true });
      expect(Buffer.byteLength(String(capped.log))).toBeLessThanOrEqual(1024);
      expect(await rt.refused('k8s_logs', { pod: podName, namespace: ns, container: 'nope' })).toMatch(/nope/);

      const full = await rt.ok('k8s_list', { kind: 'pods', namespace: ns, output: 'full', limit: 1 });
      expect(full).toMatchObject({ count: 1, continue: expect.any(String) });
      expect(JSON.stringify(full)).not.toContain('managedFields');

      const events = await rt.ok('k8s_events', { namespace: ns, kind: 'deploy', name: 'web' });
      expect(
        (events.events as Array<{ reason: string; object: string }>).some(
          (e) => e.reason === 'ScalingReplicaSet' && e.object === 'Deployment/web',
        ),
      ).toBe(true);

      // Scale up, then wait for it: verified, with the observation trail and the last result.
      await kubectl(['-n', ns, 'scale', 'deployment', 'web', '--replicas=4']);
      const scaled = await rt.ok('wait_and_verify', {
        tool: 'k8s_rollout_status',
        args_json: JSON.stringify({ kind: 'Deployment', name: 'web', namespace: ns }),
        expect_jq: '.converged and .ready == 4',
        interval_seconds: 0.2,
        timeout_seconds: 60,
      });
      expect(scaled).toMatchObject({ verified: true, tool: 'k8s_rollout_status' });
      expect(scaled.last_result).toMatchObject({ desired: 4, ready: 4, available: 4, converged: true });

      // An impossible condition is an unverified result with the trail, not an error.
      const never = await rt.ok('wait_and_verify', {
        tool: 'k8s_rollout_status',
        args: { kind: 'deploy', name: 'web', namespace: ns },
        expect_jq: '.ready == 40',
        interval_seconds: 0.2,
        timeout_seconds: 1.5,
      });
      expect(never).toMatchObject({ verified: false, outcome: 'timeout' });
      expect((never.observations as unknown[]).length).toBeGreaterThan(1);

      const resources = await rt.ok('k8s_api_resources', { name_contains: 'secret' });
      expect(resources.resources).toContainEqual(expect.objectContaining({ kind: 'Secret', denied: true }));
    });
  }, 180_000);

  it('refuses Secrets (and recipe-denied kinds) everywhere; surfaces RBAC 403s and missing objects clearly', async () => {
    await requireCluster();
    await withNamespace('k8s-deny', {}, async (ns) => {
      await kubectl(['-n', ns, 'create', 'secret', 'generic', 'db', '--from-literal=password=hunter2']);
      await kubectl(['-n', ns, 'create', 'configmap', 'cfg', '--from-literal=k=v']);
      const rt = await runtime(`${FAST}kubernetes:\n  denied_resources: [{kind: configmaps}]\n`);
      for (const call of [
        ['k8s_get', { kind: 'secret', name: 'db', namespace: ns }],
        ['k8s_get', { kind: 'Secret', api_version: 'v1', name: 'db', namespace: ns }],
        ['k8s_list', { kind: 'secrets', namespace: ns }],
        ['k8s_list', { kind: 'secrets', all_namespaces: true }],
      ] as const) {
        expect(await rt.refused(call[0], call[1])).toMatch(/Secrets are always refused/);
      }
      expect(await rt.refused('k8s_list', { kind: 'cm', namespace: ns })).toMatch(/kubernetes\.denied_resources/);
      expect(JSON.stringify(await rt.ok('k8s_events', { namespace: ns }))).not.toContain('hunter2');

      expect(await rt.refused('k8s_get', { kind: 'pod', name: 'nope', namespace: ns })).toMatch(
        /^k8s_get: not found \(404\): pods "nope" not found/,
      );
      expect(await rt.refused('k8s_get', { kind: 'frobnicator', name: 'x' })).toMatch(/serves no resource "frobnicator"/);
      expect(await rt.refused('k8s_logs', { pod: 'nope', namespace: ns })).toMatch(/not found \(404\)/);
      expect(await rt.refused('k8s_rollout_status', { kind: 'pod', name: 'x', namespace: ns })).toMatch(/not Pod/);

      // A service account with no role at all: every read is a 403 that says so.
      await kubectl(['-n', ns, 'create', 'serviceaccount', 'nobody']);
      const token = (await kubectl(['-n', ns, 'create', 'token', 'nobody'])).trim();
      const admin = JSON.parse(await kubectl(['config', 'view', '--raw', '--minify', '-o', 'json'])) as {
        clusters: Array<{ cluster: Record<string, string> }>;
      };
      const dir = await tempDir();
      const restricted = path.join(dir, 'kubeconfig');
      await writeFile(
        restricted,
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Config',
          clusters: [{ name: 'c', cluster: admin.clusters[0]!.cluster }],
          users: [{ name: 'nobody', user: { token } }],
          contexts: [{ name: 'nobody', context: { cluster: 'c', user: 'nobody', namespace: ns } }],
          'current-context': 'nobody',
        }),
      );
      const weak = await runtime(FAST, restricted);
      const forbidden = await until('a 403 from the API (discovery may need a moment)', 20_000, async () => {
        const r = await weak.dispatcher.call('k8s_list', { kind: 'pods' });
        return !r.ok && r.error;
      });
      expect(forbidden).toMatch(/forbidden \(403, RBAC\): .*system:serviceaccount:.*:nobody.*cannot list resource "pods"/);
    });
  }, 120_000);
});
