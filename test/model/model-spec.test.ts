import { describe, expect, it } from 'vitest';
import { modelSpecProblem } from '../../src/model/providers.ts';
import { MODEL_SPEC_CASES } from './model-spec.cases.ts';

describe('a PROVIDER:MODEL spec: which part is wrong, and the fix', () => {
  it.each(MODEL_SPEC_CASES.map((c) => ({ ...c, label: c.spec.slice(0, 40) })))('$label', ({ spec, problem }) => {
    const said = modelSpecProblem(spec);
    if (problem === undefined) expect(said).toBeUndefined();
    else {
      expect(said).toMatch(problem);
      expect(said!.length).toBeLessThan(300);
    }
  });
});
