import * as z from 'zod/v4';
import { defineTool, ToolError, type JsonObject, type JsonValue } from '../framework/tool.ts';
import { K8S_HINT, k8sNameArg, namespaceArg, withKubeErrors } from './common.ts';
import description from './k8s-rollout-status.md';

const num = (v: JsonValue | undefined) => (typeof v === 'number' ? v : 0);
const obj = (v: JsonValue | undefined): JsonObject => (v && typeof v === 'object' && !Array.isArray(v) ? v : {});

const definition = defineTool({
  name: 'k8s_rollout_status',
  description,
  // The cluster API is another machine: plan-first holds these back, and `mcp serve` says openWorldHint.
  kind: 'read_remote',
  needs: ['kube'],
  narrowHint: K8S_HINT,
  args: z.strictObject({
    kind: k8sNameArg('Deployment, StatefulSet or DaemonSet (deploy, sts, ds).'),
    name: k8sNameArg('The workload’s name.'),
    namespace: namespaceArg,
  }),
  async run(args, ctx) {
    const k = ctx.services.kube;
    const r = await k.resolve(args.kind, undefined, ctx.signal);
    if (r.group !== 'apps' || !['Deployment', 'StatefulSet', 'DaemonSet'].includes(r.kind)) {
      throw new ToolError(`rollout status is for Deployments, StatefulSets and DaemonSets, not ${r.kind}`);
    }
    const namespace = args.namespace ?? (await k.defaultNamespace());
    const o = await k.get(k.resourcePath(r, namespace, args.name), {}, 'json', ctx.signal);
    return rolloutStatus(r.kind, o);
  },
});

/** Its client failures mapped to tool failures (common.ts). */
export const k8sRolloutStatusTool = withKubeErrors(definition);

/** The rollout test kubectl applies, per kind, with the numbers it looked at. */
export function rolloutStatus(kind: string, o: JsonObject): JsonObject {
  const meta = obj(o.metadata);
  const spec = obj(o.spec);
  const status = obj(o.status);
  const observed = num(status.observedGeneration) >= num(meta.generation);
  const conditions = ((status.conditions as JsonValue[] | undefined) ?? []).map(obj).map((c) => ({
    type: c.type ?? null,
    status: c.status ?? null,
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.message ? { message: c.message } : {}),
  }));
  const base: JsonObject = { kind, name: meta.name ?? null, namespace: meta.namespace ?? null, observed_generation_current: observed };
  if (kind === 'DaemonSet') {
    const desired = num(status.desiredNumberScheduled);
    const updated = num(status.updatedNumberScheduled);
    const available = num(status.numberAvailable);
    return {
      ...base,
      desired,
      updated,
      ready: num(status.numberReady),
      available,
      converged: observed && updated === desired && available === desired,
      conditions,
    };
  }
  const desired = typeof spec.replicas === 'number' ? spec.replicas : 1;
  const updated = num(status.updatedReplicas);
  const ready = num(status.readyReplicas);
  const available = num(status.availableReplicas);
  const total = num(status.replicas);
  if (kind === 'StatefulSet') {
    const partition = num(obj(obj(spec.updateStrategy).rollingUpdate).partition);
    const revisionsMatch = status.updateRevision === undefined || status.currentRevision === status.updateRevision || partition > 0;
    return {
      ...base,
      desired,
      updated,
      ready,
      available,
      converged: observed && ready === desired && updated >= desired - partition && revisionsMatch,
      conditions,
    };
  }
  const progressing = conditions.find((c) => c.type === 'Progressing');
  const failed = progressing?.reason === 'ProgressDeadlineExceeded';
  return {
    ...base,
    desired,
    updated,
    ready,
    available,
    old_replicas: Math.max(0, total - updated),
    converged: observed && updated === desired && total === updated && available === updated,
    ...(failed ? { failed: true, reason: 'ProgressDeadlineExceeded' } : {}),
    conditions,
  };
}
