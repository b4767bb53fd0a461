import type { ChildReport, Delegator } from '../framework/services.ts';

/**
 * Wait for a child a delegation tool just started, up to the run's sync wait
 * (agents.sync_wait_seconds). The parent's cancelled turn stops the child with it; a child
 * still running after the wait runs on, and its report goes into the parent's next model call.
 */
export async function awaitStarted(
  delegator: Delegator,
  name: string,
  parentSession: string | undefined,
  signal: AbortSignal,
): Promise<{ report: ChildReport | undefined; deferred: boolean }> {
  const report = await delegator.wait(name, delegator.syncWaitMs, parentSession, signal);
  if (signal.aborted) return { report: (await delegator.stop(name, parentSession)) ?? report, deferred: false };
  if (report?.status === 'running') {
    delegator.defer(name);
    return { report, deferred: true };
  }
  return { report, deferred: false };
}
