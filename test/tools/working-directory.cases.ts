/**
 * Every tool that takes a relative path, after change_working_directory to `sub`:
 * the path resolves from `sub`, and results still show paths relative to the
 * workspace. One line per tool argument; the workspace has `top.txt` and
 * `needle.txt` at the root and `sub/f.txt`, `sub/needle.txt`, `sub/data.json`,
 * `sub/deeper/g.txt` below it (see CWD_TREE).
 */
export const CWD_TREE = {
  'top.txt': 'top\n',
  'needle.txt': 'needle at the root\n',
  'sub/f.txt': 'in sub\n',
  'sub/needle.txt': 'needle in sub\n',
  'sub/data.json': '{"where": "sub"}\n',
  'sub/deeper/g.txt': 'deeper\n',
};

export interface CwdCase {
  what: string;
  tool: string;
  args: Record<string, unknown>;
  /** A fragment of the result (toMatchObject). */
  expect: Record<string, unknown>;
  /** A workspace file afterwards, by its workspace-relative path: its content, or null when gone. */
  after?: { file: string; content: string | null };
}

export const CWD_CASES: readonly CwdCase[] = [
  { what: 'read_file path', tool: 'read_file', args: { path: 'f.txt' }, expect: { content: 'in sub\n' } },
  { what: 'read_file ./path', tool: 'read_file', args: { path: './deeper/g.txt' }, expect: { content: 'deeper\n' } },
  { what: 'read_file ../ reaches the root', tool: 'read_file', args: { path: '../top.txt' }, expect: { content: 'top\n' } },
  { what: 'stat path', tool: 'stat', args: { path: 'f.txt' }, expect: { path: 'sub/f.txt', type: 'file' } },
  { what: 'list_dir default', tool: 'list_dir', args: {}, expect: { path: 'sub' } },
  { what: 'list_dir relative', tool: 'list_dir', args: { path: 'deeper' }, expect: { path: 'sub/deeper', count: 1 } },
  {
    what: 'grep default root',
    tool: 'grep',
    args: { pattern: 'needle' },
    expect: { path: 'sub', count: 1, matches: [{ path: 'sub/needle.txt' }] },
  },
  { what: 'grep relative root', tool: 'grep', args: { pattern: 'deeper', path: 'deeper' }, expect: { path: 'sub/deeper', count: 1 } },
  { what: 'glob default root', tool: 'glob', args: { pattern: 'needle.txt' }, expect: { path: 'sub', paths: ['sub/needle.txt'] } },
  { what: 'read_many_files paths', tool: 'read_many_files', args: { paths: ['f.txt'] }, expect: { files: [{ content: 'in sub\n' }] } },
  {
    what: 'read_many_files pattern root',
    tool: 'read_many_files',
    args: { pattern: 'g.txt' },
    expect: { files: [{ content: 'deeper\n' }] },
  },
  {
    what: 'json_query path',
    tool: 'json_query',
    args: { expression: '.where', path: 'data.json' },
    expect: { count: 1, results: ['sub'] },
  },
  { what: 'bash cwd', tool: 'bash', args: { command: 'cat f.txt' }, expect: { exit_code: 0, output: 'in sub\n' } },
  {
    what: 'write_file path',
    tool: 'write_file',
    args: { path: 'new.txt', content: 'written\n' },
    expect: {},
    after: { file: 'sub/new.txt', content: 'written\n' },
  },
  {
    what: 'edit_file path',
    tool: 'edit_file',
    args: { path: 'f.txt', old_string: 'in sub', new_string: 'edited' },
    expect: {},
    after: { file: 'sub/f.txt', content: 'edited\n' },
  },
  {
    what: 'delete_file path',
    tool: 'delete_file',
    args: { path: 'deeper/g.txt' },
    expect: {},
    after: { file: 'sub/deeper/g.txt', content: null },
  },
];
