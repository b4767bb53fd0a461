import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigLayers } from '../../src/config/config-layers.ts';
import { saveAllowRule } from '../../src/config/save-allow-rule.ts';
import { BUILTIN_TOOLS } from '../../src/tools/index.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';
import { SAVE_RULE_CASES } from './save-allow-rule.cases.ts';

const read = (p: string) => readFile(p).catch(() => null);

describe('saving an "always" rule to the workspace config', () => {
  it.each(SAVE_RULE_CASES)('$name', async (c) => {
    const ws = await tempDir();
    await writeTree(ws, c.tree);
    const file = path.join(ws, '.agents/config.yaml');
    const outside = path.join(ws, 'outside.yaml');
    const before = [await read(file), await read(outside)];
    if (c.error) {
      await expect(saveAllowRule(ws, c.rule)).rejects.toThrow(c.error);
      expect([await read(file), await read(outside)]).toEqual(before);
      return;
    }
    expect(await saveAllowRule(ws, c.rule)).toEqual({ file, added: c.added });
    expect(await readFile(file, 'utf8')).toBe(c.after);
    if (c.added) expect((await stat(file)).mode & 0o777).toBe(0o600);
    // The CLI reads it back, the rule among the allow rules (a trusted workspace).
    const layers = await loadConfigLayers({
      recipeFile: undefined,
      workspace: ws,
      env: {},
      home: await tempDir(),
      tools: BUILTIN_TOOLS,
      trustWorkspace: true,
    });
    expect(layers.recipe.permissions?.allow).toContain(c.rule);
  });
});
