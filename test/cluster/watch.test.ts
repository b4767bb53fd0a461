// core-agent watch as a process against the local control plane, with a replayed
// model: events become incidents, repeats fold into one, a burst loses and
// duplicates nothing, and a killed watcher picks up where it stopped.
import { rename } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.ts';
import { IncidentStore, type Incident } from '../../src/watch/incident-store.ts';
import { countingServer } from '../helpers/http-servers.ts';
import { tempDir } from '../helpers/workspace.ts';
import { kubectl, requireCluster, until, webDeployment, withNamespace } from './kube.ts';
import { backOffEvent, startWatch, watchFixture, type WatchProcess } from './watch-process.ts';

const procs: WatchProcess[] = [];
afterEach((ctx) => {
  for (const p of procs.splice(0)) {
    // A failure is explained by what the watcher said.
    if (ctx.task.result?.state === 'fail') console.error(`watch stdout:\n${p.stdout()}\nwatch stderr (tail):\n${p.stderr().slice(-4000)}`);
    if (p.child.exitCode === null) p.child.kill('SIGKILL');
  }
});

const ANSWER = { text: 'UNRESOLVED: the container exits with code 1; check its command and config.' };
/** A session that takes a second or two: a real wait_and_verify that never matches, then the answer. */
const SLOW = [
  {
    tool_calls: [
      {
        name: 'wait_and_verify',
        args: { tool: 'list_dir', args: { path: '.' }, expect_contains: 'never-there', interval_seconds: 0.5, timeout_seconds: 1.5 },
      },
    ],
  },
  ANSWER,
];

function incidents(db: string): Incident[] {
  const store = IncidentStore.open(db);
  try {
    return store.all();
  } finally {
    store.close();
  }
}

function incidentSessions(db: string): Array<{ id: string; outcomes: number }> {
  const log = EventLog.open(db);
  try {
    return log
      .sessions()
      .filter((s) => s.title.startsWith('incident #'))
      .map((s) => ({ id: s.id, outcomes: log.events(s.id).filter((e) => e.kind === 'incident').length }));
  } finally {
    log.close();
  }
}

async function createPods(ns: string, names: string[]): Promise<void> {
  const items = names.map((name) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels: { app: 'burst' } },
    spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }] },
  }));
  await kubectl(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
}

async function burst(ns: string, pods: string[], perPod: number): Promise<void> {
  const items = [];
  for (let n = 0; n < perPod; n++) for (const pod of pods) items.push(backOffEvent(ns, pod, n));
  await kubectl(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
}

describe('core-agent watch', () => {
  it('three crash-looping pods of one Deployment open ONE incident, about the Deployment', async () => {
    await requireCluster();
    await withNamespace('watch-one', {}, async (ns) => {
      const dir = await tempDir();
      // The outcome goes to the recipe's alert target: a webhook on 127.0.0.1.
      const hook = await countingServer('127.0.0.1', (_q, res) => res.writeHead(204).end());
      const alerts = { targets: { oncall: { url_env: 'ONCALL_WEBHOOK_URL', description: 'the SRE on call' } } };
      const f = await watchFixture(dir, ns, { alert_target: 'oncall' }, [ANSWER], { alerts });
      const w = await startWatch(f, dir, [], { ONCALL_WEBHOOK_URL: `${hook.origin}/hook/secret-path` });
      procs.push(w);
      await kubectl(['apply', '-f', '-'], JSON.stringify(webDeployment(ns, { replicas: 3, crash: true })));
      // KWOK's crash-loop stage writes one BackOff event per pod.
      const seen = await until('three BackOff events folded into one finished incident', 60_000, async () => {
        const all = incidents(f.db);
        return all.length === 1 && all[0]!.status === 'done' && all[0]!.events >= 3 ? all : undefined;
      });
      expect(seen[0]).toMatchObject({ kind: 'Deployment', name: 'web', namespace: ns, reason: 'BackOff', outcome: 'UNRESOLVED' });
      expect(seen[0]!.involved.kind).toBe('Pod');
      const sessions = incidentSessions(f.db);
      expect(sessions).toHaveLength(1);
      expect(sessions[0]).toMatchObject({ id: seen[0]!.sessionId, outcomes: 1 });
      const m = await w.metrics();
      expect(m.core_agent_incidents_seen_total).toBe(1);
      expect(m.core_agent_sessions_started_total).toBe(1);
      expect(m['core_agent_session_outcomes_total{outcome="UNRESOLVED"}']).toBe(1);
      const folded =
        (m['core_agent_incidents_deduplicated_total{why="merged"}'] ?? 0) +
        (m['core_agent_incidents_deduplicated_total{why="cooldown"}'] ?? 0);
      expect(folded).toBeGreaterThanOrEqual(2);

      // The session saw what the watcher gathered: the owner chain up to the Deployment.
      const log = EventLog.open(f.db);
      const prompt = log.events(seen[0]!.sessionId!).find((e) => e.kind === 'user')!.data.text as string;
      log.close();
      expect(prompt).toContain(`Incident #${seen[0]!.id}: BackOff on Deployment ${ns}/web`);
      expect(prompt).toMatch(/"owner_chain": \[\s*"Pod\/web-[a-z0-9]+-[a-z0-9]+",\s*"ReplicaSet\/web-[a-z0-9]+",\s*"Deployment\/web"/);
      expect(prompt).toContain('CrashLoopBackOff');

      await until('the outcome delivered', 10_000, async () => hook.requests.length >= 1);
      expect(hook.requests).toHaveLength(1);
      expect(hook.requests[0]).toMatchObject({ method: 'POST', url: '/hook/secret-path' });
      expect(JSON.parse(hook.requests[0]!.body)).toMatchObject({
        source: 'core-agent',
        target: 'oncall',
        level: 'warning',
        summary: `UNRESOLVED: BackOff on Deployment ${ns}/web`,
        details: ANSWER.text,
        session_id: seen[0]!.sessionId,
      });
      expect(w.stderr()).not.toContain('secret-path'); // the webhook URL is a credential

      w.child.kill('SIGTERM');
      expect(await w.exited).toBe(0);
      expect(w.stdout()).toContain('stopped (0 session(s) finished, 0 left to resume)');
    });
  });

  it('a burst of 200 events across 20 pods runs 20 sessions: none lost, none duplicated', async () => {
    await requireCluster();
    await withNamespace('watch-burst', {}, async (ns) => {
      const dir = await tempDir();
      // Two namespaces: one watch each (the namespaced-RBAC shape); the second stays empty.
      const f = await watchFixture(dir, ns, { max_concurrent_sessions: 4, namespaces: [ns, `${ns}-empty`] }, [ANSWER]);
      const pods = Array.from({ length: 20 }, (_, i) => `app-${i}`);
      await createPods(ns, pods);
      const w = await startWatch(f, dir);
      procs.push(w);
      await burst(ns, pods, 10);
      const all = await until('20 incidents finished', 90_000, async () => {
        const list = incidents(f.db);
        return list.length === 20 && list.every((i) => i.status === 'done') && list.reduce((n, i) => n + i.events, 0) === 200
          ? list
          : undefined;
      });
      expect(new Set(all.map((i) => i.name))).toEqual(new Set(pods));
      expect(all.every((i) => i.events === 10)).toBe(true);
      const sessions = incidentSessions(f.db);
      expect(sessions).toHaveLength(20);
      expect(new Set(all.map((i) => i.sessionId))).toEqual(new Set(sessions.map((s) => s.id)));
      expect(sessions.every((s) => s.outcomes === 1)).toBe(true);
      const m = await w.metrics();
      expect(m.core_agent_watch_events_received_total).toBe(200);
      expect(m.core_agent_incidents_seen_total).toBe(20);
      expect(m.core_agent_sessions_started_total).toBe(20);
    });
  });

  it('killed mid-burst and restarted, it resumes and never re-runs a finished incident', async () => {
    await requireCluster();
    await withNamespace('watch-kill', {}, async (ns) => {
      const dir = await tempDir();
      const f = await watchFixture(dir, ns, { max_concurrent_sessions: 2 }, SLOW);
      const pods = Array.from({ length: 20 }, (_, i) => `app-${i}`);
      await createPods(ns, pods);
      const first = await startWatch(f, dir);
      procs.push(first);
      await burst(ns, pods, 10);
      await until('some incidents finished, most not', 60_000, async () => incidents(f.db).filter((i) => i.status === 'done').length >= 4);
      first.child.kill('SIGKILL');
      await first.exited;
      const before = incidents(f.db);
      const doneBefore = before.filter((i) => i.status === 'done');
      expect(doneBefore.length).toBeLessThan(20); // the kill really was mid-burst

      const second = await startWatch(f, dir);
      procs.push(second);
      const after = await until('all 20 incidents finished', 90_000, async () => {
        const list = incidents(f.db);
        return list.length === 20 && list.every((i) => i.status === 'done') ? list : undefined;
      });
      // Finished before the kill: untouched, and the new process never started them.
      for (const d of doneBefore) {
        const now = after.find((i) => i.id === d.id)!;
        expect(now).toMatchObject({ sessionId: d.sessionId, finishedAt: d.finishedAt, outcome: d.outcome });
        expect(second.stdout()).not.toContain(`incident #${d.id} session`);
        expect(second.stdout()).not.toContain(`incident #${d.id} resumed`);
      }
      // Running at the kill: resumed in the same session, not started again.
      for (const r of before.filter((i) => i.status === 'running' && i.sessionId)) {
        expect(after.find((i) => i.id === r.id)!.sessionId).toBe(r.sessionId);
      }
      expect(after.reduce((n, i) => n + i.events, 0)).toBe(200);
      const sessions = incidentSessions(f.db);
      expect(sessions).toHaveLength(20);
      expect(sessions.every((s) => s.outcomes === 1)).toBe(true);

      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    });
  });

  it('SIGTERM: running sessions past the grace are left running and resumed in the same session', async () => {
    await requireCluster();
    await withNamespace('watch-term', {}, async (ns) => {
      const dir = await tempDir();
      const wait = { tool: 'list_dir', args: { path: '.' }, expect_contains: 'never-there', interval_seconds: 0.5, timeout_seconds: 4 };
      const long = [{ tool_calls: [{ name: 'wait_and_verify', args: wait }] }, ANSWER];
      const f = await watchFixture(dir, ns, { max_concurrent_sessions: 2 }, long);
      await createPods(ns, ['a', 'b']);
      const first = await startWatch(f, dir, ['--shutdown-grace', '1']);
      procs.push(first);
      await burst(ns, ['a', 'b'], 1);
      await until(
        'two sessions running',
        30_000,
        async () => incidents(f.db).filter((i) => i.status === 'running' && i.sessionId).length === 2,
      );
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      expect(first.stdout()).toContain('stopped (0 session(s) finished, 2 left to resume)');
      const left = incidents(f.db);
      expect(left.map((i) => i.status)).toEqual(['running', 'running']);

      const second = await startWatch(f, dir);
      procs.push(second);
      const done = await until('both finished', 60_000, async () => {
        const list = incidents(f.db);
        return list.every((i) => i.status === 'done') ? list : undefined;
      });
      for (const i of done) expect(i.sessionId).toBe(left.find((l) => l.id === i.id)!.sessionId);
      expect(second.stdout()).toMatch(/incident #\d+ resumed in s-/);
      const log = EventLog.open(f.db);
      for (const i of done) expect(log.events(i.sessionId!).filter((e) => e.kind === 'user')).toHaveLength(1); // not prompted twice
      log.close();
      expect(incidentSessions(f.db)).toHaveLength(2);
    });
  });

  it('a session that fails is queued again and resumed; the third failure is recorded UNRESOLVED with the error', async () => {
    await requireCluster();
    await withNamespace('watch-retry', {}, async (ns) => {
      const dir = await tempDir();
      const f = await watchFixture(dir, ns, { session_retry_seconds: 1 }, [ANSWER]);
      await createPods(ns, ['flaky', 'down']);
      const w = await startWatch(f, dir);
      procs.push(w);
      // The model goes away after start-up: every session fails until it is back.
      await rename(f.script, `${f.script}.away`);
      await burst(ns, ['flaky'], 1);
      await until('the first attempt failed', 30_000, async () => /incident #1 failed \(.*\); again in 1s/.test(w.stdout()));
      await rename(`${f.script}.away`, f.script);
      const flaky = await until('flaky finished', 30_000, async () =>
        incidents(f.db).find((i) => i.name === 'flaky' && i.status === 'done'),
      );
      expect(flaky).toMatchObject({ outcome: 'UNRESOLVED', attempts: 1 });
      const log = EventLog.open(f.db);
      expect(log.events(flaky.sessionId!).find((e) => e.kind === 'incident')!.data.summary).toBe(ANSWER.text); // the model's answer
      log.close();

      await rename(f.script, `${f.script}.away`);
      await burst(ns, ['down'], 1);
      const down = await until('down gave up', 30_000, async () => incidents(f.db).find((i) => i.name === 'down' && i.status === 'done'));
      expect(down.attempts).toBe(2); // three sessions in all
      expect(down.outcome).toBe('UNRESOLVED');
      expect(w.stdout()).toMatch(/incident #2 failed .*again in 1s[\s\S]*incident #2 failed .*again in 2s[\s\S]*incident #2 UNRESOLVED/);
      const m = await w.metrics();
      expect(m['core_agent_session_outcomes_total{outcome="UNRESOLVED"}']).toBe(2);
    });
  });
});
