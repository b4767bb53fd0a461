import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRuntime, type Runtime } from '../../src/runtime/runtime.ts';
import { installSciontool } from '../helpers/sciontool.ts';
import { tempDir } from '../helpers/workspace.ts';

// A distroless image: there is no /bin/sh (as test/tools/no-shell.test.ts has it).
vi.mock('../../src/util/command-env.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/util/command-env.ts')>()),
  shellAvailable: () => false,
}));

const runtimes: Runtime[] = [];
afterEach(async () => {
  for (const rt of runtimes.splice(0)) await rt.session.close();
});

async function start(hooks: string) {
  const ws = await tempDir();
  const tool = await installSciontool();
  const recipe = path.join(ws, 'recipe.yaml');
  await writeFile(recipe, `permissions: {mode: yolo}\nhooks:\n${hooks}`);
  const rt = await createRuntime({
    flags: { workspace: ws, recipe },
    env: {},
    commandEnv: { ...process.env, HOME: ws, SCION_RECORD: tool.record, PATH: `${tool.bin}:${process.env.PATH}` },
  });
  runtimes.push(rt);
  return { rt, tool };
}

describe('Scion without /bin/sh', () => {
  it('argv hooks and sciontool_status still work', async () => {
    const { rt, tool } = await start(
      '  tool-start: [{command: [sciontool, hook, --dialect=core-agent]}]\n  tool-end: [{command: [sciontool, hook, --dialect=core-agent]}]\n',
    );
    expect(rt.catalog.has('bash')).toBe(false);
    const r = await rt.dispatcher.call('sciontool_status', { status_type: 'blocked', message: 'waiting on review' });
    expect(r).toMatchObject({ ok: true });
    expect((await tool.calls()).map((c) => c.envelope?.hook_event_name ?? c.argv.join(' '))).toEqual([
      'tool-start',
      'status blocked waiting on review',
      'tool-end',
    ]);
  });

  it('a string hook is refused at start-up, naming it and the fix', async () => {
    await expect(start('  agent-end: [{command: "sciontool hook --dialect=core-agent"}]\n')).rejects.toThrow(
      /recipe\.yaml: hooks\.agent-end\[0\]: a command given as a string runs with \/bin\/sh -c, and this system has no \/bin\/sh .*argv list/,
    );
  });
});
