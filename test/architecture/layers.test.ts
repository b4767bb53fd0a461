import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkArchitecture } from './import-graph.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * src/ against the layer table in docs/architecture.md. No exception list: an
 * import the table does not allow is fixed in the code, or the table's row is
 * changed in a commit that says why.
 */
describe('the layers of src/ (docs/architecture.md)', () => {
  const report = checkArchitecture(ROOT);

  it('the table has a row for every folder and allows no cycle', () => {
    expect(report.table, report.table.join('\n')).toEqual([]);
  });

  it('every import is one its folder may make', () => {
    expect(report.imports, report.imports.join('\n')).toEqual([]);
  });

  it('no cycle between folders', () => {
    expect(report.cycles, report.cycles.join('\n')).toEqual([]);
  });

  it('no cycle between files, inside a folder too', () => {
    expect(report.fileCycles, report.fileCycles.join('\n')).toEqual([]);
  });

  it('only the composition root, config/ and main.ts read the environment', () => {
    expect(report.env, report.env.join('\n')).toEqual([]);
  });
});
