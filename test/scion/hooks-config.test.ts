import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRecipe } from '../../src/config/load-recipe.ts';
import { silentLogger } from '../../src/log.ts';
import { PathScope } from '../../src/permissions/path-scope.ts';
import { buildHooks } from '../../src/runtime/hooks-step.ts';
import type { Services } from '../../src/runtime/services.ts';
import { BUILTIN_TOOLS } from '../../src/tools/index.ts';
import { toolServices } from '../../src/tools/framework/services.ts';
import { SessionState } from '../../src/tools/framework/session.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';
import { HOOKS_CONFIG_CASES } from './hooks-config.cases.ts';

/** The recipe step, then the hooks step as createRuntime runs them, on a system with or without /bin/sh. */
async function startUp(recipeText: string, shell: boolean): Promise<unknown> {
  const ws = await tempDir();
  const file = path.join(ws, 'recipe.yaml');
  await writeFile(file, recipeText);
  const recipe = await loadRecipe(file, BUILTIN_TOOLS);
  const services = {
    env: {},
    home: ws,
    workspace: ws,
    session: new SessionState(),
    scope: await PathScope.create(ws, {}, { home: ws }),
    tools: toolServices({ shell }),
  } as unknown as Services;
  return buildHooks({ recipe, recipeFile: file, settings: { recipe: file } as never, services, logger: silentLogger });
}

describe('hooks: at start-up', () => {
  it.each(HOOKS_CONFIG_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const started = startUp(c.recipe, c.shell !== false);
    if (c.expect === 'ok') {
      await expect(started).resolves.toBeDefined();
    } else {
      const err = await started.then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(err, 'start-up should have refused the recipe').not.toBeNull();
      expect(err!.message).toMatch(c.expect);
      expect(err!.message.length).toBeLessThan(2000);
    }
  });

  it('a refused hook stops the command with exit 2 and the reason, before any tool runs', async () => {
    const ws = await tempDir();
    await writeFile(path.join(ws, 'r.yaml'), 'hooks: {tool-end: [{command: [sciontool, hook]}]}\n');
    const r = await runCli(['tools', 'list', '-c', 'r.yaml'], ws);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/hooks\.tool-end\[0\]: the permission gate refuses it/);
    const bad = await runCli(['recipe', 'validate', 'bad.yaml'], ws);
    await writeFile(path.join(ws, 'bad.yaml'), 'hooks:\n  tool-stop: []\n');
    expect((await runCli(['recipe', 'validate', 'bad.yaml'], ws)).stderr).toMatch(/bad\.yaml:2:3: .*tool-stop/);
    expect(bad.code).toBe(2);
  });
});
