// agents.max_concurrent's default follows the dialect: Cagent's is 10 (its subagents.max_concurrent),
// core-agent's 8. A real runtime configures the engine (createRuntime hands it the recipe's agents:
// and the dialect); children are started straight on the engine, which counts one as running from
// its start, so the limit shows without any child having to block.
import { describe, expect, it } from 'vitest';
import { delegatingRuntime } from '../../helpers/child-agents.ts';
import { setup, setupIn } from '../../helpers/workspace.ts';

async function engineIn(make: typeof setup, recipe?: string) {
  const { rt, children } = await delegatingRuntime({ flags: { mode: 'yolo' }, ...(recipe ? { recipe } : {}) }, { make });
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
