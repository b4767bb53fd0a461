// Tests against a real Kubernetes API server (the local control plane from
// test/cluster/up.sh, or any cluster $KUBECONFIG reaches): scheduling and
// pods under KWOK, Pod Security admission, RBAC and watches.
//
// Needs KUBECONFIG; helpers in kube.ts.
import { spawn } from 'node:child_process';
import { describe, it, expect } from 'vitest';
import {
  KUBECONFIG,
  KUBECTL,
  kubectl,
  kubectlJson,
  podReady,
  requireCluster,
  run,
  suffix,
  until,
  withNamespace,
  type Pod,
} from './kube.ts';

describe('local Kubernetes control plane', () => {
  it('runs a 3-replica Deployment to 3 Running, Ready pods within 60 s, and scaling to 0 removes them', async () => {
    await requireCluster();
    await withNamespace('deploy', {}, async (ns) => {
      const started = Date.now();
      await kubectl(['-n', ns, 'create', 'deployment', 'web', '--image=registry.k8s.io/pause:3.10', '--replicas=3']);
      const pods = await until('3 Running, Ready pods', 60_000, async () => {
        const list = await kubectlJson<{ items: Pod[] }>(['-n', ns, 'get', 'pods', '-l', 'app=web']);
        const ready = list.items.filter((p) => !p.metadata.deletionTimestamp && podReady(p));
        return ready.length === 3 ? ready : undefined;
      });
      expect(Date.now() - started).toBeLessThanOrEqual(60_000);
      expect(pods).toHaveLength(3);
      for (const p of pods) expect(p.spec.nodeName, `${p.metadata.name} is scheduled`).toBeTruthy();
      const deploy = await kubectlJson<{ status: { readyReplicas?: number } }>(['-n', ns, 'get', 'deployment', 'web']);
      expect(deploy.status.readyReplicas).toBe(3);

      await kubectl(['-n', ns, 'scale', 'deployment', 'web', '--replicas=0']);
      await until('all pods of the Deployment gone', 60_000, async () => {
        const list = await kubectlJson<{ items: Pod[] }>(['-n', ns, 'get', 'pods', '-l', 'app=web']);
        return list.items.length === 0;
      });
    });
  }, 180_000);

  it('enforces pod-security.kubernetes.io/enforce=restricted: rejects a privileged pod, admits a compliant one', async () => {
    await requireCluster();
    await withNamespace('psa', { 'pod-security.kubernetes.io/enforce': 'restricted' }, async (ns) => {
      const pod = (name: string, spec: object) =>
        JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns }, spec });

      const privileged = await run(
        ['create', '-f', '-'],
        pod('privileged', {
          containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', securityContext: { privileged: true } }],
        }),
      );
      expect(privileged.code).not.toBe(0);
      expect(privileged.stderr).toMatch(/violates PodSecurity "restricted:/);
      expect(privileged.stderr).toMatch(/privileged/);
      expect((await run(['-n', ns, 'get', 'pod', 'privileged'])).code).not.toBe(0);

      await kubectl(
        ['create', '-f', '-'],
        pod('compliant', {
          securityContext: { runAsNonRoot: true, runAsUser: 65532, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [
            {
              name: 'c',
              image: 'registry.k8s.io/pause:3.10',
              securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
            },
          ],
        }),
      );
      const created = await kubectlJson<Pod>(['-n', ns, 'get', 'pod', 'compliant']);
      expect(created.metadata.name).toBe('compliant');
    });
  }, 90_000);

  it('refuses a write to a ServiceAccount bound to a read-only ClusterRole', async () => {
    await requireCluster();
    const role = `ca-test-readonly-${suffix()}`;
    try {
      await withNamespace('rbac', {}, async (ns) => {
        await kubectl(['-n', ns, 'create', 'serviceaccount', 'reader']);
        await kubectl(['create', 'clusterrole', role, '--verb=get,list,watch', '--resource=configmaps,pods']);
        await kubectl(['-n', ns, 'create', 'rolebinding', 'reader', `--clusterrole=${role}`, `--serviceaccount=${ns}:reader`]);
        await kubectl(['-n', ns, 'create', 'configmap', 'existing', '--from-literal=k=v']);
        const as = `--as=system:serviceaccount:${ns}:reader`;

        // The read is allowed (once the authorizer's cache has the binding) ...
        const read = await until('the ServiceAccount may read configmaps', 30_000, async () => {
          const r = await run([as, '-n', ns, 'get', 'configmap', 'existing', '-o', 'name']);
          return r.code === 0 ? r.stdout.trim() : undefined;
        });
        expect(read).toBe('configmap/existing');

        // ... and every write is refused by RBAC.
        const create = await run([as, '-n', ns, 'create', 'configmap', 'written', '--from-literal=k=v']);
        expect(create.code).not.toBe(0);
        expect(create.stderr).toMatch(/forbidden/i);
        expect(create.stderr).toContain(`system:serviceaccount:${ns}:reader`);
        expect(create.stderr).toMatch(/cannot create resource "configmaps"/);

        const del = await run([as, '-n', ns, 'delete', 'configmap', 'existing']);
        expect(del.code).not.toBe(0);
        expect(del.stderr).toMatch(/cannot delete resource "configmaps"/);

        expect((await run(['-n', ns, 'get', 'configmap', 'written'])).code).not.toBe(0);
        expect(await kubectl(['-n', ns, 'get', 'configmap', 'existing', '-o', 'name'])).toBe('configmap/existing\n');
      });
    } finally {
      await run(['delete', 'clusterrole', role, '--ignore-not-found']);
    }
  }, 90_000);

  it('delivers an Event created during the test to a watch', async () => {
    await requireCluster();
    await withNamespace('watch', {}, async (ns) => {
      await kubectl(['-n', ns, 'create', 'configmap', 'subject', '--from-literal=k=v']);
      const subject = await kubectlJson<{ metadata: { uid: string } }>(['-n', ns, 'get', 'configmap', 'subject']);
      const list = JSON.parse(await kubectl(['get', '--raw', `/api/v1/namespaces/${ns}/events`])) as {
        metadata: { resourceVersion: string };
      };

      // A real watch from the list's resourceVersion: the apiserver streams every
      // change after it, one JSON object per line.
      const watcher = spawn(
        KUBECTL,
        ['-v=6', 'get', `--raw=/api/v1/namespaces/${ns}/events?watch=1&resourceVersion=${list.metadata.resourceVersion}&timeoutSeconds=60`],
        { env: { ...process.env, KUBECONFIG }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const seen: { type: string; object: { metadata: { name: string }; reason?: string } }[] = [];
      let buffered = '';
      let log = '';
      watcher.stdout.on('data', (d: Buffer) => {
        buffered += d.toString();
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, nl).trim();
          buffered = buffered.slice(nl + 1);
          if (line) seen.push(JSON.parse(line));
        }
      });
      watcher.stderr.on('data', (d: Buffer) => (log += d.toString()));
      try {
        // kubectl -v=6 logs the response line once the watch stream is open.
        await until('the watch to be established', 15_000, async () => /watch=1.*200 OK/.test(log));

        const name = `ca-test-event-${suffix()}`;
        const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
        await kubectl(
          ['create', '-f', '-'],
          JSON.stringify({
            apiVersion: 'v1',
            kind: 'Event',
            metadata: { name, namespace: ns },
            involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'subject', namespace: ns, uid: subject.metadata.uid },
            reason: 'CoreAgentClusterTest',
            message: 'created by test/cluster/cluster.test.ts',
            type: 'Normal',
            source: { component: 'core-agent-cluster-test' },
            firstTimestamp: now,
            lastTimestamp: now,
            count: 1,
          }),
        );
        const event = await until(`watch event ADDED ${name}`, 20_000, async () =>
          seen.find((e) => e.type === 'ADDED' && e.object.metadata.name === name),
        );
        expect(event.object.reason).toBe('CoreAgentClusterTest');
      } finally {
        watcher.kill('SIGTERM');
      }
    });
  }, 90_000);
});
