import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/runtime.ts';
import { SettingsError } from '../../src/runtime/settings.ts';
import { tempDir } from '../helpers/workspace.ts';

async function recipe(text: string): Promise<string> {
  const file = path.join(await tempDir(), 'r.yaml');
  await writeFile(file, text);
  return file;
}

describe('precedence: flags > environment > recipe > defaults', () => {
  it('permission mode', async () => {
    const ws = await tempDir();
    const r = await recipe('permissions:\n  mode: plan\n');
    expect((await createRuntime({ flags: { workspace: ws }, env: {} })).gate.mode).toBe('ask');
    expect((await createRuntime({ flags: { workspace: ws, recipe: r }, env: {} })).gate.mode).toBe('plan');
    expect((await createRuntime({ flags: { workspace: ws, recipe: r }, env: { CORE_AGENT_MODE: 'accept-edits' } })).gate.mode).toBe(
      'accept-edits',
    );
    expect(
      (await createRuntime({ flags: { workspace: ws, recipe: r, mode: 'yolo' }, env: { CORE_AGENT_MODE: 'accept-edits' } })).gate.mode,
    ).toBe('yolo');
  });

  it('recipe and workspace from the environment', async () => {
    const ws = await tempDir();
    const r = await recipe('tools:\n  disable: [grep]\n');
    const rt = await createRuntime({ flags: {}, env: { CORE_AGENT_WORKSPACE: ws, CORE_AGENT_RECIPE: r } });
    expect(rt.workspace).toBe(ws);
    expect(rt.catalog.has('grep')).toBe(false);
  });

  it('tool toggles: lists merge, and a higher layer wins a conflict', async () => {
    const ws = await tempDir();
    const r = await recipe('tools:\n  disable: [grep, glob]\n');
    const names = async (flags: object, env: NodeJS.ProcessEnv = {}) =>
      (await createRuntime({ flags: { workspace: ws, recipe: r, ...flags }, env })).catalog.names();
    expect(await names({})).not.toContain('grep');
    expect(await names({ disableTools: ['stat'] })).not.toContain('glob'); // a flag adds, it does not replace
    expect(await names({ enableTools: ['grep'] })).toContain('grep'); // flag enable beats recipe disable
    expect(await names({}, { CORE_AGENT_ENABLE_TOOLS: 'glob' })).toContain('glob');
    expect(await names({ disableTools: ['glob'] }, { CORE_AGENT_ENABLE_TOOLS: 'glob' })).not.toContain('glob');
  });

  it('rejects unusable settings with a message naming where they came from', async () => {
    const ws = await tempDir();
    await expect(createRuntime({ flags: { workspace: ws }, env: { CORE_AGENT_MODE: 'yes' } })).rejects.toThrow(
      'CORE_AGENT_MODE: unknown permission mode "yes"',
    );
    await expect(createRuntime({ flags: { workspace: ws, disableTools: ['gerp'] }, env: {} })).rejects.toThrow(/did you mean "grep"/);
    await expect(createRuntime({ flags: { workspace: ws, disableTools: ['grep'], enableTools: ['grep'] }, env: {} })).rejects.toThrow(
      /both disabled and enabled/,
    );
    await expect(createRuntime({ flags: { workspace: path.join(ws, 'missing') }, env: {} })).rejects.toThrow(SettingsError);
  });
});
