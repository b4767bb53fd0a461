// In-process benchmark harness, bundled by bench/run.ts: what wait_and_verify adds per
// attempt on top of the polled tool's own latency. N direct calls of `stat` through the
// dispatcher, against one wait_and_verify that polls the same call N times (a condition
// that never holds — an expect_jq, then an expect_not_contains — max_attempts N, the
// smallest interval the operator floor allows, which is then subtracted). Prints JSON.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRuntime } from '../src/runtime/runtime.ts';

const [workspace, attemptsText] = process.argv.slice(2);
const N = Number(attemptsText ?? 200);
const INTERVAL_S = 0.01;
writeFileSync(path.join(workspace!, 'target.txt'), 'x');
const recipe = path.join(workspace!, 'verify-bench.yaml');
writeFileSync(recipe, `tools:\n  wait_and_verify: { min_interval_seconds: ${INTERVAL_S}, max_attempts: 10000 }\n`);
const rt = await createRuntime({ flags: { workspace, recipe }, env: {}, commandEnv: process.env });
const args = { path: 'target.txt' };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const conditions = { expect_jq: { expect_jq: '.size == -1' }, expect_contains: { expect_not_contains: 'target' } };
const directs: number[] = [];
const waits: Record<string, number[]> = { expect_jq: [], expect_contains: [] };
for (let round = 0; round < 5; round++) {
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const r = await rt.dispatcher.call('stat', args);
    if (!r.ok) throw new Error(r.error);
  }
  directs.push((performance.now() - t0) / N);
  for (const [name, condition] of Object.entries(conditions)) {
    const t1 = performance.now();
    const w = await rt.dispatcher.call('wait_and_verify', {
      tool: 'stat',
      args,
      ...condition,
      interval_seconds: INTERVAL_S,
      max_attempts: N,
      timeout_seconds: 300,
    });
    const total = performance.now() - t1;
    if (!w.ok || w.result.attempts !== N) throw new Error(JSON.stringify(w));
    // The sleeps between attempts are the wait itself, not overhead.
    waits[name]!.push((total - (N - 1) * INTERVAL_S * 1000) / N);
  }
}
process.stdout.write(
  JSON.stringify({
    attempts: N,
    directMs: median(directs),
    perAttemptJqMs: median(waits.expect_jq!),
    perAttemptContainsMs: median(waits.expect_contains!),
  }),
);
