import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Prompter } from '../../src/permissions/gate.ts';
import { setup, tempDir, writeTree } from '../helpers/workspace.ts';
import { CWD_CASES, CWD_TREE } from './working-directory.cases.ts';

const yolo = { flags: { mode: 'yolo' as const } };

describe('change_working_directory: relative paths resolve from the current directory', () => {
  it.each(CWD_CASES)('$what', async (c) => {
    const rt = await setup({ tree: CWD_TREE, ...yolo });
    expect(await rt.ok('change_working_directory', { path: 'sub' })).toEqual({
      cwd: 'sub',
      absolute_path: path.join(rt.dir, 'sub'),
      outside_workspace: false,
    });
    expect(await rt.ok(c.tool, c.args)).toMatchObject(c.expect);
    if (c.after) {
      const file = path.join(rt.dir, c.after.file);
      if (c.after.content === null) expect(existsSync(file)).toBe(false);
      else expect(await readFile(file, 'utf8')).toBe(c.after.content);
    }
  });

  it('the same calls before any move resolve from the workspace (the matrix is not vacuous)', async () => {
    const rt = await setup({ tree: CWD_TREE, ...yolo });
    expect(await rt.refused('read_file', { path: 'f.txt' })).toMatch(/not found/);
    expect((await rt.ok('grep', { pattern: 'needle' })).count).toBe(2);
    expect((await rt.ok('bash', { command: 'pwd' })).output).toBe(`${rt.dir}\n`);
  });

  it('bash runs in the current directory, waited for and in the background', async () => {
    const rt = await setup({ tree: CWD_TREE, ...yolo });
    await rt.ok('change_working_directory', { path: 'sub/deeper' });
    expect((await rt.ok('bash', { command: 'pwd' })).output).toBe(`${path.join(rt.dir, 'sub/deeper')}\n`);
    const started = await rt.ok('bash', { command: 'pwd', wait: false });
    const joined = await rt.ok('wait_join', { ids: [started.terminal_id] });
    expect(JSON.stringify(joined)).toContain(path.join(rt.dir, 'sub/deeper'));
  });

  it('a move is relative to the current directory; ".." climbs from it and "." returns to the launch directory from anywhere', async () => {
    const rt = await setup({ tree: CWD_TREE });
    await rt.ok('change_working_directory', { path: 'sub' });
    expect((await rt.ok('change_working_directory', { path: 'deeper' })).cwd).toBe('sub/deeper');
    expect((await rt.ok('change_working_directory', { path: '..' })).cwd).toBe('sub');
    await rt.ok('change_working_directory', { path: 'deeper' });
    expect(await rt.ok('change_working_directory', { path: '.' })).toEqual({ cwd: '.', absolute_path: rt.dir, outside_workspace: false });
    expect((await rt.ok('read_file', { path: 'top.txt' })).content).toBe('top\n');
    expect(rt.session.cwd).toBeUndefined();
    // The workspace by its own path is the same state as ".".
    await rt.ok('change_working_directory', { path: 'sub' });
    await rt.ok('change_working_directory', { path: rt.dir });
    expect(rt.session.cwd).toBeUndefined();
  });

  it('inside the workspace it never asks: ask mode headless, plan mode', async () => {
    for (const mode of ['ask', 'plan', 'accept-edits'] as const) {
      const rt = await setup({ tree: CWD_TREE, flags: { mode } });
      expect((await rt.ok('change_working_directory', { path: 'sub' })).cwd, mode).toBe('sub');
    }
  });

  it('refuses what is not a directory, and stays where it was', async () => {
    const rt = await setup({ tree: CWD_TREE });
    await rt.ok('change_working_directory', { path: 'sub' });
    expect(await rt.refused('change_working_directory', { path: 'missing' })).toMatch(/directory not found: sub\/missing/);
    expect(await rt.refused('change_working_directory', { path: 'f.txt' })).toMatch(/sub\/f\.txt is a file, not a directory/);
    expect(await rt.refused('change_working_directory', { path: '' })).toMatch(/invalid arguments: path/);
    expect(rt.session.cwd).toBe(path.join(rt.dir, 'sub'));
  });
});

describe('change_working_directory: outside the workspace', () => {
  async function withOutside(mode: 'ask' | 'yolo', extra: (outside: string) => string = () => '', prompter?: Prompter) {
    const outside = await tempDir('core-agent-outside-');
    await writeTree(outside, { 'o.txt': 'outside\n' });
    const recipe = `permissions:\n  path_scope:\n    allow: [".", "${outside}"]\n${extra(outside)}`;
    return { rt: await setup({ tree: CWD_TREE, recipe, flags: { mode }, ...(prompter ? { prompter } : {}) }), outside };
  }

  it('ask mode headless: refused as needing approval, and the directory is unchanged', async () => {
    const { rt, outside } = await withOutside('ask');
    await rt.ok('change_working_directory', { path: 'sub' });
    const err = await rt.refused('change_working_directory', { path: outside });
    expect(err).toMatch(/moving outside the workspace needs approval: .*needs approval.*headless/);
    expect(rt.session.cwd).toBe(path.join(rt.dir, 'sub'));
    // A relative path that climbs out is the same move.
    expect(await rt.refused('change_working_directory', { path: path.relative(path.join(rt.dir, 'sub'), outside) })).toMatch(
      /needs approval/,
    );
  });

  it('plan mode: refused (it allows read-only tools only), though a move inside the workspace is allowed there', async () => {
    const outside = await tempDir('core-agent-outside-');
    const rt = await setup({
      tree: CWD_TREE,
      flags: { mode: 'plan' },
      recipe: `permissions:\n  path_scope:\n    allow: [".", "${outside}"]\n`,
    });
    expect(await rt.refused('change_working_directory', { path: outside })).toMatch(/permission mode "plan" allows read-only tools only/);
    expect((await rt.ok('change_working_directory', { path: 'sub' })).cwd).toBe('sub');
  });

  it('yolo: allowed when path_scope allows it; relative paths then resolve there, shown absolute', async () => {
    const { rt, outside } = await withOutside('yolo');
    expect(await rt.ok('change_working_directory', { path: outside })).toEqual({
      cwd: outside,
      absolute_path: outside,
      outside_workspace: true,
    });
    expect(await rt.ok('read_file', { path: 'o.txt' })).toMatchObject({ content: 'outside\n' });
    expect((await rt.ok('glob', { pattern: '*.txt' })).paths).toEqual([path.join(outside, 'o.txt')]);
    // path_scope is still the launch directory's: the workspace's files by relative path from outside.
    expect((await rt.ok('read_file', { path: path.join(path.relative(outside, rt.dir), 'top.txt') })).content).toBe('top\n');
  });

  it('outside path_scope: refused in every mode, yolo included', async () => {
    const other = await tempDir('core-agent-unlisted-');
    for (const mode of ['yolo', 'ask'] as const) {
      const rt = await setup({ tree: CWD_TREE, flags: { mode } });
      expect(await rt.refused('change_working_directory', { path: other }), mode).toMatch(/outside path_scope/);
      expect(rt.session.cwd).toBeUndefined();
    }
  });

  it('an allow rule on the path lets it through headless in ask mode; a deny rule refuses it in yolo', async () => {
    const { rt, outside } = await withOutside('ask', (o) => `  allow: ["tool.change_working_directory:${o}"]\n`);
    expect((await rt.ok('change_working_directory', { path: outside })).outside_workspace).toBe(true);
    const denied = await setup({
      tree: CWD_TREE,
      flags: { mode: 'yolo' },
      recipe: 'permissions:\n  deny: ["tool.change_working_directory:sub"]\n',
    });
    expect(await denied.refused('change_working_directory', { path: 'sub' })).toMatch(/denied by permissions.deny rule/);
  });

  it('at a terminal the operator is asked once, about the outside path only', async () => {
    const asked: string[] = [];
    const prompter: Prompter = {
      ask: async (req) => {
        asked.push(`${req.tool} ${req.subjects.flatMap((s) => s.forms).join(' ')}`);
        return 'once';
      },
    };
    const { rt, outside } = await withOutside('ask', undefined, prompter);
    await rt.ok('change_working_directory', { path: 'sub' });
    await rt.ok('change_working_directory', { path: outside });
    expect(asked).toEqual([`change_working_directory ${outside}`]);
  });
});
