// The start-up of whole core-agent processes against `node -e 0`, in pairs: reference, command,
// reference, command … so that both see the same machine state, and each ratio is the median of
// the per-pair ratios. Per process: wall (performance.now around the spawn), CPU (user + system,
// from bash's `times`, which reports the children's rusage to the millisecond; GNU time's is in
// 10 ms steps) and peak RSS (GNU time's %M). Used by bench/run.ts (`--only cold`); also runnable
// on its own: `node bench/cold-start.ts [PAIRS]` after `node scripts/build.mjs`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Sample {
  wallMs: number;
  cpuMs: number | null;
  maxRssKb: number | null;
}

export interface ColdRow {
  name: string;
  reference: Sample;
  measured: Sample;
  /** Medians of the per-pair ratios (measured ÷ reference). */
  ratio: { wall: number; cpu: number | null; rss: number | null };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const hasTime = existsSync('/usr/bin/time');
const hasBash = spawnSync('bash', ['-c', 'true']).status === 0;

function wallAndRss(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Pick<Sample, 'wallMs' | 'maxRssKb'> {
  const t0 = performance.now();
  const r = hasTime
    ? spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...args], { cwd, env, encoding: 'utf8', maxBuffer: 1 << 26 })
    : spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 26 });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const kb = hasTime ? Number(r.stderr.trim().split('\n').pop()) : NaN;
  return { wallMs, maxRssKb: Number.isFinite(kb) ? kb : null };
}

/** `times` prints the shell's own user/system time, then its children's: "0m0.021s 0m0.008s". */
function cpu(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): number | null {
  if (!hasBash) return null;
  const r = spawnSync('bash', ['-c', '"$@" >/dev/null 2>&1; times', 'bash', cmd, ...args], { cwd, env, encoding: 'utf8' });
  const children = r.stdout.trim().split('\n')[1] ?? '';
  const secs = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return secs.length === 2 ? (secs[0]! + secs[1]!) * 1000 : null;
}

function sample(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Sample {
  return { ...wallAndRss(cmd, args, cwd, env), cpuMs: cpu(cmd, args, cwd, env) };
}

const medianSample = (xs: Sample[]): Sample => ({
  wallMs: median(xs.map((s) => s.wallMs)),
  cpuMs: xs.every((s) => s.cpuMs !== null) ? median(xs.map((s) => s.cpuMs!)) : null,
  maxRssKb: xs.every((s) => s.maxRssKb !== null) ? median(xs.map((s) => s.maxRssKb!)) : null,
});

const pairRatio = (pairs: Array<[Sample, Sample]>, key: keyof Sample): number | null =>
  pairs.every(([r, m]) => r[key] !== null && m[key] !== null && r[key]! > 0) ? median(pairs.map(([r, m]) => m[key]! / r[key]!)) : null;

export interface ColdCommand {
  name: string;
  args: string[];
  cwd: string;
}

/** Measures each command against `node -e 0` in `pairs` interleaved pairs (after one warm-up of each). */
export function coldStart(node: string, commands: ColdCommand[], pairs: number, env: NodeJS.ProcessEnv = process.env): ColdRow[] {
  return commands.map(({ name, args, cwd }) => {
    sample(node, ['-e', '0'], cwd, env);
    sample(node, args, cwd, env); // warm the page cache (and the compile cache, when the command fills one)
    const measured: Array<[Sample, Sample]> = [];
    for (let i = 0; i < pairs; i++) measured.push([sample(node, ['-e', '0'], cwd, env), sample(node, args, cwd, env)]);
    return {
      name,
      reference: medianSample(measured.map((p) => p[0])),
      measured: medianSample(measured.map((p) => p[1])),
      ratio: { wall: pairRatio(measured, 'wallMs')!, cpu: pairRatio(measured, 'cpuMs'), rss: pairRatio(measured, 'maxRssKb') },
    };
  });
}

/** The replayed one-step run: one model turn that answers in text, no tool call. */
export async function replayFixture(dir: string): Promise<{ script: string; workspace: string }> {
  const workspace = path.join(dir, 'cold-ws');
  await mkdir(workspace, { recursive: true });
  const script = path.join(dir, 'cold-one-step.jsonl');
  await writeFile(script, `${JSON.stringify({ text: 'done' })}\n`);
  return { script, workspace };
}

/** The commands `--only cold` measures: the ones a user runs most, as a user runs them. */
export async function coldCommands(bundle: string, dir: string): Promise<ColdCommand[]> {
  const { script, workspace } = await replayFixture(dir);
  return [
    { name: 'core-agent --version', args: [bundle, '--version'], cwd: workspace },
    { name: 'core-agent --help', args: [bundle, '--help'], cwd: workspace },
    { name: 'core-agent tools list --json', args: [bundle, 'tools', 'list', '--json'], cwd: workspace },
    {
      name: 'core-agent run (replayed, one step)',
      args: [bundle, 'run', '-m', `replay:${script}`, '--session-db', ':memory:', 'hello'],
      cwd: workspace,
    },
  ];
}

const x = (r: number | null) => (r === null ? 'n/a' : `${r.toFixed(2)}×`);
const ms = (v: number | null) => (v === null ? 'n/a' : `${v.toFixed(1)} ms`);
const mib = (kb: number | null) => (kb === null ? 'n/a' : `${(kb / 1024).toFixed(0)} MiB`);

/** A Markdown table: each command beside the `node -e 0` of its own pairs. */
export function coldTable(rows: ColdRow[], pairs: number): string {
  return [
    `| command (${pairs} pairs, medians) | wall | node -e 0 | ratio | CPU | node -e 0 | ratio | peak RSS | node -e 0 | ratio |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${ms(r.measured.wallMs)} | ${ms(r.reference.wallMs)} | ${x(r.ratio.wall)} | ${ms(r.measured.cpuMs)} | ` +
        `${ms(r.reference.cpuMs)} | ${x(r.ratio.cpu)} | ${mib(r.measured.maxRssKb)} | ${mib(r.reference.maxRssKb)} | ${x(r.ratio.rss)} |`,
    ),
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const pairs = Number(process.argv[2] ?? 15);
  const dir = path.join(root, '.bench-cache');
  const rows = coldStart(process.execPath, await coldCommands(path.join(root, 'dist/core-agent.mjs'), dir), pairs);
  console.log(`node ${process.version}\n${coldTable(rows, pairs)}`);
}
