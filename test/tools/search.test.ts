import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { locateRipgrep } from '../../src/tools/shared/ripgrep.ts';
import { setup, type Tree } from '../helpers/workspace.ts';

const tree: Tree = {
  'src/app.ts': 'export const answer = 42;\n// TODO: more\n',
  'src/util.ts': 'export function helper() {\n  return "todo later";\n}\n',
  'src/deep/nested/x.test.ts': 'it("works", () => {}); // TODO test\n',
  'README.md': '# TODO list\n',
  'notes.txt': 'nothing here\r\nTODO with crlf\r\n',
  '.hidden/secret.ts': 'TODO hidden\n',
  '.env': 'TODO=1\n',
  'node_modules/pkg/index.ts': 'TODO vendored\n',
  'vendor/lib.ts': 'TODO vendored\n',
  'build/out.ts': 'TODO ignored\n',
  'logs/app.log': 'TODO ignored\n',
  '.gitignore': 'build/\n*.log\n',
  'src/.gitignore': 'generated.ts\n',
  'src/generated.ts': 'TODO generated\n',
  'image.png': Buffer.from([0x89, 0x50, 0, 0x54, 0x4f, 0x44, 0x4f]),
  'link.ts': { symlink: 'src/app.ts' },
};

const engines = [
  ['ripgrep', 'tools:\n  grep: { engine: ripgrep }\n  glob: { engine: ripgrep }\n'],
  ['re2', 'tools:\n  grep: { engine: re2 }\n  glob: { engine: re2 }\n'],
] as const;

describe('the ripgrep binary', () => {
  it('is found (the @vscode/ripgrep platform package in development, dist/rg beside the bundle)', () => {
    expect(locateRipgrep()).toMatch(/rg$/);
  });
});

describe.each(engines)('glob and grep with the %s engine', (_engine, recipe) => {
  it('glob matches file names, skipping hidden, vendored and ignored entries, sorted', async () => {
    const rt = await setup({ tree, recipe });
    expect(await rt.ok('glob', { pattern: '*.ts' })).toEqual({
      path: '.',
      pattern: '*.ts',
      count: 3,
      paths: ['src/app.ts', 'src/deep/nested/x.test.ts', 'src/util.ts'],
    });
  });

  it('glob matches relative paths when the pattern has a slash, and brace sets', async () => {
    const rt = await setup({ tree, recipe });
    expect((await rt.ok('glob', { pattern: 'deep/**/*.ts', path: 'src' })).paths).toEqual(['src/deep/nested/x.test.ts']);
    expect((await rt.ok('glob', { pattern: '*.{md,txt}' })).paths).toEqual(['README.md', 'notes.txt']);
  });

  it('glob searches an explicitly named vendored directory', async () => {
    const rt = await setup({ tree, recipe });
    expect((await rt.ok('glob', { pattern: '*.ts', path: 'node_modules/pkg' })).paths).toEqual(['node_modules/pkg/index.ts']);
  });

  it('glob refusals: a file as path, a missing path, an escaping pattern', async () => {
    const rt = await setup({ tree, recipe });
    expect(await rt.refused('glob', { pattern: '*.ts', path: 'README.md' })).toMatch(/is a file/);
    expect(await rt.refused('glob', { pattern: '*.ts', path: 'nope' })).toMatch(/not found/);
    expect(await rt.refused('glob', { pattern: '../*.ts' })).toMatch(/relative to the search directory/);
    expect(await rt.refused('glob', { pattern: '*', path: '/etc' })).toMatch(/outside path_scope/);
  });

  it('grep returns structured matches sorted by path and line, with the same skips', async () => {
    const rt = await setup({ tree, recipe });
    expect(await rt.ok('grep', { pattern: 'TODO' })).toEqual({
      pattern: 'TODO',
      path: '.',
      count: 4,
      matches: [
        { path: 'README.md', line: 1, text: '# TODO list' },
        { path: 'notes.txt', line: 2, text: 'TODO with crlf' },
        { path: 'src/app.ts', line: 2, text: '// TODO: more' },
        { path: 'src/deep/nested/x.test.ts', line: 1, text: 'it("works", () => {}); // TODO test' },
      ],
    });
  });

  it('grep: ignore_case, include, single-file mode', async () => {
    const rt = await setup({ tree, recipe });
    const ci = await rt.ok('grep', { pattern: 'todo', ignore_case: true, include: '*.ts' });
    expect((ci.matches as Array<{ path: string }>).map((m) => m.path)).toEqual(['src/app.ts', 'src/deep/nested/x.test.ts', 'src/util.ts']);
    const one = await rt.ok('grep', { pattern: 'helper', path: 'src/util.ts' });
    expect(one.matches).toEqual([{ path: 'src/util.ts', line: 1, text: 'export function helper() {' }]);
    const byPath = await rt.ok('grep', { pattern: 'TODO', include: 'src/deep/**' });
    expect(byPath.count).toBe(1);
  });

  it('grep treats a pattern starting with a dash as a pattern, not a flag', async () => {
    const rt = await setup({ tree: { 'a.txt': 'x --pre=evil y\n' }, recipe });
    expect((await rt.ok('grep', { pattern: '--pre=evil' })).count).toBe(1);
  });

  it('grep refuses invalid RE2 (look-around), a newline in the pattern, a binary file', async () => {
    const rt = await setup({ tree, recipe });
    expect(await rt.refused('grep', { pattern: 'a(?=b)' })).toMatch(/invalid pattern \(RE2 syntax/);
    expect(await rt.refused('grep', { pattern: '(unclosed' })).toMatch(/missing closing \)/);
    expect(await rt.refused('grep', { pattern: 'a\nb' })).toMatch(/newline/);
    expect(await rt.refused('grep', { pattern: 'x', path: 'image.png' })).toMatch(/binary file/);
    expect(await rt.refused('grep', { pattern: 'x', path: 'missing' })).toMatch(/not found/);
  });

  it('grep answers (a+)+$ over a 100 KB line at once (linear time)', async () => {
    const rt = await setup({ tree: { 'long.txt': `${'a'.repeat(100_000)}b\n` }, recipe });
    const r = await rt.ok('grep', { pattern: '(a+)+$', path: 'long.txt' });
    expect(r.count).toBe(0);
    const hit = await rt.ok('grep', { pattern: '(a+)+b$', path: 'long.txt' });
    expect(hit.count).toBe(1);
    // The line text is elided rather than shipped whole.
    expect(String((hit.matches as Array<{ text: string }>)[0]!.text).length).toBeLessThan(600);
  });

  it('grep stops at the match cap and says so', async () => {
    const lines = Array.from({ length: 500 }, (_, i) => `hit ${i}`).join('\n');
    const rt = await setup({
      tree: { 'many.txt': `${lines}\n` },
      recipe: `${recipe}tool_output:\n  per_tool:\n    grep: { max_lines: 20 }\n`,
    });
    const r = await rt.ok('grep', { pattern: 'hit' });
    expect(r).toMatchObject({ count: 20, truncated: true });
    expect((r.matches as unknown[]).length).toBe(20);
    expect(String(r.note)).toMatch(/More than 20 matches/);
  });

  it('grep and glob leave out files a deny rule or path_scope.deny covers', async () => {
    const rt = await setup({
      tree,
      recipe: `${recipe}permissions:\n  deny: ["tool.grep:src/util.ts"]\n  path_scope:\n    deny: ["src/deep"]\n`,
    });
    const r = await rt.ok('grep', { pattern: 'TODO|todo', ignore_case: true });
    const paths = (r.matches as Array<{ path: string }>).map((m) => m.path);
    expect(paths).not.toContain('src/util.ts');
    expect(paths).not.toContain('src/deep/nested/x.test.ts');
    expect((await rt.ok('glob', { pattern: '*.ts' })).paths).toEqual(['src/app.ts', 'src/util.ts']);
  });

  it('grep honours a .gitignore above the search root', async () => {
    const rt = await setup({ tree, recipe });
    await writeFile(path.join(rt.dir, 'src/deep/ignored.ts'), 'TODO\n');
    await writeFile(path.join(rt.dir, '.gitignore'), 'build/\n*.log\nsrc/deep/ignored.ts\n');
    const r = await rt.ok('grep', { pattern: 'TODO', path: 'src/deep' });
    expect((r.matches as Array<{ path: string }>).map((m) => m.path)).toEqual(['src/deep/nested/x.test.ts']);
  });
});

describe('search engine selection', () => {
  it('refuses engine: ripgrep when the binary path is wrong, instead of silently switching', async () => {
    const rt = await setup({ tree, recipe: 'tools:\n  grep: { engine: ripgrep, ripgrep_path: /nonexistent/rg }\n' });
    expect(await rt.refused('grep', { pattern: 'x' })).toMatch(/ripgrep binary was not found/);
  });
});
