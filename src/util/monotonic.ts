// Milliseconds on a monotonic clock, for measuring durations (a tool call, a turn, a run).
// Not performance.now(): the global `performance` is a lazy getter that loads perf_hooks on its
// first read — eleven internal modules, ~2.5 ms of CPU, 0.03× `node -e 0` of a replayed `run`
// (test/cli/startup.cases.ts holds that a run does not load it). process.hrtime is the same
// clock (CLOCK_MONOTONIC), already loaded; the origin differs, which a duration does not see.
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
