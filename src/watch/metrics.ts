// The files, not the index: see src/ambient.d.ts.
import Counter from 'prom-client/lib/counter.js';
import collectDefaultMetrics from 'prom-client/lib/defaultMetrics.js';
import Gauge from 'prom-client/lib/gauge.js';
import Histogram from 'prom-client/lib/histogram.js';
import Registry from 'prom-client/lib/registry.js';

/**
 * The watcher's Prometheus metrics, on their own registry (plus the process
 * defaults: RSS, CPU, event-loop lag, heap). Names follow Prometheus conventions:
 * counters end in _total, durations are seconds.
 */
export class WatchMetrics {
  readonly registry = new Registry();
  readonly eventsReceived = new Counter({
    name: 'core_agent_watch_events_received_total',
    help: 'Event changes received from the Kubernetes API.',
    registers: [this.registry],
  });
  readonly eventsIgnored = new Counter({
    name: 'core_agent_watch_events_ignored_total',
    help: 'Events that opened no incident, by why (type, reason, namespace, old, labels, deleted).',
    labelNames: ['why'],
    registers: [this.registry],
  });
  readonly incidentsSeen = new Counter({
    name: 'core_agent_incidents_seen_total',
    help: 'New incidents opened: one per (workload, reason) outside the cooldown.',
    registers: [this.registry],
  });
  readonly incidentsDeduplicated = new Counter({
    name: 'core_agent_incidents_deduplicated_total',
    help: 'Events folded into an existing incident, by why (merged: still open; cooldown: just finished; stale: already handled).',
    labelNames: ['why'],
    registers: [this.registry],
  });
  readonly sessionsStarted = new Counter({
    name: 'core_agent_sessions_started_total',
    help: 'Incident sessions started (resumed ones included).',
    registers: [this.registry],
  });
  readonly outcomes = new Counter({
    name: 'core_agent_session_outcomes_total',
    help: 'Finished incident sessions, by outcome (RESOLVED, UNRESOLVED).',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  readonly sessionsRunning = new Gauge({
    name: 'core_agent_sessions_running',
    help: 'Incident sessions running now.',
    registers: [this.registry],
  });
  readonly queueDepth = new Gauge({
    name: 'core_agent_incidents_queued',
    help: 'Incidents waiting for a session slot.',
    registers: [this.registry],
  });
  readonly tokens = new Counter({
    name: 'core_agent_model_tokens_total',
    help: 'Model tokens used by incident sessions, by direction (input, output).',
    labelNames: ['direction'],
    registers: [this.registry],
  });
  readonly costUsd = new Counter({
    name: 'core_agent_model_cost_usd_total',
    help: "Model cost of incident sessions in US dollars, from core-agent's price table.",
    registers: [this.registry],
  });
  readonly startLatency = new Histogram({
    name: 'core_agent_incident_start_latency_seconds',
    help: 'From receiving the event that opened an incident to its session starting (queue wait included).',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
    registers: [this.registry],
  });
  readonly watchReconnects = new Counter({
    name: 'core_agent_watch_reconnects_total',
    help: 'Event watch reconnections, by why (error, gone: the resourceVersion expired and the events were listed again).',
    labelNames: ['why'],
    registers: [this.registry],
  });
  readonly alertFailures = new Counter({
    name: 'core_agent_watch_alert_failures_total',
    help: 'Outcomes that could not be delivered to the alert target.',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'core_agent_' });
  }
}
