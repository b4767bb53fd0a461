// What a child agent costs the process that runs it (issue 39's benchmark, part b): whole
// `core-agent run` processes on replay scripts, measured as cold-start.ts measures (wall around
// the spawn, peak RSS from GNU time's %M), in interleaved rounds so each pair sees the same
// machine. Part a (context bytes with agentic_read_file) is beside it in bench/run.ts.
//   - a plain turn against a turn that spawns one child which answers at once: the start-up of
//     a child (its catalog narrowed, its session opened, its turn) in ms and in peak RSS;
//   - one against eight children running at once (each in a `sleep` through bash, so all eight
//     are alive together): the peak RSS each further child adds (target ≤ 15 MiB).
// Runnable alone after `node scripts/build.mjs`: `node bench/delegation-bench.ts [ROUNDS]`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface DelegationFigures {
  rounds: number;
  plain: { wallMs: number; maxRssKb: number | null };
  oneChild: { wallMs: number; maxRssKb: number | null };
  oneSleeper: { wallMs: number; maxRssKb: number | null };
  eightSleepers: { wallMs: number; maxRssKb: number | null };
  /** (eight − one) ÷ 7, in MiB: what each further concurrent child adds to the peak. */
  rssPerChildMiB: number | null;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const hasTime = existsSync('/usr/bin/time');

function runOnce(bundle: string, ws: string, script: string): { wallMs: number; maxRssKb: number | null } {
  const args = [bundle, 'run', '-m', `replay:${script}`, '--session-db', ':memory:', '--yolo', 'go'];
  const env = { PATH: process.env.PATH, HOME: ws };
  const t0 = performance.now();
  const r = hasTime
    ? spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], { cwd: ws, env, encoding: 'utf8' })
    : spawnSync(process.execPath, args, { cwd: ws, env, encoding: 'utf8' });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`run on ${script} exited ${r.status}: ${r.stderr.slice(-1500)}`);
  const kb = hasTime ? Number(r.stderr.trim().split('\n').pop()) : NaN;
  return { wallMs, maxRssKb: Number.isFinite(kb) ? kb : null };
}

const lines = (steps: object[]) => steps.map((s) => JSON.stringify(s)).join('\n');

/** n children started at once (wait: false), each alive in a 1.5 s sleep, then waited for. */
function sleepers(n: number): object[] {
  const names = Array.from({ length: n }, (_, i) => `general-${i + 1}`);
  return [
    // Each with its own name (the same call five times over is what the watchdog cuts).
    { tool_calls: names.map((name) => ({ name: 'spawn_agent', args: { agent: 'general', name, goal: `sleep (${name})`, wait: false } })) },
    ...names.map((agent) => ({ agent, tool_calls: [{ name: 'bash', args: { command: 'sleep 1.5', timeout: 30 } }] })),
    ...names.map((agent) => ({ agent, text: 'slept' })),
    { tool_calls: names.map((name) => ({ name: 'wait_agent', args: { name, timeout_seconds: 30 } })) },
    { text: 'all slept' },
  ];
}

export async function delegationFigures(bundle: string, dir: string, rounds: number): Promise<DelegationFigures> {
  await mkdir(dir, { recursive: true });
  const scripts = {
    plain: lines([{ text: 'ok' }]),
    oneChild: lines([
      { tool_calls: [{ name: 'spawn_agent', args: { agent: 'general', goal: 'say ok' } }] },
      { agent: 'general', text: 'ok' },
      { text: 'ok' },
    ]),
    oneSleeper: lines(sleepers(1)),
    eightSleepers: lines(sleepers(8)),
  };
  for (const [name, text] of Object.entries(scripts)) await writeFile(path.join(dir, `${name}.jsonl`), text);
  const samples: Record<keyof typeof scripts, Array<{ wallMs: number; maxRssKb: number | null }>> = {
    plain: [],
    oneChild: [],
    oneSleeper: [],
    eightSleepers: [],
  };
  // A warm-up of each (the code cache), then interleaved rounds.
  for (const name of Object.keys(scripts)) runOnce(bundle, dir, `${name}.jsonl`);
  for (let i = 0; i < rounds; i++)
    for (const name of Object.keys(scripts) as Array<keyof typeof scripts>) samples[name].push(runOnce(bundle, dir, `${name}.jsonl`));
  const med = (xs: Array<{ wallMs: number; maxRssKb: number | null }>) => ({
    wallMs: median(xs.map((x) => x.wallMs)),
    maxRssKb: xs.every((x) => x.maxRssKb !== null) ? median(xs.map((x) => x.maxRssKb!)) : null,
  });
  const eight = med(samples.eightSleepers);
  const one = med(samples.oneSleeper);
  return {
    rounds,
    plain: med(samples.plain),
    oneChild: med(samples.oneChild),
    oneSleeper: one,
    eightSleepers: eight,
    rssPerChildMiB: eight.maxRssKb !== null && one.maxRssKb !== null ? (eight.maxRssKb - one.maxRssKb) / 7 / 1024 : null,
  };
}

const signed = (n: number, digits: number) => `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(digits)}`;

export function delegationTable(f: DelegationFigures): string {
  const mib = (kb: number | null) => (kb === null ? 'n/a' : `${(kb / 1024).toFixed(1)} MiB`);
  const row = (name: string, s: { wallMs: number; maxRssKb: number | null }) =>
    `  ${name.padEnd(34)} ${s.wallMs.toFixed(0).padStart(6)} ms  peak ${mib(s.maxRssKb)}`;
  return [
    `delegation, whole runs on replay scripts (medians of ${f.rounds} rounds):`,
    row('a plain turn', f.plain),
    row('a turn that spawns one child', f.oneChild),
    `  → a child's start: ${signed(f.oneChild.wallMs - f.plain.wallMs, 0)} ms, ${
      f.oneChild.maxRssKb !== null && f.plain.maxRssKb !== null
        ? `${signed((f.oneChild.maxRssKb - f.plain.maxRssKb) / 1024, 1)} MiB`
        : 'n/a'
    } peak`,
    row('1 child alive (a 1.5 s sleep)', f.oneSleeper),
    row('8 children alive at once', f.eightSleepers),
    `  → each further concurrent child: ${f.rssPerChildMiB === null ? 'n/a' : `${signed(f.rssPerChildMiB, 1)} MiB`} of peak RSS (target ≤ 15 MiB)`,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const rounds = Number(process.argv[2] ?? 5);
  const dir = path.join(process.env.TMPDIR ?? '/tmp', `core-agent-delegation-bench-${process.pid}`);
  console.log(delegationTable(await delegationFigures(path.join(root, 'dist', 'core-agent.mjs'), dir, rounds)));
}
