/**
 * Every read tool, each called again and again while another process swaps a
 * directory on its way for a symlink to OUTSIDE and back (read-race.test.ts).
 * Everything outside carries the word SECRET — in its names or in its content
 * — and nothing inside does, so a result or an error holding "SECRET" is an
 * escape; so is metadata only outside has (OUTSIDE_MARKS: a file of 4,242
 * bytes, directories of mode 0711), for stat and list_dir. `swap` is the directory swapped (default `d`), `to` what the symlink
 * points at under OUTSIDE (default OUTSIDE itself).
 */
export interface ReadRaceCase {
  readonly what: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** The search engine for grep and glob (read_many_files picks its own: rg when present). */
  readonly engine?: 'ripgrep' | 're2';
  readonly swap?: string;
  readonly to?: string;
}

/** The workspace: files with the same names outside (shared.txt, data.json, code.ts, deeper/inner.txt) hold SECRET there. */
export const INSIDE: Record<string, string> = {
  'top.txt': 'inside top\n',
  'd/inside-1.txt': 'inside one\n',
  'd/inside-2.txt': 'inside two\n',
  'd/shared.txt': 'inside shared\n',
  'd/data.json': '{"v": "inside"}\n',
  'd/code.ts': 'export function insideFn(): void {}\n',
  'd/deeper/inner.txt': 'inside deeper\n',
  'd/deeper/more/leaf.txt': 'inside leaf\n',
  '.agents/skills/s/SKILL.md': '---\nname: s\ndescription: a skill whose reference directory is swapped\n---\nread ref/guide.md\n',
  '.agents/skills/s/ref/guide.md': 'inside guide\n',
};

export const OUTSIDE: Record<string, string> = {
  'SECRET-name-1.txt': 'SECRET one\n',
  'SECRET-name-2.txt': 'SECRET two\n',
  'shared.txt': `SECRET shared${' '.repeat(4242 - 14)}\n`,
  'data.json': '{"v": "SECRET"}\n',
  'code.ts': 'export function SECRETfn(): void {}\n',
  'guide.md': 'SECRET guide\n',
  'deeper/inner.txt': 'SECRET deeper\n',
  'deeper/SECRET-inner.txt': 'SECRET deeper name\n',
  'deeper/more/leaf.txt': 'SECRET leaf\n',
  'SECRET-dir/x.txt': 'SECRET x\n',
};

/** Metadata that only the outside tree has (the test makes OUTSIDE and OUTSIDE/deeper mode 0711). */
export const OUTSIDE_MARKS = /"size":4242\b|"mode":"0711"/;

const searches = (engine: 'ripgrep' | 're2'): ReadRaceCase[] => [
  { what: `glob under the swapped directory (${engine})`, tool: 'glob', args: { pattern: '*', path: 'd' }, engine },
  { what: `glob across the workspace (${engine})`, tool: 'glob', args: { pattern: '**/*' }, engine },
  { what: `glob below a swapped parent (${engine})`, tool: 'glob', args: { pattern: '**/*.txt', path: 'd/deeper' }, engine },
  { what: `grep under the swapped directory (${engine})`, tool: 'grep', args: { pattern: '.', path: 'd' }, engine },
  { what: `grep across the workspace (${engine})`, tool: 'grep', args: { pattern: '.' }, engine },
  { what: `grep one file in it (${engine})`, tool: 'grep', args: { pattern: '.', path: 'd/shared.txt' }, engine },
  { what: `grep below a swapped parent (${engine})`, tool: 'grep', args: { pattern: '.', path: 'd/deeper' }, engine },
  { what: `grep with include (${engine})`, tool: 'grep', args: { pattern: '.', include: '*.txt' }, engine },
];

export const READ_RACE_CASES: readonly ReadRaceCase[] = [
  { what: 'read_file', tool: 'read_file', args: { path: 'd/shared.txt' } },
  { what: 'read_file below a swapped parent', tool: 'read_file', args: { path: 'd/deeper/inner.txt' } },
  {
    what: 'read_many_files, listed paths',
    tool: 'read_many_files',
    args: { paths: ['d/shared.txt', 'd/inside-1.txt', 'd/deeper/inner.txt'] },
  },
  { what: 'read_many_files, a pattern under the directory', tool: 'read_many_files', args: { pattern: '*', path: 'd' } },
  { what: 'read_many_files, a pattern across the workspace', tool: 'read_many_files', args: { pattern: '**/*.txt' } },
  { what: 'view_file_outline', tool: 'view_file_outline', args: { path: 'd/code.ts' } },
  { what: 'list_dir of the directory', tool: 'list_dir', args: { path: 'd' } },
  { what: 'list_dir below a swapped parent', tool: 'list_dir', args: { path: 'd/deeper' } },
  { what: 'list_dir of the directory swapped, deeper', tool: 'list_dir', args: { path: 'd/deeper/more' }, swap: 'd/deeper', to: 'deeper' },
  { what: 'stat of the directory', tool: 'stat', args: { path: 'd' } },
  { what: 'stat of a file in it', tool: 'stat', args: { path: 'd/shared.txt' } },
  { what: 'json_query with a path', tool: 'json_query', args: { path: 'd/data.json', expression: '.' } },
  {
    what: 'skill: a reference file, its directory swapped',
    tool: 'skill',
    args: { name: 's', file: 'ref/guide.md' },
    swap: '.agents/skills/s/ref',
  },
  ...searches('ripgrep'),
  ...searches('re2'),
];
