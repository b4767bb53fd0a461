import { describe, expect, it } from 'vitest';
import { setup } from '../helpers/workspace.ts';

const lines = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}\n`).join('');

describe('read_file', () => {
  it('returns the content with line numbers and the total', async () => {
    const rt = await setup({ tree: { 'a.txt': 'one\ntwo\nthree\n' } });
    expect(await rt.ok('read_file', { path: 'a.txt' })).toEqual({
      path: 'a.txt',
      content: 'one\ntwo\nthree\n',
      start_line: 1,
      end_line: 3,
      total_lines: 3,
    });
  });

  it('reads a window with 1-based offset and limit, and says where the rest starts', async () => {
    const rt = await setup({ tree: { 'a.txt': lines(10) } });
    const r = await rt.ok('read_file', { path: 'a.txt', offset: 4, limit: 2 });
    expect(r).toMatchObject({ content: 'line 4\nline 5\n', start_line: 4, end_line: 5, total_lines: 10, next_offset: 6 });
    expect(r.truncated).toBeUndefined();
    expect((await rt.ok('read_file', { path: 'a.txt', offset: 0, limit: 1 })).content).toBe('line 1\n');
  });

  it('counts a last line without a newline and keeps CRLF', async () => {
    const rt = await setup({ tree: { 'a.txt': 'a\r\nb\r\nc' } });
    expect(await rt.ok('read_file', { path: 'a.txt' })).toMatchObject({ content: 'a\r\nb\r\nc', total_lines: 3, end_line: 3 });
  });

  it('drops a UTF-8 byte-order mark from what the model sees', async () => {
    const rt = await setup({ tree: { 'bom.txt': '\uFEFFhello\n' } });
    expect((await rt.ok('read_file', { path: 'bom.txt' })).content).toBe('hello\n');
  });

  it('says when the offset is past the end', async () => {
    const rt = await setup({ tree: { 'a.txt': lines(3) } });
    const r = await rt.ok('read_file', { path: 'a.txt', offset: 10 });
    expect(r).toMatchObject({ content: '', total_lines: 3 });
    expect(String(r.note)).toMatch(/past the end/);
  });

  it('stops at the line cap with truncated and next_offset', async () => {
    const rt = await setup({
      tree: { 'big.txt': lines(5000) },
      recipe: 'tool_output:\n  per_tool:\n    read_file: { max_lines: 100 }\n',
    });
    const r = await rt.ok('read_file', { path: 'big.txt' });
    expect(r).toMatchObject({ start_line: 1, end_line: 100, truncated: true, next_offset: 101, total_lines: 5000 });
    expect(String(r.note)).toMatch(/offset=101/);
    const next = await rt.ok('read_file', { path: 'big.txt', offset: 101, limit: 1 });
    expect(next.content).toBe('line 101\n');
  });

  it('stops at the byte cap before the line cap', async () => {
    const rt = await setup({
      tree: { 'wide.txt': lines(200, 'x'.repeat(200)) },
      recipe: 'tool_output:\n  per_tool:\n    read_file: { max_bytes: 8192 }\n',
    });
    const r = await rt.ok('read_file', { path: 'wide.txt' });
    expect(r.truncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThanOrEqual(8192);
    expect(String(r.content).endsWith('\n')).toBe(true); // whole lines only
    expect(r.next_offset).toBe(Number(r.end_line) + 1);
  });

  it('refuses binary files, directories and missing files', async () => {
    const rt = await setup({ tree: { 'bin.dat': Buffer.from([1, 2, 0, 3]), dir: null } });
    expect(await rt.refused('read_file', { path: 'bin.dat' })).toMatch(/binary file/);
    expect(await rt.refused('read_file', { path: 'dir' })).toMatch(/is a directory; use list_dir/);
    expect(await rt.refused('read_file', { path: 'nope.txt' })).toMatch(/file not found: nope.txt \(glob finds files/);
  });

  it('rejects bad arguments with the field named', async () => {
    const rt = await setup({ tree: { 'a.txt': 'x' } });
    expect(await rt.refused('read_file', {})).toMatch(/invalid arguments: path is required/);
    expect(await rt.refused('read_file', { path: 'a.txt', offset: -1 })).toMatch(/offset/);
    expect(await rt.refused('read_file', { path: 'a.txt', limit: 'ten' })).toMatch(/limit/);
    expect(await rt.refused('read_file', { file_path: 'a.txt' })).toMatch(/unknown argument "file_path" — did you mean "path"\?/);
    expect(await rt.refused('read_file', '{"path": ')).toMatch(/not valid JSON/);
    expect(await rt.refused('read_file', [1])).toMatch(/must be a JSON object/);
  });
});
