import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOOK_EVENTS } from '../../src/config/hooks-schema.ts';
import { loadRecipe } from '../../src/config/load-recipe.ts';
import { loadYaml } from '../../src/config/parse-config.ts';
import { BUILTIN_TOOLS } from '../../src/tools/index.ts';

const dir = fileURLToPath(new URL('../../scion/', import.meta.url));
const yamlFile = async (name: string) =>
  (await loadYaml()).parseDocument(await readFile(`${dir}${name}`, 'utf8')).toJS() as Record<string, any>;

describe('the Scion harness in scion/', () => {
  it('recipe.yaml wires every hook event to sciontool hook as an argv list (no shell)', async () => {
    const recipe = await loadRecipe(`${dir}recipe.yaml`, BUILTIN_TOOLS);
    for (const event of HOOK_EVENTS)
      expect(recipe.hooks?.[event], event).toEqual([{ command: ['sciontool', 'hook', '--dialect=core-agent'] }]);
  });

  it('dialect.yaml maps each of our events to the Scion event of the same name', async () => {
    const dialect = await yamlFile('dialect.yaml');
    expect(dialect.dialect).toBe('core-agent');
    expect(dialect.event_name_field).toBe('hook_event_name');
    expect(Object.keys(dialect.mappings).sort()).toEqual([...HOOK_EVENTS].sort());
    for (const event of HOOK_EVENTS) expect(dialect.mappings[event].event).toBe(event);
    expect(dialect.mappings['tool-start'].fields).toEqual({ tool_name: '.tool_name', tool_input: '.tool_input' });
    expect(dialect.mappings['tool-end'].fields).toEqual({ tool_name: '.tool_name', tool_output: '.tool_output' });
  });

  it('config.yaml starts the REPL with the harness recipe, and its model aliases are model specs', async () => {
    const config = await yamlFile('config.yaml');
    expect(config.command.base.slice(0, 2)).toEqual(['core-agent', 'repl']);
    expect(config.command.base).toContain('-c');
    expect(config.command.base.at(-1)).toMatch(/\/recipe\.yaml$/);
    for (const spec of Object.values(config.model_aliases)) expect(spec).toMatch(/^(google|vertex|openai|anthropic):[\w.-]+$/);
  });
});
