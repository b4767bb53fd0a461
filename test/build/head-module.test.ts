// scripts/bundle/head-module.mjs over the matrix of tool files in head-module.cases.ts: the head
// module holds what each case keeps and none of what it drops, and is a module esbuild reads; or
// the file is refused with the reason. The real tools' modules are tool-head.test.ts's.
import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { headModule, headModuleId, parseHeadModuleId } from '../../scripts/bundle/head-module.mjs';
import { HEAD_MODULE_CASES } from './head-module.cases.ts';

describe('a head module cut out of a tool file', () => {
  it.each(HEAD_MODULE_CASES)('$what', async ({ source, keys, keeps = [], drops = [], refused }) => {
    const made = headModule(source, keys, 't.ts');
    if (refused !== undefined) {
      expect(made.source).toBeUndefined();
      expect(made.refused).toMatch(refused);
      return;
    }
    expect(made.refused).toBeUndefined();
    const text = made.source!;
    for (const k of keeps) expect(text).toContain(k);
    for (const d of drops) expect(text).not.toContain(d);
    // One default export holding exactly the members asked for.
    expect(text).toMatch(new RegExp(`export default \\{\\n${keys.map((k) => `  ${k}\\b[^\\n]*\\n`).join('')}\\};\\n$`));
    await expect(transform(text, { loader: 'ts', format: 'esm' })).resolves.toBeDefined();
  });

  it('its id names the file and the members, and reads back', () => {
    const id = headModuleId('/src/tools/shell/bash.ts', ['description', 'available']);
    expect(id).toBe('tool-head:/src/tools/shell/bash.ts?description,available');
    expect(parseHeadModuleId(id)).toEqual({ file: '/src/tools/shell/bash.ts', keys: ['description', 'available'] });
    expect(parseHeadModuleId('virtual:tool-family')).toBeUndefined();
  });
});
