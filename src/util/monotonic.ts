// Milliseconds on a monotonic clock, for measuring durations (a tool call, a turn, a run).
// Not performance.now(): the global `performance` is a lazy getter that loads perf_hooks on its
// first read — eleven internal modules. Alone, `node -e 'performance.now()'` costs 1.03× `node
// -e 0`; in a replayed `run`, 1.96× → 1.84× without it (docs/benchmarks.md), and
// test/cli/startup.cases.ts holds that a run does not load it. process.hrtime reads the same
// clock (CLOCK_MONOTONIC) and is already loaded; its origin differs, which a duration does not see.
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
