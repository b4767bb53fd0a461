import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionMode, Prompter, PromptAnswer } from '../../src/permissions/gate.ts';
import { setup } from '../helpers/workspace.ts';

const tree = { 'a.txt': 'alpha\n', 'data.json': '{"k": 1}', 'del.txt': 'x', sub: null };

/** One call per tool that would succeed if the gate lets it through. */
const calls: Record<string, { args: Record<string, unknown>; readOnly: boolean; edit: boolean }> = {
  read_file: { args: { path: 'a.txt' }, readOnly: true, edit: false },
  read_many_files: { args: { paths: ['a.txt'] }, readOnly: true, edit: false },
  write_file: { args: { path: 'new.txt', content: 'n' }, readOnly: false, edit: true },
  edit_file: { args: { path: 'a.txt', old_string: 'alpha', new_string: 'beta' }, readOnly: false, edit: true },
  delete_file: { args: { path: 'del.txt' }, readOnly: false, edit: true },
  stat: { args: { path: 'a.txt' }, readOnly: true, edit: false },
  list_dir: { args: { path: 'sub' }, readOnly: true, edit: false },
  glob: { args: { pattern: '*.txt' }, readOnly: true, edit: false },
  grep: { args: { pattern: 'alpha' }, readOnly: true, edit: false },
  json_query: { args: { expression: '.k', path: 'data.json' }, readOnly: true, edit: false },
};

/** Headless (no prompter): what each mode does with each tool. */
function expected(mode: PermissionMode, c: { readOnly: boolean; edit: boolean }): 'allowed' | RegExp {
  if (mode === 'yolo' || c.readOnly) return 'allowed';
  if (mode === 'plan') return /permission mode "plan" allows read-only tools only/;
  if (mode === 'accept-edits' && c.edit) return 'allowed';
  return new RegExp(`permission mode "${mode}" asks.*no terminal to ask on \\(rule: mode ${mode}, headless\\)`);
}

describe.each(['ask', 'accept-edits', 'plan', 'yolo'] as const)('headless, mode %s', (mode) => {
  it.each(Object.entries(calls))('%s', async (tool, c) => {
    const rt = await setup({ tree, flags: { mode } });
    const want = expected(mode, c);
    const r = await rt.dispatcher.call(tool, c.args);
    if (want === 'allowed') expect(r.ok, r.ok ? '' : r.error).toBe(true);
    else {
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error).toMatch(want);
      expect(!r.ok && r.error).toMatch(new RegExp(`^${tool}: permission denied`));
    }
  });
});

describe('deny rules', () => {
  it.each(Object.keys(calls))('a deny rule stops %s even in yolo mode, naming the rule', async (tool) => {
    const rt = await setup({ tree, flags: { mode: 'yolo' }, recipe: `permissions:\n  deny: ["tool.${tool}"]\n` });
    expect(await rt.refused(tool, calls[tool]!.args)).toMatch(`denied by permissions.deny rule "tool.${tool}"`);
  });

  it('a path-scoped deny rule only stops calls on matching paths', async () => {
    const rt = await setup({
      tree: { ...tree, 'secrets/k.pem': 'key' },
      flags: { mode: 'yolo' },
      recipe: 'permissions:\n  deny: ["tool.read_file:secrets/**"]\n',
    });
    expect(await rt.refused('read_file', { path: 'secrets/k.pem' })).toMatch(/rule "tool.read_file:secrets\/\*\*"/);
    await rt.ok('read_file', { path: 'a.txt' });
  });

  it('deny wins over allow, and "tool.*" covers every tool', async () => {
    const rt = await setup({ tree, recipe: 'permissions:\n  allow: ["tool.write_file"]\n  deny: ["tool.*"]\n' });
    expect(await rt.refused('write_file', { path: 'x.txt', content: '' })).toMatch(/deny rule "tool.\*"/);
    expect(await rt.refused('read_file', { path: 'a.txt' })).toMatch(/deny rule "tool.\*"/);
  });
});

describe('allow rules and grants in ask mode', () => {
  it('an allow rule lets a matching write through without asking, and only matching ones', async () => {
    const rt = await setup({ tree, recipe: 'permissions:\n  allow: ["tool.write_file:docs/**"]\n' });
    await rt.ok('write_file', { path: 'docs/a.md', content: 'ok' });
    expect(await rt.refused('write_file', { path: 'b.md', content: 'no' })).toMatch(/needs approval/);
  });

  it('the headless refusal suggests the exact rule, but never quotes a long command back', async () => {
    const rt = await setup({ tree });
    expect(await rt.refused('bash', { command: 'make test' })).toContain('add "tool.bash:make test" or "tool.bash" to permissions.allow');
    const long = `echo ${'x'.repeat(50_000)}`;
    const err = await rt.refused('bash', { command: long });
    expect(err).toContain('add "tool.bash" (the command is too long to quote as an exact rule) to permissions.allow');
    expect(err.length).toBeLessThan(1000);
  });

  it('a terminal prompt answers once / always for the session / deny', async () => {
    const answers: PromptAnswer[] = ['once', 'deny', 'session'];
    const asked: string[] = [];
    const prompter: Prompter = {
      async ask(req) {
        asked.push(`${req.tool} ${req.subjects.map((s) => s.forms[0]).join(',')}`);
        return answers.shift() ?? 'deny';
      },
    };
    const rt = await setup({ tree, prompter });
    await rt.ok('write_file', { path: 'one.txt', content: '1' }); // once
    expect(await rt.refused('write_file', { path: 'two.txt', content: '2' })).toMatch(/denied by the operator/);
    await rt.ok('write_file', { path: 'three.txt', content: '3' }); // session
    await rt.ok('write_file', { path: 'four.txt', content: '4' }); // no prompt: session grant
    expect(asked).toEqual(['write_file one.txt', 'write_file two.txt', 'write_file three.txt']);
    await rt.ok('read_file', { path: 'a.txt' }); // read-only: never asks
    expect(asked).toHaveLength(3);
  });

  it('a session grant for one path covers only that path', async () => {
    const rt = await setup({ tree });
    rt.gate.grantSession('edit_file', 'a.txt');
    await rt.ok('edit_file', { path: 'a.txt', old_string: 'alpha', new_string: 'gamma' });
    expect(await readFile(path.join(rt.dir, 'a.txt'), 'utf8')).toBe('gamma\n');
    expect(await rt.refused('write_file', { path: 'a.txt', content: 'x' })).toMatch(/needs approval/);
  });

  it('the mode can change during a session', async () => {
    const rt = await setup({ tree });
    expect(await rt.refused('write_file', { path: 'n.txt', content: '' })).toMatch(/needs approval/);
    rt.gate.setMode('accept-edits');
    await rt.ok('write_file', { path: 'n.txt', content: '' });
  });
});
