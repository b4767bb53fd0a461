import { describe, expect, it } from 'vitest';
import { setup } from '../helpers/workspace.ts';

/**
 * rg's matches are confirmed against the file read through descriptors
 * (recheck.ts) before they are shown; with nothing swapped, every match rg
 * prints must survive — the lines rg cuts, decodes or transcodes included.
 */
const TREE: Record<string, string | Buffer> = {
  'long.txt': `${'x'.repeat(600)}needle${'y'.repeat(100)}\n`,
  'long-multibyte.txt': `needle ${'é'.repeat(400)}\n`,
  'many-on-a-long-line.txt': `${`needle ${'z'.repeat(300)} `.repeat(3)}\n`,
  'invalid-utf8.txt': Buffer.from([...Buffer.from('needle '), 0xff, 0xfe, ...Buffer.from(' bad\n')]),
  'utf8-bom.txt': '\uFEFFneedle at the start\nand needle again\n',
  'utf16le-bom.txt': Buffer.from('\uFEFFneedle one\r\nneedle two\r\n', 'utf16le'),
  'crlf.txt': 'needle\r\nnot\r\nneedle end\r\n',
  'no-final-newline.txt': 'a\nneedle last',
  'deep/er/file.txt': 'needle deep\n',
  'empty-lines.txt': '\n\nneedle after blanks\n\n',
};

describe('grep with ripgrep: the recheck keeps every honest match', () => {
  it('every line rg prints survives: cut, multibyte, invalid UTF-8, BOMs, UTF-16, CRLF, no final newline', async () => {
    const rg = await setup({ tree: TREE, flags: { mode: 'yolo' }, recipe: 'tools:\n  grep:\n    engine: ripgrep\n' });
    const got = (await rg.ok('grep', { pattern: 'needle' })).matches as Array<{ path: string; line: number; text: string }>;
    const where = got.map((m) => `${m.path}:${m.line}`);
    expect(where).toEqual([
      'crlf.txt:1',
      'crlf.txt:3',
      'deep/er/file.txt:1',
      'empty-lines.txt:3',
      'invalid-utf8.txt:1',
      'long-multibyte.txt:1',
      'long.txt:1',
      'many-on-a-long-line.txt:1',
      'no-final-newline.txt:2',
      'utf16le-bom.txt:1',
      'utf16le-bom.txt:2',
      'utf8-bom.txt:1',
      'utf8-bom.txt:2',
    ]);
    expect(got.find((m) => m.path === 'utf8-bom.txt' && m.line === 1)?.text).toBe('needle at the start');
    expect(got.find((m) => m.path === 'crlf.txt' && m.line === 3)?.text).toBe('needle end');
    expect(got.find((m) => m.path === 'long.txt')?.text).toMatch(/^x{500} \[\.\.\. omitted end of long line\]$/);
  });

  it('one file, and a directory through a symlinked name in scope', async () => {
    const rt = await setup({
      tree: { ...TREE, link: { symlink: 'deep' } },
      flags: { mode: 'yolo' },
      recipe: 'tools:\n  grep:\n    engine: ripgrep\n',
    });
    expect((await rt.ok('grep', { pattern: 'needle', path: 'crlf.txt' })).count).toBe(2);
    expect((await rt.ok('grep', { pattern: 'needle', path: 'link' })).matches).toEqual([
      { path: 'deep/er/file.txt', line: 1, text: 'needle deep' },
    ]);
  });
});
