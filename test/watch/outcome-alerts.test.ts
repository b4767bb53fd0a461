// Outcomes to the alert target as an outbox: deferred by the target's rate limit,
// retried after a failed delivery, sent by the next process when this one stopped.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.ts';
import { liveTargets } from '../../src/net/alert-targets.ts';
import { IncidentStore } from '../../src/watch/incident-store.ts';
import { WatchMetrics } from '../../src/watch/metrics.ts';
import { OutcomeAlerts } from '../../src/watch/outcome-alerts.ts';
import { countingServer } from '../helpers/http-servers.ts';
import { tempDir } from '../helpers/workspace.ts';

async function finished(store: IncidentStore, names: string[]) {
  for (const name of names) {
    const { id } = store.observe(
      `Pod/shop/${name}|BackOff`,
      {
        root: { kind: 'Pod', namespace: 'shop', name },
        involved: { kind: 'Pod', namespace: 'shop', name },
        reason: 'BackOff',
        message: 'm',
        lastAt: 1,
        eventUid: name,
        eventCount: 1,
      },
      0,
    );
    store.markRunning(id);
    store.finish(id, 'UNRESOLVED', `UNRESOLVED: proposal for ${name}`, true);
  }
}

function target(url: string, count: number, windowSeconds: number) {
  const { live } = liveTargets({ oncall: { url_env: 'HOOK', rate_limit: { count, window_seconds: windowSeconds } } }, { HOOK: url });
  return live[0]!;
}

describe('OutcomeAlerts', () => {
  it('the rate limit defers an outcome, it does not drop it', async () => {
    const hook = await countingServer('127.0.0.1', (_q, res) => res.writeHead(204).end());
    const store = IncidentStore.open(path.join(await tempDir(), 's.db'));
    await finished(store, ['a', 'b']);
    const alerts = new OutcomeAlerts(target(`${hook.origin}/h`, 1, 1), store, new WatchMetrics(), silentLogger);
    await alerts.flush();
    expect(hook.requests.map((r) => (JSON.parse(r.body) as { details: string }).details)).toEqual(['UNRESOLVED: proposal for a']);
    expect(store.pendingAlerts().map((i) => i.name)).toEqual(['b']);
    // The second send is seen by the hook before its answer reaches the outbox: wait for both.
    const deadline = Date.now() + 10_000;
    while ((hook.requests.length < 2 || store.pendingAlerts().length > 0) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(hook.requests).toHaveLength(2);
    expect(store.pendingAlerts()).toEqual([]);
    alerts.stop();
  });

  it('a failed delivery stays pending (and is retried); a new process sends it', async () => {
    let up = false;
    const hook = await countingServer('127.0.0.1', (_q, res) => res.writeHead(up ? 204 : 503).end());
    const db = path.join(await tempDir(), 's.db');
    const store = IncidentStore.open(db);
    await finished(store, ['a']);
    const metrics = new WatchMetrics();
    const first = new OutcomeAlerts(target(`${hook.origin}/h`, 10, 60), store, metrics, silentLogger);
    await first.flush();
    first.stop();
    expect(hook.requests).toHaveLength(1);
    expect(store.pendingAlerts()).toHaveLength(1);
    expect((await metrics.registry.getSingleMetricAsString('core_agent_watch_alert_failures_total')).trim()).toMatch(/ 1$/);
    store.close();

    up = true;
    const reopened = IncidentStore.open(db);
    const second = new OutcomeAlerts(target(`${hook.origin}/h`, 10, 60), reopened, new WatchMetrics(), silentLogger);
    await second.flush();
    second.stop();
    expect(hook.requests).toHaveLength(2);
    expect(reopened.pendingAlerts()).toEqual([]);
  });
});
