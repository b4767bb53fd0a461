// agents.max_concurrent's default follows the dialect: Cagent's is 10 (its subagents.max_concurrent),
// core-agent's 8. A real runtime configures the engine (createRuntime hands it the recipe's agents:
// and the dialect); children are started straight on the engine, which counts one as running from
// its start, so the limit shows without any child having to block.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.ts';
import { ReplayModel } from '../../../src/model/replay.ts';
import { ChildAgents } from '../../../src/runtime/child-agents.ts';
import { EventLog } from '../../../src/store/event-log.ts';
import { setup, setupIn, tempDir } from '../../helpers/workspace.ts';

const logs: EventLog[] = [];
afterEach(() => {
  for (const l of logs.splice(0)) l.close();
});

async function engineIn(make: typeof setup, recipe?: string) {
  const children = new ChildAgents();
  const rt = await make({ services: { delegator: children }, flags: { mode: 'yolo' }, ...(recipe ? { recipe } : {}) });
  const log = EventLog.open(path.join(await tempDir(), 'db'));
  logs.push(log);
  rt.session.sessionId = log.createSession({ model: 'replay:test', workspace: rt.workspace, title: 'parent' });
  const model = new ReplayModel([], 'test');
  children.attach({
    catalog: rt.catalog,
    dispatcher: rt.dispatcher,
    log,
    workspace: rt.workspace,
    model: { model, spec: 'replay:test', price: null },
    modelFor: () => Promise.reject(new Error('no other model in this test')),
    logger: silentLogger,
  });
  return { children, parent: rt.session.sessionId };
}

/** Start children until one is refused: how many started, and the refusal. */
async function fill(make: typeof setup, recipe?: string): Promise<{ started: number; refusal: string }> {
  const { children, parent } = await engineIn(make, recipe);
  try {
    for (let n = 0; n < 20; n++) {
      const r = children.start({ profile: 'general', goal: 'x' }, parent);
      if (!r.ok) return { started: n, refusal: r.error };
    }
    return { started: 20, refusal: '' };
  } finally {
    await children.stopAll();
  }
}

describe('agents.max_concurrent by dialect', () => {
  it('cagent: 10 children at once, the 11th refused', async () => {
    expect(await fill(setupIn('cagent'))).toEqual({ started: 10, refusal: expect.stringMatching(/\(agents\.max_concurrent: 10\)/) });
  });

  it('core-agent: 8 at once', async () => {
    expect(await fill(setup)).toEqual({ started: 8, refusal: expect.stringMatching(/\(agents\.max_concurrent: 8\)/) });
  });

  it("the recipe's max_concurrent wins in either dialect", async () => {
    const recipe = 'agents:\n  max_concurrent: 3\n';
    expect((await fill(setupIn('cagent'), recipe)).started).toBe(3);
    expect((await fill(setup, recipe)).started).toBe(3);
  });
});
