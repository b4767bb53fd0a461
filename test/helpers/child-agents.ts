// The delegation engine on a test runtime: a ChildAgents handed to the runtime as its
// delegator, attached to a session of a fresh event log, with a replay model whose steps are
// addressed to the children (by name or profile). The children stop when the runtime's session
// closes (the workspace helper closes it after each test), and the log closes after that.
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { silentLogger } from '../../src/log.ts';
import type { Price } from '../../src/model/pricing.ts';
import { ReplayModel, type ReplayStep } from '../../src/model/replay.ts';
import { ChildAgents } from '../../src/runtime/child-agents.ts';
import { EventLog } from '../../src/store/event-log.ts';
import type { Clock } from '../../src/util/clock.ts';
import { setup, tempDir, type RuntimeSetup, type TestRuntime } from './workspace.ts';

export interface Delegation {
  /** The script the children replay (the parent's calls are the test's own). */
  steps?: ReplayStep[];
  /** How the runtime is made (default `setup`; `setupIn('golem')` for a dialect). */
  make?: (opts: RuntimeSetup) => Promise<TestRuntime & { dir: string }>;
  /** What times the engine's waits and wall clocks (default the real one; a MovedClock in a timing test). */
  clock?: Clock;
  /** The parent's model spec (default `replay:test`) and price (default null: unpriced). */
  spec?: string;
  price?: Price | null;
  /** Another model for a profile or `small`: refused (the default: the test has none), or the same script under that name. */
  otherModels?: 'refused' | 'same-script';
}

export async function delegatingRuntime(runtime: RuntimeSetup = {}, d: Delegation = {}) {
  const children = new ChildAgents(d.clock);
  const rt = await (d.make ?? setup)({ ...runtime, services: { ...runtime.services, delegator: children } });
  const log = EventLog.open(path.join(await tempDir(), 'db'));
  // After the afterEach hooks (the workspace's closes the session, which stops the children): their ends are written first.
  onTestFinished(() => log.close());
  const spec = d.spec ?? 'replay:test';
  rt.session.sessionId = log.createSession({ model: spec, workspace: rt.workspace, title: 'parent' });
  const model = new ReplayModel(d.steps ?? [], 'test');
  const price = d.price ?? null;
  children.attach({
    catalog: rt.catalog,
    dispatcher: rt.dispatcher,
    log,
    workspace: rt.workspace,
    model: { model, spec, price },
    modelFor: (other) =>
      d.otherModels === 'same-script'
        ? Promise.resolve({ model, spec: other, price })
        : Promise.reject(new Error('no other model in this test')),
    logger: silentLogger,
  });
  rt.session.onClose(() => children.stopAll());
  return { rt, log, children };
}
