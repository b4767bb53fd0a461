import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kube } from '../../src/k8s/cluster.ts';
import { KubeError } from '../../src/k8s/kube-error.ts';
import { kubeToolError } from '../../src/tools/k8s/common.ts';
import { k8sApiResourcesTool } from '../../src/tools/k8s/k8s-api-resources.ts';
import { k8sEventsTool } from '../../src/tools/k8s/k8s-events.ts';
import { k8sGetTool } from '../../src/tools/k8s/k8s-get.ts';
import { k8sListTool } from '../../src/tools/k8s/k8s-list.ts';
import { k8sLogsTool } from '../../src/tools/k8s/k8s-logs.ts';
import { k8sRolloutStatusTool } from '../../src/tools/k8s/k8s-rollout-status.ts';
import { ToolError, type AnyTool, type ToolContext } from '../../src/tools/framework/tool.ts';
import { writeKubeconfig } from '../helpers/kubeconfig.ts';
import { setup, tempDir } from '../helpers/workspace.ts';
import { KUBE_ERROR_CASES } from './kube-errors.cases.ts';

const TOOLS: Record<string, AnyTool> = Object.fromEntries(
  [k8sApiResourcesTool, k8sEventsTool, k8sGetTool, k8sListTool, k8sLogsTool, k8sRolloutStatusTool].map((t) => [t.name, t as AnyTool]),
);

const resource = (name: string, kind: string, shortNames: string[] = []) => ({
  name,
  kind,
  namespaced: true,
  shortNames,
  singularName: kind.toLowerCase(),
  verbs: ['get', 'list'],
});

/** Discovery for Pods, Secrets, ConfigMaps and Deployments; each Pod name answers the status it is named for. */
const PODS: Record<string, [number, unknown]> = {
  missing: [404, { kind: 'Status', reason: 'NotFound', message: 'pods "missing" not found', code: 404 }],
  forbidden: [
    403,
    {
      kind: 'Status',
      reason: 'Forbidden',
      message: 'pods "forbidden" is forbidden: User "system:serviceaccount:t:nobody" cannot get resource "pods"',
    },
  ],
  unauthorized: [401, { kind: 'Status', reason: 'Unauthorized', message: 'Unauthorized' }],
  invalid: [422, { kind: 'Status', reason: 'Invalid', message: 'the request is invalid' }],
  broken: [500, { kind: 'Status', reason: 'InternalError', message: 'etcd is down' }],
  plain: [503, 'upstream unavailable'],
  multi: [200, { kind: 'Pod', metadata: { name: 'multi' }, spec: { containers: [{ name: 'app' }, { name: 'sidecar' }] } }],
};

function fakeApi(): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (url.pathname === '/api/v1') {
      return send(200, {
        resources: [
          resource('pods', 'Pod', ['po']),
          resource('pods/log', 'Pod'),
          resource('secrets', 'Secret'),
          resource('configmaps', 'ConfigMap', ['cm']),
        ],
      });
    }
    if (url.pathname === '/apis') return send(200, { groups: [{ name: 'apps', preferredVersion: { groupVersion: 'apps/v1' } }] });
    if (url.pathname === '/apis/apps/v1') return send(200, { resources: [resource('deployments', 'Deployment', ['deploy'])] });
    const pod = /^\/api\/v1\/namespaces\/default\/pods\/([^/]+)(\/log)?$/.exec(url.pathname);
    // guarded: RBAC lets core-agent read the log but not the pod, and the log needs a container.
    if (pod && !pod[2] && pod[1] === 'guarded') {
      return send(403, { kind: 'Status', reason: 'Forbidden', message: 'pods "guarded" is forbidden: cannot get resource "pods"' });
    }
    if (pod?.[2] && (pod[1] === 'multi' || pod[1] === 'guarded')) {
      return send(400, {
        kind: 'Status',
        reason: 'BadRequest',
        message: `a container name must be specified for pod ${pod[1]}, choose one of: [app sidecar]`,
      });
    }
    const answer = pod ? PODS[pod[1]!] : undefined;
    return answer ? send(...answer) : send(404, { kind: 'Status', reason: 'NotFound', message: `no route ${url.pathname}` });
  });
}

async function kubeconfig(server: string): Promise<string> {
  return writeKubeconfig(path.join(await tempDir('core-agent-kube-'), 'config'), server);
}

/** The client's own errors, recorded on their way out of the Kube before the tools map them. */
function recording(kube: Kube, seen: unknown[]): Kube {
  return new Proxy(kube, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const out: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        return out instanceof Promise ? out.catch((err: unknown) => Promise.reject((seen.push(err), err))) : out;
      };
    },
  });
}

describe('Kubernetes failures: the client says what kind, the k8s tools map it once', () => {
  let api: Server;
  let live: string;
  let dead: string;

  beforeAll(async () => {
    api = fakeApi();
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    live = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    // A port that was open a moment ago and is closed now: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    dead = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
  });
  afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())));

  const runtime = async (server: string) =>
    setup({ env: { KUBECONFIG: await kubeconfig(server) }, recipe: 'kubernetes:\n  denied_resources: [{kind: configmaps}]\n' });

  it.each(KUBE_ERROR_CASES)('$what: $tool → $kube → $failure', async (c) => {
    const rt = await runtime(c.unreachable ? dead : live);
    // The model-visible sentence, through the dispatcher: the same as before the client had its own error type.
    expect(await rt.refused(c.tool, c.args)).toMatch(c.message);

    // The kinds: what the client threw, and what the tool made of it.
    const seen: unknown[] = [];
    const ctx = { services: { kube: recording(rt.services.kube!, seen) }, signal: AbortSignal.timeout(20_000) } as unknown as ToolContext;
    const thrown = await TOOLS[c.tool]!.run(TOOLS[c.tool]!.args.parse(c.args), ctx).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(seen[0]).toBeInstanceOf(KubeError);
    expect((seen[0] as KubeError).kind).toBe(c.kube);
    expect(thrown).toBeInstanceOf(ToolError);
    expect((thrown as ToolError).kind).toBe(c.failure);
  });

  it('maps only client errors: anything else passes through untouched', () => {
    const other = new Error('a bug');
    expect(kubeToolError(other)).toBe(other);
    const mapped = kubeToolError(new KubeError('not found (404): x', 'not_found', 404));
    expect(mapped).toBeInstanceOf(ToolError);
    expect(mapped).toMatchObject({ message: 'not found (404): x', kind: 'not_found' });
  });
});
