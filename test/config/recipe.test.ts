import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRecipe, parseRecipe } from '../../src/config/load-recipe.ts';
import { recipeJsonSchema } from '../../src/config/recipe-schema.ts';
import { BUILTIN_TOOL_NAMES, BUILTIN_TOOLS } from '../../src/tools/index.ts';
import { recipeProblems } from '../helpers/recipe.ts';
import { tempDir } from '../helpers/workspace.ts';

async function problems(text: string): Promise<string[]> {
  const found = await recipeProblems(text);
  if (found.length === 0) throw new Error('expected the recipe to be rejected');
  return found;
}

const full = `
tools:
  disable: [write_file, delete_file]
  enable: [bash]
  grep: { engine: re2 }
  json_query:
    timeout_seconds: 5
tool_output:
  max_bytes: 65536
  max_lines: 1000
  per_tool:
    grep: { max_lines: 100 }
permissions:
  mode: accept-edits
  allow: ["tool.write_file:docs/**"]
  deny: ["tool.read_file:secrets/**", "tool.*:**/*.pem"]
  path_scope:
    allow: [".", "/var/log/app"]
    deny: [".env"]
`;

describe('recipes', () => {
  it('accepts every key this build implements', async () => {
    const r = await parseRecipe(full, 'r.yaml', BUILTIN_TOOLS);
    expect((r.tools as Record<string, { timeout_seconds?: number }> | undefined)?.json_query?.timeout_seconds).toBe(5);
    expect(r.permissions?.path_scope?.deny).toEqual(['.env']);
    expect(await parseRecipe('', 'empty.yaml', BUILTIN_TOOLS)).toEqual({});
  });

  it('rejects a misspelt top-level key with line:col and a suggestion', async () => {
    expect(await problems('tools:\n  disable: []\ntool_outptu:\n  max_bytes: 10\n')).toEqual([
      'r.yaml:3:1: unknown key "tool_outptu" — did you mean "tool_output"? Valid: model, instructions, max_steps, context, tools, safety, mcp, skills, kubernetes, web_search, alerts, tool_output, permissions, watch, hooks, peers, attach, agents',
    ]);
  });

  it('rejects nested unknown keys, a key from a newer build, and names the parent', async () => {
    expect(await problems('permissions:\n  mdoe: ask\n')).toEqual([
      'r.yaml:2:3: permissions: unknown key "mdoe" — did you mean "mode"? Valid: mode, plan_mode, allow, deny, path_scope, url_scope',
    ]);
    expect((await problems('url_scope:\n  allow: [example.com]\n'))[0]).toMatch(
      /^r.yaml:1:1: unknown key "url_scope"\. Valid: model, instructions, max_steps, context, tools, safety, mcp, skills, kubernetes, web_search, alerts, tool_output, permissions, watch, hooks, peers, attach, agents$/,
    );
    expect((await problems('tools:\n  gerp: { engine: re2 }\n'))[0]).toMatch(
      /^r.yaml:2:3: tools: unknown key "gerp" — did you mean "grep"\?/,
    );
    expect((await problems('tool_output:\n  per_tool:\n    read_fiel: { max_lines: 1 }\n'))[0]).toMatch(
      /3:5: tool_output.per_tool: unknown key "read_fiel" — did you mean "read_file"/,
    );
  });

  it('points at the offending value for a bad value', async () => {
    expect(await problems('tools:\n  disable: [read_file, gerp]\n')).toEqual([
      // Every valid name, in catalog order.
      `r.yaml:2:24: tools.disable.1: unknown tool "gerp" — did you mean "grep"? Valid: ${BUILTIN_TOOL_NAMES.join(', ')}`,
    ]);
    expect((await problems('permissions:\n  mode: sometimes\n'))[0]).toMatch(/^r.yaml:2:9: permissions.mode: /);
    expect((await problems('tool_output:\n  max_bytes: -5\n'))[0]).toMatch(/^r.yaml:2:14: tool_output.max_bytes: /);
    expect((await problems('permissions:\n  deny: ["read_file"]\n'))[0]).toMatch(
      /2:10: permissions.deny.0: "read_file" is not a permission rule; expected tool.<name>/,
    );
    expect((await problems('permissions:\n  allow: ["tool.writefile"]\n'))[0]).toMatch(
      /names an unknown tool "writefile" — did you mean "write_file"/,
    );
  });

  it('reports YAML syntax errors and duplicate keys with their position', async () => {
    expect((await problems('tools:\n  disable: [a\n'))[0]).toMatch(/^r.yaml:\d+:\d+: YAML /);
    expect(await problems('tools: {}\ntools: {}\n')).toEqual(['r.yaml:2:1: duplicate key "tools" (first at 1:1)']);
  });

  it('reports a tool both disabled and enabled at its enable entry', async () => {
    expect(await problems('tools:\n  disable: [grep, glob]\n  enable: [stat, glob]\n')).toEqual([
      'r.yaml:3:18: tools.enable.1: glob is both disabled and enabled (tools.disable.1); keep it in one list',
    ]);
  });

  it('reports every problem at once', async () => {
    expect(await problems('tool_outptu: {}\npermissions:\n  mode: nope\n')).toHaveLength(2);
  });

  it('rejects a recipe that is not a mapping, and a missing file', async () => {
    expect((await problems('- a\n- b\n'))[0]).toMatch(/a recipe is a mapping.*not a list/);
    await expect(loadRecipe('/nonexistent/recipe.yaml', BUILTIN_TOOLS)).rejects.toThrow(/cannot read a recipe \(no such file\)/);
  });

  it('loads from disk with the file name in every message', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'bad.yaml');
    await writeFile(file, 'tool_outptu: {}\n');
    await expect(loadRecipe(file, BUILTIN_TOOLS)).rejects.toThrow(`${file}:1:1: unknown key "tool_outptu"`);
  });

  it('publishes a JSON Schema that forbids unknown keys', () => {
    const schema = recipeJsonSchema(BUILTIN_TOOLS) as { additionalProperties: boolean; properties: Record<string, unknown> };
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual([
      'model',
      'instructions',
      'max_steps',
      'context',
      'tools',
      'safety',
      'mcp',
      'skills',
      'kubernetes',
      'web_search',
      'alerts',
      'tool_output',
      'permissions',
      'watch',
      'hooks',
      'peers',
      'attach',
      'agents',
    ]);
  });
});

describe('the shipped example recipes', () => {
  it.each(['read-only.yaml', 'edit-docs.yaml'])('%s validates', async (name) => {
    const file = path.join(import.meta.dirname, '../../examples/recipes', name);
    await expect(loadRecipe(file, BUILTIN_TOOLS)).resolves.toBeTypeOf('object');
  });
});
