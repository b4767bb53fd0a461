import * as z from 'zod/v4';
import { DEFAULT_SERVICE_PRINCIPAL, PRINCIPAL_NAME, PRINCIPAL_NAME_RULE } from '../core/principal.ts';

/**
 * The recipe's `watch:` section: what `core-agent watch` turns into incidents and
 * how many sessions it runs. Every key has a default that suits a cluster-wide
 * watcher, so `watch: {}` is a working configuration.
 */
export const WATCH_DEFAULTS = {
  event_types: ['Warning'],
  reasons: ['BackOff', 'Failed', 'FailedScheduling', 'Unhealthy', 'OOMKilling', 'FailedMount', 'FailedCreate', 'Evicted'],
  exclude_namespaces: ['kube-system', 'kube-public', 'kube-node-lease'],
  cooldown_seconds: 900,
  max_event_age_seconds: 600,
  max_concurrent_sessions: 2,
  session_timeout_seconds: 900,
  session_retry_seconds: 30,
  log_tail_lines: 40,
  log_tail_bytes: 8192,
  recent_events: 10,
} as const;

const labelSelector = z
  .string()
  .max(1024)
  .regex(
    /^\s*[A-Za-z0-9./_-]+\s*(==?|!=)\s*[A-Za-z0-9._-]*\s*(,\s*[A-Za-z0-9./_-]+\s*(==?|!=)\s*[A-Za-z0-9._-]*\s*)*$/,
    'a label selector of key=value / key!=value pairs separated by commas, e.g. "tier=web,env!=dev"',
  );

export const watchSchema = z
  .strictObject({
    event_types: z
      .array(z.enum(['Warning', 'Normal']))
      .min(1)
      .optional()
      .describe(`Event types that can open an incident (default ${WATCH_DEFAULTS.event_types.join(', ')}).`),
    reasons: z
      .array(z.string().min(1).max(128))
      .optional()
      .describe(`Event reasons that open an incident; [] takes any reason (default ${WATCH_DEFAULTS.reasons.join(', ')}).`),
    namespaces: z
      .array(z.string().min(1).max(63))
      .optional()
      .describe('Only these namespaces (default: all). With one namespace, only its events are watched.'),
    exclude_namespaces: z
      .array(z.string().min(1).max(63))
      .optional()
      .describe(`Namespaces never watched (default ${WATCH_DEFAULTS.exclude_namespaces.join(', ')}).`),
    label_selector: labelSelector
      .optional()
      .describe("Only objects whose workload (the event's object or its top owner) carries these labels, e.g. tier=web."),
    cooldown_seconds: z
      .int()
      .min(0)
      .max(7 * 86_400)
      .optional()
      .describe(
        `After an incident's session ends, the same (object, reason) is folded into it for this long (default ${WATCH_DEFAULTS.cooldown_seconds}).`,
      ),
    max_event_age_seconds: z
      .int()
      .min(1)
      .max(86_400)
      .optional()
      .describe(`Events last seen longer ago than this are history, not incidents (default ${WATCH_DEFAULTS.max_event_age_seconds}).`),
    max_concurrent_sessions: z
      .int()
      .min(1)
      .max(64)
      .optional()
      .describe(`Sessions running at once; the rest wait in order (default ${WATCH_DEFAULTS.max_concurrent_sessions}).`),
    session_timeout_seconds: z
      .int()
      .min(10)
      .max(86_400)
      .optional()
      .describe(
        `A session still running after this is stopped and recorded UNRESOLVED (default ${WATCH_DEFAULTS.session_timeout_seconds}).`,
      ),
    session_retry_seconds: z
      .int()
      .min(1)
      .max(3600)
      .optional()
      .describe(
        `A session that fails (the model provider or the runtime down — not an UNRESOLVED answer) runs again after this, then twice this; the third failure is recorded UNRESOLVED (default ${WATCH_DEFAULTS.session_retry_seconds}).`,
      ),
    log_tail_lines: z
      .int()
      .min(0)
      .max(1000)
      .optional()
      .describe(`Log lines of the failing container given with the incident; 0 gives none (default ${WATCH_DEFAULTS.log_tail_lines}).`),
    log_tail_bytes: z
      .int()
      .min(256)
      .max(256 * 1024)
      .optional()
      .describe(`At most this many bytes of that log tail (default ${WATCH_DEFAULTS.log_tail_bytes}).`),
    recent_events: z
      .int()
      .min(0)
      .max(50)
      .optional()
      .describe(`Recent events about the object given with the incident (default ${WATCH_DEFAULTS.recent_events}).`),
    alert_target: z
      .string()
      .min(1)
      .optional()
      .describe("An alerts.targets name: every session's outcome (RESOLVED, or UNRESOLVED with the proposal) is sent there."),
    prompt: z
      .string()
      .min(1)
      .max(20_000)
      .optional()
      .describe('Text put before the incident facts in every session prompt (the instructions still come first).'),
    service_principal: z
      .string()
      .regex(PRINCIPAL_NAME, PRINCIPAL_NAME_RULE)
      .optional()
      .describe(
        `The principal incident sessions act for (a service principal, never an admin): their owner, and the home of their per-user things (default ${DEFAULT_SERVICE_PRINCIPAL}).`,
      ),
  })
  .describe('core-agent watch: Kubernetes events become incidents, one agent session each.');

export type WatchConfig = z.output<typeof watchSchema>;
