import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup } from '../helpers/workspace.ts';

describe('read_many_files', () => {
  it('reads explicit paths in order, then pattern matches sorted, without duplicates', async () => {
    const rt = await setup({ tree: { 'b.md': 'B', 'a.md': 'A', 'docs/c.md': 'C', 'x.txt': 'X' } });
    const r = await rt.ok('read_many_files', { paths: ['x.txt', 'b.md'], pattern: '*.md' });
    expect(r).toEqual({
      count: 4,
      files: [
        { path: 'x.txt', content: 'X' },
        { path: 'b.md', content: 'B' },
        { path: 'a.md', content: 'A' },
        { path: 'docs/c.md', content: 'C' },
      ],
    });
  });

  it('never aborts: each failure is a skipped entry with its reason', async () => {
    const outside = await setup({ tree: { 'secret.txt': 's' } });
    const rt = await setup({
      tree: {
        'ok.txt': 'fine',
        dir: null,
        'bin.dat': Buffer.from([0, 1, 2]),
        'out.txt': { symlink: path.join(outside.dir, 'secret.txt') },
      },
      recipe: 'permissions:\n  deny: ["tool.read_many_files:ok2.txt"]\n',
    });
    await rt.ok('write_file', { path: 'x', content: 'x' }).catch(() => undefined);
    const r = await rt.ok('read_many_files', { paths: ['ok.txt', 'missing.txt', 'dir', 'bin.dat', 'out.txt', '/etc/hostname', 'ok2.txt'] });
    const files = r.files as Array<Record<string, string>>;
    expect(files[0]).toEqual({ path: 'ok.txt', content: 'fine' });
    expect(files[1]).toEqual({ path: 'missing.txt', skipped: 'not found' });
    expect(files[2]).toEqual({ path: 'dir', skipped: 'is a directory' });
    expect(files[3]!.skipped).toMatch(/^binary file/);
    expect(files[4]!.skipped).toMatch(/outside path_scope/);
    expect(files[5]!.skipped).toMatch(/outside path_scope/);
    expect(files[6]!.skipped).toMatch(/permissions.deny rule "tool.read_many_files:ok2.txt"/);
    expect(JSON.stringify(r)).not.toContain('"s"');
  });

  it('caps each file and the whole batch', async () => {
    const big = 'x'.repeat(100) + '\n';
    const tree: Record<string, string> = {};
    for (let i = 0; i < 30; i++) tree[`f${String(i).padStart(2, '0')}.txt`] = big.repeat(50);
    const rt = await setup({
      tree,
      recipe: 'tools:\n  read_many_files: { max_file_bytes: 1000 }\ntool_output:\n  per_tool:\n    read_many_files: { max_bytes: 10000 }\n',
    });
    const r = await rt.ok('read_many_files', { pattern: '*.txt' });
    const files = r.files as Array<Record<string, unknown>>;
    expect(files[0]).toMatchObject({ truncated: true, note: 'first 909 of 5050 bytes' });
    expect(String(files[0]!.content).length).toBe(909);
    expect(r.truncated).toBe(true);
    expect(files.length).toBeLessThan(30);
    expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThanOrEqual(10000);
    expect(String(r.note)).toMatch(/fewer files/);
  });

  it('reads at most max_files and says how many more there were', async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 12; i++) tree[`f${i}.md`] = 'x';
    const rt = await setup({ tree, recipe: 'tools:\n  read_many_files: { max_files: 5 }\n' });
    const r = await rt.ok('read_many_files', { pattern: '*.md' });
    expect(r).toMatchObject({ count: 5, truncated: true });
    expect(String(r.note)).toMatch(/7 more files/);
  });

  it('needs paths or a pattern, and refuses a pattern root outside the scope', async () => {
    const rt = await setup({ tree: { 'a.md': 'A' } });
    expect(await rt.refused('read_many_files', {})).toMatch(/give "paths".*"pattern"/);
    expect(await rt.refused('read_many_files', { paths: [] })).toMatch(/give "paths"/);
    expect(await rt.refused('read_many_files', { pattern: '*.conf', path: '/etc' })).toMatch(/outside path_scope/);
  });
});
