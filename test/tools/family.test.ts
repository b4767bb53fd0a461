import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { familyTools } from '../../src/tools/framework/family.ts';
import { BUILTIN_TOOLS } from '../../src/tools/index.ts';
import { defineTool } from '../../src/tools/framework/tool.ts';
import { toolFamilyFiles } from '../../scripts/bundle/tool-family.mjs';

const tool = (name: string) =>
  defineTool({ name, description: name, kind: 'read', narrowHint: '', args: z.strictObject({}), run: async () => ({}) });

describe('familyTools', () => {
  it('takes the one definition each tool file exports, in file order, ignoring its other exports', () => {
    const tools = familyTools('demo', [
      { file: 'a.ts', exports: { aTool: tool('a'), A_DEFAULTS: { x: 1 }, helper: () => 1 } },
      { file: 'b.ts', exports: { bTool: tool('b') } },
    ]);
    expect(tools.map((t) => t.name)).toEqual(['a', 'b']);
  });

  it.each([
    ['no definition', { helper: () => 1 }, 'found none'],
    ['two definitions', { one: tool('one'), two: tool('two') }, 'found one, two'],
  ])('refuses a tool file with %s, naming the file', (_what, exports, found) => {
    expect(() => familyTools('demo', [{ file: 'x.ts', exports }])).toThrow(`src/tools/demo/x.ts: a tool file`);
    expect(() => familyTools('demo', [{ file: 'x.ts', exports }])).toThrow(found);
  });
});

describe('the built-in families', () => {
  const root = path.resolve('src/tools');
  const families = readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

  it('every tool file of every family folder is a registered built-in, and nothing else is', () => {
    const files = families.flatMap((f) => toolFamilyFiles(path.join(root, f)).map((p) => path.basename(p, '.ts').replaceAll('-', '_')));
    expect(BUILTIN_TOOLS.map((t) => t.name).sort()).toEqual(files.sort());
  });

  it('a family folder with tool files has an index.ts that the catalog reads', () => {
    for (const f of families) {
      if (toolFamilyFiles(path.join(root, f)).length === 0) continue;
      expect(readdirSync(path.join(root, f)), f).toContain('index.ts');
    }
  });
});
