import { WATCH_DEFAULTS, type WatchConfig } from '../config/watch-schema.ts';
import type { JsonObject, JsonValue } from '../core/json.ts';

/** The object an incident is about: the workload at the top of the owner chain. */
export interface ObjectRef {
  kind: string;
  apiVersion?: string | undefined;
  namespace: string;
  name: string;
  uid?: string | undefined;
  labels?: Record<string, string> | undefined;
}

/** What one Event says, in the fields the watcher uses. */
export interface EventFacts {
  uid: string;
  type: string;
  reason: string;
  message: string;
  namespace: string;
  involved: ObjectRef;
  /** When it last happened (ms); the best timestamp the Event carries. */
  lastAt: number;
  /** How many times it has happened: the kubelet bumps this instead of writing a new Event. */
  count: number;
}

const obj = (v: JsonValue | undefined): JsonObject => (v && typeof v === 'object' && !Array.isArray(v) ? v : {});
const str = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');

/** core/v1 Event → facts; null for anything that is not an Event about an object. */
export function eventFacts(e: JsonObject): EventFacts | null {
  const meta = obj(e.metadata);
  const involved = obj(e.involvedObject);
  if (!meta.uid || !involved.kind || !involved.name) return null;
  const when = str(obj(e.series).lastObservedTime) || str(e.lastTimestamp) || str(e.eventTime) || str(meta.creationTimestamp);
  const lastAt = Date.parse(when);
  return {
    uid: str(meta.uid),
    type: str(e.type),
    reason: str(e.reason),
    message: str(e.message).slice(0, 2000),
    namespace: str(involved.namespace) || str(meta.namespace),
    involved: {
      kind: str(involved.kind),
      apiVersion: str(involved.apiVersion) || undefined,
      namespace: str(involved.namespace) || str(meta.namespace),
      name: str(involved.name),
      uid: str(involved.uid) || undefined,
    },
    lastAt: Number.isNaN(lastAt) ? Date.now() : lastAt,
    count: typeof e.count === 'number' ? e.count : typeof obj(e.series).count === 'number' ? Number(obj(e.series).count) : 1,
  };
}

/** Why an event opens no incident, or null when it may. Checks only what the event itself says. */
export function ignoreReason(f: EventFacts, cfg: WatchConfig, now = Date.now()): string | null {
  const types: readonly string[] = cfg.event_types ?? WATCH_DEFAULTS.event_types;
  if (!types.includes(f.type)) return 'type';
  const reasons: readonly string[] = cfg.reasons ?? WATCH_DEFAULTS.reasons;
  if (reasons.length > 0 && !reasons.includes(f.reason)) return 'reason';
  if (cfg.namespaces && cfg.namespaces.length > 0 && !cfg.namespaces.includes(f.namespace)) return 'namespace';
  const excluded: readonly string[] = cfg.exclude_namespaces ?? WATCH_DEFAULTS.exclude_namespaces;
  if (excluded.includes(f.namespace)) return 'namespace';
  if (now - f.lastAt > (cfg.max_event_age_seconds ?? WATCH_DEFAULTS.max_event_age_seconds) * 1000) return 'old';
  return null;
}

/** The de-duplication key: one incident per (workload, reason). */
export function incidentKey(root: ObjectRef, reason: string): string {
  return `${root.kind}/${root.namespace}/${root.name}|${reason}`;
}

/** A parsed equality-based label selector (key=value, key==value, key!=value). */
export type LabelSelector = Array<{ key: string; op: '=' | '!='; value: string }>;

export function parseLabelSelector(text: string): LabelSelector {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const m = /^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/.exec(part);
      if (!m) throw new Error(`bad label selector term "${part}"`);
      return { key: m[1]!, op: m[2] === '!=' ? '!=' : '=', value: m[3]!.trim() };
    });
}

export function labelsMatch(selector: LabelSelector, labels: Record<string, string> | undefined): boolean {
  return selector.every(({ key, op, value }) => (op === '=' ? labels?.[key] === value : labels?.[key] !== value));
}

/** The session's verdict, from the first word of its final answer. */
export function verdictOf(text: string): 'RESOLVED' | 'UNRESOLVED' {
  const first = text
    .replace(/^[\s*#>_`-]+/, '')
    .slice(0, 40)
    .toUpperCase();
  return first.startsWith('RESOLVED') ? 'RESOLVED' : 'UNRESOLVED';
}
