import { describe, expect, it } from 'vitest';
import { setupIn } from '../../helpers/workspace.ts';
import { TODO_WRITE_CASES } from './todo-write.cases.ts';

describe('TodoWrite (golem): the contract, every problem in one error', () => {
  const golem = setupIn('golem');
  for (const c of TODO_WRITE_CASES) {
    it(c.name, async () => {
      const rt = await golem();
      if (c.error) {
        const error = await rt.refused('TodoWrite', c.args);
        for (const p of c.error) expect(error).toMatch(p);
        expect(rt.session.plan.steps).toEqual([]);
        return;
      }
      expect(await rt.ok('TodoWrite', c.args)).toEqual({ result: c.ok });
      if (c.steps) expect(rt.session.plan.steps).toEqual(c.steps);
    });
  }
});
