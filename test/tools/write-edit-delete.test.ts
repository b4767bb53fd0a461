import { chmod, lstat, readFile, readdir, readlink, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup } from '../helpers/workspace.ts';

const yolo = { flags: { mode: 'yolo' as const } };

describe('write_file', () => {
  it('creates a file and its parent directories', async () => {
    const rt = await setup(yolo);
    expect(await rt.ok('write_file', { path: 'a/b/c.txt', content: 'héllo' })).toEqual({ path: 'a/b/c.txt', bytes: 6, created: true });
    expect(await readFile(path.join(rt.dir, 'a/b/c.txt'), 'utf8')).toBe('héllo');
  });

  it('replaces atomically, keeps the mode and leaves no temporary file', async () => {
    const rt = await setup({ ...yolo, tree: { 'run.sh': '#!/bin/sh\necho old\n' } });
    await chmod(path.join(rt.dir, 'run.sh'), 0o750);
    expect((await rt.ok('write_file', { path: 'run.sh', content: '#!/bin/sh\necho new\n' })).created).toBe(false);
    expect((await stat(path.join(rt.dir, 'run.sh'))).mode & 0o777).toBe(0o750);
    expect(await readFile(path.join(rt.dir, 'run.sh'), 'utf8')).toBe('#!/bin/sh\necho new\n');
    expect(await readdir(rt.dir)).toEqual(['run.sh']);
  });

  it('writes through an in-scope symlink to its target, keeping the link', async () => {
    const rt = await setup({ ...yolo, tree: { 'real.txt': 'old', 'link.txt': { symlink: 'real.txt' } } });
    expect((await rt.ok('write_file', { path: 'link.txt', content: 'new' })).path).toBe('real.txt');
    expect(await readlink(path.join(rt.dir, 'link.txt'))).toBe('real.txt');
    expect(await readFile(path.join(rt.dir, 'real.txt'), 'utf8')).toBe('new');
  });

  it('refuses a directory', async () => {
    const rt = await setup({ ...yolo, tree: { d: null } });
    expect(await rt.refused('write_file', { path: 'd', content: 'x' })).toMatch(/is a directory/);
  });
});

describe('edit_file', () => {
  it('writes $&, $1 and $$ in new_string literally', async () => {
    const rt = await setup({ ...yolo, tree: { 'f.txt': 'a PLACEHOLDER b\n' } });
    expect(await rt.ok('edit_file', { path: 'f.txt', old_string: 'PLACEHOLDER', new_string: '$&$1$$' })).toMatchObject({ replacements: 1 });
    expect(await readFile(path.join(rt.dir, 'f.txt'), 'utf8')).toBe('a $&$1$$ b\n');
  });

  it('treats regex and replacement syntax in old_string literally', async () => {
    const rt = await setup({ ...yolo, tree: { 'f.txt': 'x = a.*b; y = $1;\n' } });
    await rt.ok('edit_file', { path: 'f.txt', old_string: 'a.*b; y = $1', new_string: "$'$`" });
    expect(await readFile(path.join(rt.dir, 'f.txt'), 'utf8')).toBe("x = $'$`;\n");
  });

  it('refuses 0 and >1 matches, naming the count and replace_all, and writes nothing', async () => {
    const rt = await setup({ ...yolo, tree: { 'f.txt': 'foo foo foo\n' } });
    expect(await rt.refused('edit_file', { path: 'f.txt', old_string: 'bar', new_string: 'x' })).toMatch(
      /not found in f.txt \(0 matches\)/,
    );
    const many = await rt.refused('edit_file', { path: 'f.txt', old_string: 'foo', new_string: 'x' });
    expect(many).toMatch(/matches 3 times/);
    expect(many).toMatch(/replace_all: true/);
    expect(await readFile(path.join(rt.dir, 'f.txt'), 'utf8')).toBe('foo foo foo\n');
  });

  it('replaces every occurrence with replace_all', async () => {
    const rt = await setup({ ...yolo, tree: { 'f.txt': 'foo foo foo\n' } });
    expect(await rt.ok('edit_file', { path: 'f.txt', old_string: 'foo', new_string: 'foofoo', replace_all: true })).toMatchObject({
      replacements: 3,
    });
    expect(await readFile(path.join(rt.dir, 'f.txt'), 'utf8')).toBe('foofoo foofoo foofoo\n');
  });

  it('refuses an empty, whitespace-only or unchanged old_string', async () => {
    const rt = await setup({ ...yolo, tree: { 'f.txt': 'a  b\n' } });
    expect(await rt.refused('edit_file', { path: 'f.txt', old_string: '', new_string: 'x' })).toMatch(/old_string is empty.*write_file/);
    expect(await rt.refused('edit_file', { path: 'f.txt', old_string: '  ', new_string: 'x' })).toMatch(/only whitespace/);
    expect(await rt.refused('edit_file', { path: 'f.txt', old_string: 'a', new_string: 'a' })).toMatch(/identical/);
  });

  it('keeps CRLF line endings and a BOM when the model writes LF', async () => {
    const rt = await setup({ ...yolo, tree: { 'win.txt': '\uFEFFone\r\ntwo\r\nthree\r\n' } });
    expect(await rt.ok('edit_file', { path: 'win.txt', old_string: 'one\ntwo', new_string: 'uno\ndos\nplus' })).toMatchObject({
      line_endings: 'crlf',
    });
    expect(await readFile(path.join(rt.dir, 'win.txt'), 'utf8')).toBe('\uFEFFuno\r\ndos\r\nplus\r\nthree\r\n');
  });

  it('keeps the file mode', async () => {
    const rt = await setup({ ...yolo, tree: { 'x.sh': 'echo a\n' } });
    await chmod(path.join(rt.dir, 'x.sh'), 0o700);
    await rt.ok('edit_file', { path: 'x.sh', old_string: 'echo a', new_string: 'echo b' });
    expect((await stat(path.join(rt.dir, 'x.sh'))).mode & 0o777).toBe(0o700);
  });

  it('refuses a missing file and a binary file', async () => {
    const rt = await setup({ ...yolo, tree: { 'b.bin': Buffer.from('ab\0cd') } });
    expect(await rt.refused('edit_file', { path: 'none.txt', old_string: 'a', new_string: 'b' })).toMatch(/file not found.*write_file/);
    expect(await rt.refused('edit_file', { path: 'b.bin', old_string: 'ab', new_string: 'x' })).toMatch(/binary/);
  });

  it('names write_file in refusals only when it is registered', async () => {
    const rt = await setup({ flags: { mode: 'yolo', disableTools: ['write_file'] }, tree: { 'f.txt': 'x' } });
    const msg = await rt.refused('edit_file', { path: 'none.txt', old_string: 'a', new_string: 'b' });
    expect(msg).not.toMatch(/write_file/);
  });
});

describe('delete_file', () => {
  it('deletes a file and is idempotent', async () => {
    const rt = await setup({ ...yolo, tree: { 'gone.txt': 'x' } });
    expect(await rt.ok('delete_file', { path: 'gone.txt' })).toEqual({ path: 'gone.txt', deleted: true });
    expect(await rt.ok('delete_file', { path: 'gone.txt' })).toMatchObject({ path: 'gone.txt', deleted: false });
  });

  it('refuses a directory', async () => {
    const rt = await setup({ ...yolo, tree: { d: null } });
    expect(await rt.refused('delete_file', { path: 'd' })).toMatch(/is a directory/);
  });

  it('removes a symlink, not its target — even a target outside the workspace', async () => {
    const outside = await setup({ tree: { 'keep.txt': 'precious' } });
    const rt = await setup({ ...yolo, tree: { 'link.txt': { symlink: path.join(outside.dir, 'keep.txt') } } });
    expect(await rt.ok('delete_file', { path: 'link.txt' })).toMatchObject({ deleted: true });
    await expect(lstat(path.join(rt.dir, 'link.txt'))).rejects.toThrow();
    expect(await readFile(path.join(outside.dir, 'keep.txt'), 'utf8')).toBe('precious');
  });
});

describe('stat and list_dir', () => {
  it('stat reports metadata, and exists:false for a missing path', async () => {
    const rt = await setup({ tree: { 'a.txt': 'hello' } });
    await writeFile(path.join(rt.dir, 'a.txt'), 'hello');
    const r = await rt.ok('stat', { path: 'a.txt' });
    expect(r).toMatchObject({ path: 'a.txt', exists: true, type: 'file', is_dir: false, size: 5, mode: '0644', permissions: '-rw-r--r--' });
    expect(String(r.mtime)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(await rt.ok('stat', { path: 'missing' })).toEqual({ path: 'missing', exists: false });
  });

  it('list_dir lists entries sorted, hidden ones included, links not followed', async () => {
    const rt = await setup({ tree: { 'b.txt': 'bb', 'a.txt': 'a', '.hidden': '', sub: null, ln: { symlink: 'a.txt' } } });
    expect(await rt.ok('list_dir', {})).toEqual({
      path: '.',
      count: 5,
      entries: [
        { name: '.hidden', type: 'file', size: 0 },
        { name: 'a.txt', type: 'file', size: 1 },
        { name: 'b.txt', type: 'file', size: 2 },
        { name: 'ln', type: 'symlink' },
        { name: 'sub', type: 'directory' },
      ],
    });
    expect(await rt.refused('list_dir', { path: 'a.txt' })).toMatch(/is a file/);
    expect(await rt.refused('list_dir', { path: 'nope' })).toMatch(/not found/);
  });

  it('list_dir caps a huge directory and says how to narrow', async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 300; i++) tree[`f${String(i).padStart(3, '0')}.txt`] = '';
    const rt = await setup({ tree, recipe: 'tool_output:\n  per_tool:\n    list_dir: { max_lines: 50 }\n' });
    const r = await rt.ok('list_dir', {});
    expect(r.truncated).toBe(true);
    expect((r.entries as unknown[]).length).toBe(50);
    expect(r.count).toBe(300);
    expect(String(r.note)).toMatch(/subdirectory/);
  });
});

describe('special files', () => {
  it('refuses a FIFO instead of blocking on it', async () => {
    const { execFileSync } = await import('node:child_process');
    const rt = await setup({ flags: { mode: 'yolo' } });
    execFileSync('mkfifo', [path.join(rt.dir, 'pipe')]);
    expect(await rt.refused('read_file', { path: 'pipe' })).toMatch(/not a regular file/);
    expect(await rt.refused('json_query', { expression: '.', path: 'pipe' })).toMatch(/not a regular file/);
    expect(await rt.refused('grep', { pattern: 'x', path: 'pipe' })).toMatch(/not a regular file/);
    expect(await rt.refused('edit_file', { path: 'pipe', old_string: 'a', new_string: 'b' })).toMatch(/not a regular file/);
    const many = await rt.ok('read_many_files', { paths: ['pipe'] });
    expect((many.files as Array<{ skipped?: string }>)[0]!.skipped).toMatch(/not a regular file/);
  });

  it('writes a file with a name at the length limit (the temporary name stays legal)', async () => {
    const rt = await setup({ flags: { mode: 'yolo' } });
    const name = `${'n'.repeat(250)}.txt`;
    await rt.ok('write_file', { path: name, content: 'long' });
    expect(await readFile(path.join(rt.dir, name), 'utf8')).toBe('long');
  });

  it('list_dir leaves out entries path_scope.deny covers', async () => {
    const rt = await setup({ tree: { '.env': 'K=1', 'a.txt': 'a' }, recipe: 'permissions:\n  path_scope:\n    deny: [".env"]\n' });
    expect((await rt.ok('list_dir', {})).entries).toEqual([{ name: 'a.txt', type: 'file', size: 1 }]);
  });
});
