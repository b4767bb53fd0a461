import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup, type Tree } from '../helpers/workspace.ts';
import { OUTLINE_CASES } from './outline.cases.ts';

const FIXTURES = path.join(import.meta.dirname, '../fixtures/outline');
const EXPECTED = path.join(FIXTURES, 'expected');
// OUTLINE_WRITE=1 rewrites the expected outlines from the tool: read the diff before committing it.
const WRITE = process.env.OUTLINE_WRITE === '1';

/** Every fixture, under its real name (without the .txt that keeps the linters off it). */
async function fixtures(): Promise<Tree> {
  const tree: Tree = {};
  for (const f of await readdir(FIXTURES)) if (f.endsWith('.txt')) tree[f.slice(0, -4)] = await readFile(path.join(FIXTURES, f), 'utf8');
  return tree;
}

describe('view_file_outline: one fixture per language (outline.cases.ts)', async () => {
  const tree = await fixtures();
  it.each(OUTLINE_CASES)('$fixture → $language, $analysis', async (c) => {
    const rt = await setup({ tree });
    const r = await rt.ok('view_file_outline', { path: c.fixture });
    expect(r).toMatchObject({ path: c.fixture, language: c.language, analysis: c.analysis });
    if (c.note) expect(String(r.note)).toMatch(c.note);
    else if (!c.errors) expect(r.note).toBeUndefined();
    if (c.errors) expect(r.syntax_error_lines).toEqual(c.errors);
    else expect(r.syntax_error_lines).toBeUndefined();
    if (c.recovered === false) {
      expect(r.outline).toBeUndefined();
      return;
    }
    expect(r.partial).toBe(c.errors ? true : undefined);
    const file = path.join(EXPECTED, `${c.fixture}.outline`);
    if (WRITE) {
      await mkdir(EXPECTED, { recursive: true });
      await writeFile(file, String(r.outline));
    }
    expect(r.outline).toBe(await readFile(file, 'utf8'));
  });

  it.each(OUTLINE_CASES.filter((c) => c.recovered !== false))(
    '$fixture: no body text, and every line number starts its declaration',
    async (c) => {
      const rt = await setup({ tree });
      const outline = String((await rt.ok('view_file_outline', { path: c.fixture })).outline);
      expect(outline).not.toMatch(/body text must not leak/);
      const source = String(tree[c.fixture]).split('\n');
      const entries = outline.split('\n').filter((l) => /^ *\d+ {2}/.test(l));
      expect(entries.length).toBeGreaterThan(0);
      for (const e of entries) {
        const [, line, text] = /^ *(\d+) {2}(.*)$/.exec(e)!;
        // The entry begins with text of its line (two declarations may share one: `enum Kind { A, B }`).
        expect(source[Number(line) - 1]!.includes(text!.split('…')[0]!.trim().slice(0, 8)), `${c.fixture}: ${e}`).toBe(true);
      }
    },
  );
});

describe('view_file_outline', () => {
  it('refuses a file type it knows nothing about, naming the extensions that work', async () => {
    const rt = await setup({ tree: { 'notes.txt': 'hello\n', Makefile: 'all:\n', 'x.kt': 'fun main() {}\n' } });
    for (const [file, subject] of [
      ['notes.txt', '.txt files'],
      ['Makefile', 'a file with no extension'],
      ['x.kt', '.kt files'],
    ] as const) {
      const err = await rt.refused('view_file_outline', { path: file });
      expect(err).toContain(`no outline for ${subject}`);
      expect(err).toMatch(/parses .*\.go.*\.py.*\.ts.*and scans \.rb/);
    }
  });

  it('refuses a missing file, a directory and a binary file', async () => {
    const rt = await setup({ tree: { src: null, 'bin.ts': Buffer.from([0x63, 0, 0x6f]) } });
    expect(await rt.refused('view_file_outline', { path: 'nope.ts' })).toMatch(/file not found: nope.ts/);
    expect(await rt.refused('view_file_outline', { path: 'src.ts' })).toMatch(/file not found/);
    await mkdir(path.join(rt.dir, 'dir.ts'));
    expect(await rt.refused('view_file_outline', { path: 'dir.ts' })).toMatch(/is a directory/);
    expect(await rt.refused('view_file_outline', { path: 'bin.ts' })).toMatch(/binary file/);
  });

  it('is held to path_scope and to deny rules like read_file', async () => {
    const rt = await setup({
      tree: { 'src/a.ts': 'export const a = 1;\n', 'secret/b.ts': 'export const b = 2;\n' },
      recipe: 'permissions:\n  deny: ["tool.view_file_outline:src/a.ts"]\n  path_scope:\n    deny: ["secret"]\n',
    });
    expect(await rt.refused('view_file_outline', { path: 'secret/b.ts' })).toMatch(/path_scope/);
    expect(await rt.refused('view_file_outline', { path: '/etc/hostname.ts' })).toMatch(/outside path_scope/);
    expect(await rt.refused('view_file_outline', { path: 'src/a.ts' })).toMatch(/deny/);
  });

  it('cuts an outline over the caps with truncated and the note, keeping whole entries', async () => {
    const big = Array.from({ length: 300 }, (_, i) => `export function f${i}(x: number): number {\n  return x + ${i};\n}\n`).join('');
    const rt = await setup({ tree: { 'big.ts': big }, recipe: 'tool_output:\n  per_tool:\n    view_file_outline: { max_lines: 50 }\n' });
    const r = await rt.ok('view_file_outline', { path: 'big.ts' });
    expect(r.truncated).toBe(true);
    expect(String(r.note)).toMatch(/read_file offset\/limit/);
    const lines = String(r.outline).trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(50);
    expect(lines[0]).toBe('    1  export function f0(x: number): number { … }');
    expect(lines.at(-1)).toMatch(/^ *\d+ {2}export function f\d+\(x: number\): number \{ … \}$/);
  });

  it('keeps line numbers right after non-ASCII text and CRLF line ends', async () => {
    const rt = await setup({
      tree: { 'u.ts': '// ☕ naïve — “quoted”\r\nconst s = "日本語";\r\n\r\nexport function after(): void {\r\n  return;\r\n}\r\n' },
    });
    expect((await rt.ok('view_file_outline', { path: 'u.ts' })).outline).toBe(
      '    2  const s = "日本語";\n    4  export function after(): void { … }\n',
    );
  });

  it('outlines an empty file as an empty outline', async () => {
    const rt = await setup({ tree: { 'empty.py': '' } });
    expect(await rt.ok('view_file_outline', { path: 'empty.py' })).toEqual({
      path: 'empty.py',
      language: 'Python',
      analysis: 'parsed',
      outline: '',
    });
  });
});
