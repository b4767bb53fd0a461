// `core-agent watch` at rest against an idle `node` process, side by side, with no cluster: the
// watch runs against bench/fake-kube-api.ts (an empty Event list and a silent watch on
// 127.0.0.1), and its resident memory is read once its informer has synced (/readyz 200) and
// it has settled. Each pair starts both processes together and reads both VmRSS at the same
// moment; the ratio is the median of the per-pair ratios. Used by bench/run.ts (`--only watch`).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeKubeApi } from './fake-kube-api.ts';

export interface WatchIdleRow {
  pairs: number;
  /** The fake API over HTTPS with the test CA and a token (as a cluster is reached), or plain HTTP. */
  tls: boolean;
  /** Medians, KiB. */
  nodeIdleKb: number;
  watchIdleKb: number;
  ratio: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssKb = async (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
const stop = (c: ChildProcess) => new Promise<void>((r) => (c.exitCode !== null ? r() : (c.once('exit', () => r()), c.kill('SIGTERM'))));

/** Polls until `probe` gives a value, or throws after `ms`. */
async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`watch-idle: timed out waiting for ${what}`);
    await sleep(50);
  }
}

export async function watchIdle(
  node: string,
  bundle: string,
  pairs: number,
  o: { settleMs?: number; tls?: boolean } = {},
): Promise<WatchIdleRow> {
  const { settleMs = 1000, tls = false } = o;
  const dir = await mkdtemp(path.join(tmpdir(), 'core-agent-watch-idle-'));
  const api = await startFakeKubeApi(path.join(dir, 'kubeconfig'), { tls });
  const recipe = path.join(dir, 'watch.yaml');
  const script = path.join(dir, 'incident.jsonl');
  await writeFile(
    recipe,
    JSON.stringify({ instructions: 'You triage Kubernetes incidents.', watch: { namespaces: ['shop'], reasons: ['BackOff'] } }),
  );
  await writeFile(script, `${JSON.stringify({ text: 'UNRESOLVED: bench' })}\n`);
  const env = { PATH: process.env.PATH, HOME: dir, KUBECONFIG: api.kubeconfig };
  const samples: Array<[number, number]> = [];
  try {
    for (let i = 0; i <= pairs; i++) {
      const reference = spawn(node, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      const args = [
        bundle,
        'watch',
        '-c',
        recipe,
        '--model',
        `replay:${script}`,
        '--session-db',
        path.join(dir, `s${i}.db`),
        '--listen',
        '127.0.0.1:0',
        '-w',
        dir,
      ];
      const watch = spawn(node, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      watch.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      watch.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      try {
        const url = await until('watch listening', 20_000, async () => {
          if (watch.exitCode !== null) throw new Error(`watch exited ${watch.exitCode}: ${out.slice(-2000)}`);
          return /health and metrics on (http:\/\/\S+)/.exec(out)?.[1];
        });
        await until('informer synced', 20_000, async () => ((await fetch(`${url}/readyz`)).status === 200 ? true : undefined));
        await sleep(settleMs);
        const [r, w] = await Promise.all([rssKb(reference.pid!), rssKb(watch.pid!)]);
        if (i > 0) samples.push([r, w]); // the first pair warms the page cache and the code cache
      } finally {
        await Promise.all([stop(reference), stop(watch)]);
      }
    }
  } finally {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  }
  return {
    pairs,
    tls,
    nodeIdleKb: median(samples.map(([r]) => r)),
    watchIdleKb: median(samples.map(([, w]) => w)),
    ratio: median(samples.map(([r, w]) => w / r)),
  };
}

const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;

export function watchIdleTable(rows: readonly WatchIdleRow[]): string {
  return [
    `| watch idle, informer synced (fake API on 127.0.0.1, ${rows[0]!.pairs} pairs, medians) | RSS | idle node | ratio |`,
    '|---|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| core-agent watch, ${row.tls ? 'HTTPS (test CA, token)' : 'plain HTTP'} | ${mib(row.watchIdleKb)} | ${mib(row.nodeIdleKb)} | ${row.ratio.toFixed(2)}× |`,
    ),
  ].join('\n');
}
