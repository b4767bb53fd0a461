// node bench/watch-bench.ts (needs KUBECONFIG: `bash test/cluster/with-cluster.sh npm run
// bench -- --only watch`): what `core-agent watch` costs on the local control plane.
// - bundle size (the entry, the CLI and the chunks' file in dist/, and the rg beside them)
// - resident memory of the watch process idle (informer synced, nothing to do), and at its
//   peak with 10 sessions running at once, against an idle `node` process (the floor)
// - event → session start latency: an Event is created through the API (the clock starts
//   when the API has accepted it) and the incident's session starts; p50/p95 over 40
//   events, each about its own pod, with slots free (no queueing).
// Prints a line `RESULTS {json}`; nothing asserted.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { CHUNKS_FILE, CLI_FILE, TOOLS_FILE } from '../scripts/bundle/esbuild-options.mjs';
import { IncidentStore } from '../src/watch/incident-store.ts';
import { kubectl, until } from '../test/cluster/kube.ts';
import { backOffEvent, startWatch, watchFixture } from '../test/cluster/watch-process.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!process.env.KUBECONFIG) {
  console.log('watch: skipped (no KUBECONFIG; run under test/cluster/with-cluster.sh)');
  console.log('RESULTS null');
  process.exit(0);
}

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function idleNodeRss(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await sleep(1500);
  const kb = rssKb(child.pid!);
  child.kill();
  return kb;
}

async function pods(ns: string, names: string[]) {
  const items = names.map((name) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns },
    spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }] },
  }));
  await kubectl(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
}

const kc = new KubeConfig();
kc.loadFromFile(process.env.KUBECONFIG.split(path.delimiter)[0]!);
const core = kc.makeApiClient(CoreV1Api);
const ns = `ca-bench-watch-${Date.now().toString(36)}`;
const watchers: ChildProcess[] = [];
await kubectl(['create', 'namespace', ns]);
const stop = (c: ChildProcess) => new Promise<void>((r) => (c.exitCode !== null ? r() : (c.once('exit', () => r()), c.kill('SIGTERM'))));
try {
  const bundleBytes = ['core-agent.mjs', CLI_FILE, TOOLS_FILE, CHUNKS_FILE]
    .map((f) => statSync(path.join(root, 'dist', f)).size)
    .reduce((a, b) => a + b, 0);
  const rgBytes = statSync(path.join(root, 'dist/rg')).size;
  const nodeIdleKb = await idleNodeRss();

  // Idle, then 10 sessions at once (each waits ~6 s in a real wait_and_verify).
  const dir = mkdtempSync(path.join(tmpdir(), 'core-agent-watch-bench-'));
  const wait = { tool: 'list_dir', args: { path: '.' }, expect_contains: 'never-there', interval_seconds: 0.5, timeout_seconds: 6 };
  const slow = await watchFixture(dir, ns, { max_concurrent_sessions: 10 }, [
    { tool_calls: [{ name: 'wait_and_verify', args: wait }] },
    { text: 'UNRESOLVED: bench' },
  ]);
  const names = Array.from({ length: 10 }, (_, i) => `load-${i}`);
  await pods(ns, names);
  const w = await startWatch(slow, dir);
  watchers.push(w.child);
  await sleep(3000);
  const watchIdleKb = rssKb(w.child.pid!);
  await kubectl(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: names.map((p) => backOffEvent(ns, p, 0)) }));
  await until('10 sessions running', 30_000, async () => (await w.metrics()).core_agent_sessions_running === 10);
  let peakKb = 0;
  for (let i = 0; i < 20; i++) {
    peakKb = Math.max(peakKb, rssKb(w.child.pid!));
    await sleep(200);
  }
  await stop(w.child);

  // Latency: a fresh database and namespace-local pods; one event at a time, 40 of them.
  const dir2 = mkdtempSync(path.join(tmpdir(), 'core-agent-watch-bench-'));
  const fast = await watchFixture(dir2, ns, { max_concurrent_sessions: 20 }, [{ text: 'UNRESOLVED: bench' }]);
  const targets = Array.from({ length: 40 }, (_, i) => `lat-${i}`);
  await pods(ns, targets);
  const w2 = await startWatch(fast, dir2);
  watchers.push(w2.child);
  const created = new Map<string, number>();
  for (const pod of targets) {
    // The typed client serialises timestamps from Dates (a string would be dropped).
    const now = new Date();
    await core.createNamespacedEvent({
      namespace: ns,
      body: { ...backOffEvent(ns, pod, 0), firstTimestamp: now, lastTimestamp: now } as never,
    });
    created.set(pod, Date.now());
    await sleep(100);
  }
  const store = IncidentStore.open(fast.db);
  const started = await until('40 sessions started', 60_000, async () => {
    // The namespace still holds the load phase's events: those open incidents too; count only ours.
    const all = store.all().filter((i) => created.has(i.name) && i.startedAt !== null);
    return all.length === 40 ? all : undefined;
  });
  store.close();
  await stop(w2.child);
  const latencies = started.map((i) => i.startedAt! - created.get(i.name)!);

  const results = {
    bundle_bytes: bundleBytes,
    rg_bytes: rgBytes,
    node_idle_rss_kb: nodeIdleKb,
    watch_idle_rss_kb: watchIdleKb,
    watch_10_sessions_peak_rss_kb: peakKb,
    idle_ratio: watchIdleKb / nodeIdleKb,
    latency_ms: { p50: pct(latencies, 50), p95: pct(latencies, 95), max: Math.max(...latencies), n: latencies.length },
  };
  const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;
  console.log(
    [
      '| watch | value |',
      '|---|---:|',
      `| bundle dist/ (entry, CLI, tools script, chunks) | ${(bundleBytes / 1024 / 1024).toFixed(2)} MiB (+ rg ${(rgBytes / 1024 / 1024).toFixed(1)} MiB) |`,
      `| idle node process (floor) | ${mib(nodeIdleKb)} |`,
      `| watch idle (synced) | ${mib(watchIdleKb)} (${results.idle_ratio.toFixed(2)}×) |`,
      `| watch, 10 sessions running (peak) | ${mib(peakKb)} |`,
      `| event → session start p50 / p95 (n=${latencies.length}) | ${results.latency_ms.p50} / ${results.latency_ms.p95} ms |`,
    ].join('\n'),
  );
  console.log(`RESULTS ${JSON.stringify(results)}`);
} finally {
  // A failed run must not leave a watcher behind.
  for (const c of watchers) if (c.exitCode === null) c.kill('SIGKILL');
  await kubectl(['delete', 'namespace', ns, '--wait=false']).catch(() => undefined);
}
