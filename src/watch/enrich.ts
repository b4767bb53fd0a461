import type { Kube } from '../k8s/cluster.ts';
import { KubeError, type KubeErrorKind } from '../k8s/kube-error.ts';
import { eventSummary, summarize } from '../k8s/summary.ts';
import type { JsonObject, JsonValue } from '../core/json.ts';
import type { ObjectRef } from './incidents.ts';

const obj = (v: JsonValue | undefined): JsonObject => (v && typeof v === 'object' && !Array.isArray(v) ? v : {});
const MAX_CHAIN = 5;
const CACHE_MS = 60_000;

/**
 * Owner chains and incident facts, read with the same Kube client (and the same
 * Secret refusal) the k8s_* tools use. Chains are cached for a minute: a burst of
 * events about the pods of one ReplicaSet costs one lookup per pod, not per event.
 */
export class Enricher {
  private readonly chains = new Map<string, { at: number; chain: ObjectRef[] }>();

  constructor(private readonly kube: Kube) {}

  /**
   * The object and its controllers, bottom up: Pod → ReplicaSet → Deployment. Never
   * empty. An object that is gone, denied or forbidden ends the chain; an API that
   * cannot be reached throws (the caller retries later) — a chain cut short by an
   * outage would key the incident to the wrong object. Only complete chains are cached.
   */
  async ownerChain(involved: ObjectRef, signal?: AbortSignal): Promise<ObjectRef[]> {
    const cacheKey = involved.uid ?? `${involved.kind}/${involved.namespace}/${involved.name}`;
    const hit = this.chains.get(cacheKey);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.chain;
    if (this.chains.size > 5000) this.chains.clear();
    const chain = await this.walk(involved, signal);
    this.chains.set(cacheKey, { at: Date.now(), chain });
    return chain;
  }

  /** What a session starts with: the chain, the object's status, its recent events and a capped log tail. */
  async facts(
    involved: ObjectRef,
    limits: { recentEvents: number; logLines: number; logBytes: number },
    signal?: AbortSignal,
  ): Promise<JsonObject> {
    const chain = await this.ownerChain(involved, signal).catch(() => [involved]);
    const out: JsonObject = { owner_chain: chain.map((r) => `${r.kind}/${r.name}`) };
    const current = await this.fetch(involved, signal).catch((err: unknown) => ({ error: (err as Error).message }));
    if ('error' in current) out.object_error = String(current.error);
    else out.object = summarize(current);
    if (chain.length > 1) {
      const top = await this.fetch(chain[chain.length - 1]!, signal).catch(() => null);
      if (top) out.workload = summarize(top);
    }
    if (limits.recentEvents > 0) {
      const events = await this.kube
        .get(
          `/api/v1/namespaces/${encodeURIComponent(involved.namespace)}/events`,
          { fieldSelector: `involvedObject.name=${involved.name}` },
          'json',
          signal,
        )
        .then((l) => ((l.items as JsonObject[] | undefined) ?? []).map(eventSummary))
        .catch(() => []);
      events.sort((a, b) => String(a.last).localeCompare(String(b.last)));
      out.recent_events = events.slice(-limits.recentEvents);
    }
    if (involved.kind === 'Pod' && limits.logLines > 0 && !('error' in current)) {
      const tail = await this.logTail(current, limits, signal);
      if (tail) out.log_tail = tail;
    }
    return out;
  }

  private async walk(start: ObjectRef, signal?: AbortSignal): Promise<ObjectRef[]> {
    const chain: ObjectRef[] = [];
    let ref: ObjectRef | undefined = start;
    while (ref && chain.length < MAX_CHAIN) {
      let o: JsonObject;
      try {
        o = await this.fetch(ref, signal);
      } catch (err) {
        if (!isFinal(err)) throw err;
        chain.push(ref); // gone, denied or forbidden: the chain ends at what we know
        break;
      }
      const meta = obj(o.metadata);
      chain.push({ ...ref, uid: String(meta.uid ?? ref.uid ?? ''), labels: obj(meta.labels) as Record<string, string> });
      const owner = ((meta.ownerReferences as JsonObject[] | undefined) ?? []).find((r) => r.controller === true);
      ref = owner
        ? { kind: String(owner.kind), apiVersion: String(owner.apiVersion), namespace: ref.namespace, name: String(owner.name) }
        : undefined;
    }
    return chain;
  }

  private async fetch(ref: ObjectRef, signal?: AbortSignal): Promise<JsonObject> {
    const resource = await this.kube.resolve(ref.kind, ref.apiVersion, signal);
    return this.kube.get(this.kube.resourcePath(resource, ref.namespace, ref.name), {}, 'json', signal);
  }

  /** The failing container's log: its previous run when it restarted (that is where the crash is), capped. */
  private async logTail(pod: JsonObject, limits: { logLines: number; logBytes: number }, signal?: AbortSignal): Promise<string | null> {
    const statuses = ((obj(pod.status).containerStatuses as JsonObject[] | undefined) ?? []).slice();
    statuses.sort((a, b) => Number(b.restartCount ?? 0) - Number(a.restartCount ?? 0));
    const container = statuses[0];
    if (!container) return null;
    const meta = obj(pod.metadata);
    const logPath = `/api/v1/namespaces/${encodeURIComponent(String(meta.namespace))}/pods/${encodeURIComponent(String(meta.name))}/log`;
    const query = { container: String(container.name), tailLines: String(limits.logLines), limitBytes: String(limits.logBytes) };
    const attempts = Number(container.restartCount ?? 0) > 0 ? [{ ...query, previous: 'true' }, query] : [query];
    for (const q of attempts) {
      const text = await this.kube.get(logPath, q, 'text', signal).catch(() => null);
      if (text) return text.slice(-limits.logBytes);
    }
    return null;
  }
}

/** The kinds of answer that will not change on a retry: the object is gone, its kind unknown, denied, or forbidden. */
const FINAL_KINDS: ReadonlySet<KubeErrorKind> = new Set(['not_found', 'denied', 'forbidden', 'unauthorized']);

/** An answer that will not change on a retry (anything else — the API unreachable, a 5xx — may). */
function isFinal(err: unknown): boolean {
  return err instanceof KubeError && FINAL_KINDS.has(err.kind);
}
