import type { JsonObject, JsonValue } from '../core/json.ts';

const obj = (v: JsonValue | undefined): JsonObject => (v && typeof v === 'object' && !Array.isArray(v) ? v : {});
const arr = (v: JsonValue | undefined): JsonValue[] => (Array.isArray(v) ? v : []);

/**
 * One line of a list, the way `kubectl get` shows it but as JSON: identity, owner,
 * age, and the status fields that say whether it is healthy. `output: "full"` on
 * k8s_list returns whole objects instead.
 */
export function summarize(item: JsonValue): JsonObject {
  const o = obj(item);
  const meta = obj(o.metadata);
  const status = obj(o.status);
  const spec = obj(o.spec);
  const owner = obj(arr(meta.ownerReferences)[0]);
  const out: JsonObject = { name: meta.name ?? null };
  if (meta.namespace) out.namespace = meta.namespace;
  if (owner.kind) out.owner = `${String(owner.kind)}/${String(owner.name)}`;
  if (meta.creationTimestamp) out.created = meta.creationTimestamp;
  if (meta.deletionTimestamp) out.deleting_since = meta.deletionTimestamp;
  const kind = String(o.kind ?? '');
  if (kind === 'Pod') Object.assign(out, podSummary(spec, status));
  else if (kind === 'Deployment' || kind === 'StatefulSet' || kind === 'ReplicaSet') {
    Object.assign(out, {
      replicas: spec.replicas ?? null,
      ready: status.readyReplicas ?? 0,
      updated: status.updatedReplicas ?? 0,
      available: status.availableReplicas ?? 0,
    });
  } else if (kind === 'DaemonSet') {
    Object.assign(out, {
      desired: status.desiredNumberScheduled ?? 0,
      ready: status.numberReady ?? 0,
      updated: status.updatedNumberScheduled ?? 0,
      available: status.numberAvailable ?? 0,
    });
  } else if (kind === 'Node') {
    out.ready = conditionStatus(status, 'Ready');
    if (spec.unschedulable) out.unschedulable = true;
  } else if (kind === 'Event') {
    Object.assign(out, eventSummary(o));
  } else {
    if (status.phase) out.phase = status.phase;
    const conditions = arr(status.conditions).map(obj);
    if (conditions.length > 0) out.conditions = conditions.map((c) => `${String(c.type)}=${String(c.status)}`).join(',');
  }
  return out;
}

function podSummary(spec: JsonObject, status: JsonObject): JsonObject {
  const containers = arr(status.containerStatuses).map(obj);
  const reasons = new Set<string>();
  for (const c of [...arr(status.initContainerStatuses).map(obj), ...containers]) {
    const state = obj(c.state);
    const waiting = obj(state.waiting);
    const terminated = obj(state.terminated);
    if (waiting.reason) reasons.add(String(waiting.reason));
    if (terminated.reason && terminated.reason !== 'Completed') reasons.add(String(terminated.reason));
    const last = obj(obj(c.lastState).terminated);
    if (last.reason && last.reason !== 'Completed') reasons.add(`last: ${String(last.reason)}`);
  }
  if (status.reason) reasons.add(String(status.reason));
  return {
    phase: status.phase ?? null,
    ready: `${containers.filter((c) => c.ready === true).length}/${arr(spec.containers).length}`,
    restarts: containers.reduce((n, c) => n + (typeof c.restartCount === 'number' ? c.restartCount : 0), 0),
    ...(reasons.size > 0 ? { reasons: [...reasons] } : {}),
    ...(spec.nodeName ? { node: spec.nodeName } : {}),
  };
}

function conditionStatus(status: JsonObject, type: string): JsonValue {
  const c = arr(status.conditions)
    .map(obj)
    .find((x) => x.type === type);
  return c ? (c.status ?? null) : null;
}

/** An Event as the model needs it: what happened to what, how often, when last. */
export function eventSummary(e: JsonObject): JsonObject {
  const involved = obj(e.involvedObject ?? e.regarding);
  return {
    type: e.type ?? null,
    reason: e.reason ?? null,
    object: `${String(involved.kind ?? '?')}/${String(involved.name ?? '?')}`,
    message: typeof e.message === 'string' ? e.message.slice(0, 1000) : (e.note ?? null),
    count: e.count ?? obj(e.series).count ?? 1,
    last: e.lastTimestamp ?? e.eventTime ?? obj(e.metadata).creationTimestamp ?? null,
  };
}
