import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RecipeError } from '../../src/config/load-recipe.ts';
import { createRuntime, type Runtime } from '../../src/runtime/runtime.ts';
import { tempDir } from '../helpers/workspace.ts';
import { CONFIG_ERROR_CASES, LAYER_CASES, type LayerCase } from './config-layers.cases.ts';

const open: Runtime[] = [];
afterEach(async () => {
  for (const rt of open.splice(0)) await rt.session.close();
});

async function write(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

/** A home, a workspace and a recipe directory in one temporary tree; the user file where the case's XDG rule puts it. */
async function layout(c: Pick<LayerCase, 'user' | 'project' | 'recipe' | 'xdg'>) {
  const root = await tempDir();
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'ws');
  await mkdir(workspace, { recursive: true });
  const env: Record<string, string> = { HOME: home };
  let userDir = path.join(home, '.config');
  if (c.xdg === 'absolute') env.XDG_CONFIG_HOME = userDir = path.join(root, 'xdg');
  if (c.xdg === 'relative') env.XDG_CONFIG_HOME = 'xdg';
  const files = {
    user: path.join(userDir, 'core-agent', 'config.yaml'),
    project: path.join(workspace, '.agents', 'config.yaml'),
    recipe: path.join(root, 'recipes', 'r.yaml'),
  };
  if (c.user !== undefined) await write(files.user, c.user);
  if (c.project !== undefined) await write(files.project, c.project);
  if (c.recipe !== undefined) await write(files.recipe, c.recipe);
  return { env, workspace, files, root };
}

describe('configuration layers: user < project < recipe < environment < flags', () => {
  it.each(LAYER_CASES)('$name', async (c) => {
    const { env, workspace, files, root } = await layout(c);
    const notices: string[] = [];
    const rt = await createRuntime({
      flags: {
        workspace,
        ...(c.recipe !== undefined ? { recipe: files.recipe } : {}),
        ...(c.trust ? { trustWorkspace: true } : {}),
        ...c.flags,
      },
      env: { ...env, ...c.env },
      startMcp: false,
      say: (line) => notices.push(line),
    });
    open.push(rt);
    const x = c.expect;
    if (x.mode !== undefined) expect(rt.gate.mode).toBe(x.mode);
    if (x.model !== undefined) expect(rt.settings.model ?? rt.recipe.model ?? null).toBe(x.model);
    const names = rt.catalog.names();
    for (const t of x.absent ?? []) expect(names).not.toContain(t);
    for (const t of x.present ?? []) expect(names).toContain(t);
    if (x.allow) expect(rt.recipe.permissions?.allow ?? []).toEqual(x.allow);
    if (x.deny) expect(rt.recipe.permissions?.deny ?? []).toEqual(x.deny);
    if (x.merged) expect(rt.recipe).toMatchObject(JSON.parse(JSON.stringify(x.merged).replaceAll('{root}', root)) as object);
    for (const key of x.absentKeys ?? []) {
      const value = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], rt.recipe);
      expect(value, key).toBeUndefined();
    }
    if (x.servers) expect(Object.keys(rt.recipe.mcp?.servers ?? {}).sort()).toEqual(x.servers);
    const expected = x.notices ?? [];
    expect(notices.length, notices.join('')).toBe(expected.length);
    expected.forEach((re, i) => expect(notices[i]).toMatch(re));
    // Every ignored key is named at its place in the project file.
    for (const n of notices.filter((l) => l.includes(' is ignored'))) expect(n.startsWith(`core-agent: ${files.project}:`)).toBe(true);
  });

  it('a project file path is the workspace one, so a notice can be acted on', async () => {
    const { env, workspace, files } = await layout({ project: 'permissions: { mode: yolo }\n' });
    const notices: string[] = [];
    open.push(await createRuntime({ flags: { workspace }, env, startMcp: false, say: (l) => notices.push(l) }));
    expect(notices[0]).toContain(files.project);
  });

  it('says one notice per ignored key, however much it holds', async () => {
    const keys = Array.from({ length: 30 }, (_, i) => `  t${i}: { url_env: U }`).join('\n');
    const { env, workspace } = await layout({ project: `alerts:\n  targets:\n${keys.replace(/^ {2}/gm, '    ')}\n` });
    const notices: string[] = [];
    open.push(await createRuntime({ flags: { workspace }, env, startMcp: false, say: (l) => notices.push(l) }));
    // alerts is one key: one notice, however many targets it holds.
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/alerts is ignored/);
  });
});

describe('configuration files are strict: every problem at FILE:LINE:COL', () => {
  it.each(CONFIG_ERROR_CASES)('$name', async (c) => {
    const { env, workspace, files } = await layout({});
    const file = files[c.file];
    if (c.text === '{dir}') await mkdir(file, { recursive: true });
    else await write(file, c.text);
    const err = await createRuntime({
      flags: { workspace, ...(c.file === 'recipe' ? { recipe: file } : {}), ...(c.trust ? { trustWorkspace: true } : {}) },
      env,
      startMcp: false,
      say: () => {},
    }).then(
      (rt) => (open.push(rt), undefined),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RecipeError);
    expect((err as RecipeError).problems[0]).toContain(c.error.replace('{file}', file));
  });
});
