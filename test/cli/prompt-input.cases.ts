/**
 * What a prompt carries besides its words, through the built CLI with a
 * replayed model: piped stdin of every kind, and `@path` tokens. `sees` is
 * what the model's prompt (the session's `user` event) must hold, `seesNot`
 * what it must not; `says` / `saysNot` are about stderr.
 */

/**
 * How stdin is given: a pipe (FIFO) written and closed, a regular file, a socket, a FIFO never
 * written nor closed, /dev/null, or a pipe whose writer sends each part `gapMs` after the last
 * (held open between them) and then closes it.
 */
export type StdinSetup =
  | { pipe: string | Buffer }
  | { file: string | Buffer }
  | { socket: string }
  | { trickle: string[]; gapMs: number }
  | 'open-pipe'
  | 'devnull';

export interface PromptInputCase {
  name: string;
  /** The PROMPT argument ('-' reads it from stdin). */
  prompt: string;
  stdin?: StdinSetup;
  files?: Record<string, string | Buffer>;
  /** A recipe (YAML) the run is given with -c. */
  recipe?: string;
  /** The CLI's environment besides PATH and HOME (CORE_AGENT_DEBUG_START_DELAY_MS: a loaded machine's start-up). */
  env?: Record<string, string>;
  sees?: (string | RegExp)[];
  seesNot?: (string | RegExp)[];
  says?: RegExp[];
  saysNot?: RegExp[];
}

const CAP = 256 * 1024;
/** Start-up held on its thread, as a loaded machine holds it (issue 37: 11 of 11 runs lost their stdin at load ~12). */
const HELD = { CORE_AGENT_DEBUG_START_DELAY_MS: '1500' };
const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

// One case a line (prettier would spread each over several).
// prettier-ignore
export const STDIN_CASES: PromptInputCase[] = [
  { name: 'a pipe with data', prompt: 'why', stdin: { pipe: 'E0101 crash\nretrying\n' }, sees: ['why\n\nstdin (21 bytes):\n```\nE0101 crash\nretrying\n```'], saysNot: [/stdin/] },
  { name: 'a regular file (< file)', prompt: 'why', stdin: { file: 'from a file\n' }, sees: ['stdin (12 bytes):\n```\nfrom a file\n```'] },
  { name: 'no trailing newline', prompt: 'why', stdin: { pipe: 'no newline' }, sees: ['```\nno newline\n```'] },
  { name: 'backticks inside: a longer fence', prompt: 'why', stdin: { pipe: 'a ``` b ````` c\n' }, sees: ['``````\na ``` b ````` c\n``````'] },
  { name: 'a pipe that stays open and silent', prompt: 'why', stdin: 'open-pipe', sees: [/^why$/], says: [/stdin is a pipe that sent nothing in 500 ms: not attached/] },
  { name: 'an empty pipe', prompt: 'why', stdin: { pipe: '' }, sees: [/^why$/], says: [/stdin was empty: nothing attached/] },
  { name: 'an empty file', prompt: 'why', stdin: { file: '' }, sees: [/^why$/], says: [/stdin was empty/] },
  { name: 'a socket (a parent\'s socketpair): not read, nothing said', prompt: 'why', stdin: { socket: 'SOCKET-DATA\n' }, sees: [/^why$/], saysNot: [/stdin/] },
  { name: '/dev/null: not read, nothing said', prompt: 'why', stdin: 'devnull', sees: [/^why$/], saysNot: [/stdin/] },
  { name: 'NUL bytes: refused, summarised', prompt: 'why', stdin: { pipe: Buffer.from('ab\0cd') }, sees: ['[stdin: 5 bytes of binary data (a NUL byte at offset 2), not attached]'], seesNot: ['ab'], says: [/stdin is binary \(5 bytes, a NUL byte at offset 2\): not attached/] },
  { name: 'invalid UTF-8: refused', prompt: 'why', stdin: { file: Buffer.from([0x68, 0xff, 0xfe, 0x69]) }, sees: [/not UTF-8 text\), not attached\]$/], says: [/stdin is binary \(4 bytes, not UTF-8 text\)/] },
  { name: 'UTF-8 text is text', prompt: 'why', stdin: { pipe: 'größe 🚀\n' }, sees: ['```\ngröße 🚀\n```'] },
  { name: 'over the cap: the head, and said', prompt: 'why', stdin: { pipe: 'y\n'.repeat(CAP) }, sees: [`why\n\nstdin truncated: first ${CAP} of ${CAP + 1}+ bytes:\n\`\`\`\ny\ny\n`], seesNot: ['y\n'.repeat(CAP / 2 + 1)], says: [new RegExp(`stdin truncated: first ${CAP} of ${CAP + 1}\\+ bytes`)] },
  { name: 'over the cap from a file', prompt: 'why', stdin: { file: 'z'.repeat(CAP + 10) }, sees: [`first ${CAP} of ${CAP + 1}+ bytes`], says: [/stdin truncated/] },
  { name: 'exactly the cap: whole', prompt: 'why', stdin: { pipe: 'q'.repeat(CAP) }, sees: [`stdin (${CAP} bytes):`], saysNot: [/truncated/] },
  { name: 'binary past the cap', prompt: 'why', stdin: { pipe: Buffer.alloc(CAP + 5) }, sees: [`[stdin: ${CAP + 1}+ bytes of binary data`] },
  { name: 'a pipe with data, start-up held 1.5 s (a loaded machine)', prompt: 'why', stdin: { pipe: 'ERR\n' }, env: HELD, sees: ['why\n\nstdin (4 bytes):\n```\nERR\n```'], saysNot: [/stdin/] },
  { name: 'the wait runs from when run looks, not from its start', prompt: 'why', stdin: { trickle: ['', 'late\n'], gapMs: 1000 }, env: { ...HELD, CORE_AGENT_STDIN_WAIT_MS: '1000' }, sees: ['stdin (5 bytes):\n```\nlate\n```'], saysNot: [/sent nothing/] },
  { name: 'more than a pipe buffer holds (200 KiB), start-up held: read whole', prompt: 'why', stdin: { pipe: 'x\n'.repeat(100 * 1024) }, env: HELD, sees: [`stdin (${200 * 1024} bytes):`], seesNot: ['x\n'.repeat(100 * 1024 + 1)], saysNot: [/stdin/] },
  { name: 'parts written while start-up is held, the pipe closed after: read to its end', prompt: 'why', stdin: { trickle: ['one\n', 'two\n', 'three\n'], gapMs: 600 }, env: HELD, sees: ['stdin (14 bytes):\n```\none\ntwo\nthree\n```'], saysNot: [/stdin/] },
  { name: 'a file, start-up held', prompt: 'why', stdin: { file: 'from a file\n' }, env: HELD, sees: ['stdin (12 bytes):'] },
  { name: 'a pipe open and silent, start-up held: the wait is after it', prompt: 'why', stdin: 'open-pipe', env: HELD, sees: [/^why$/], says: [/stdin is a pipe that sent nothing in 500 ms: not attached/] },
  { name: '/dev/null, start-up held: not read, nothing said', prompt: 'why', stdin: 'devnull', env: HELD, sees: [/^why$/], saysNot: [/stdin/] },
  { name: 'data, then the pipe held open past the wait: read to its end', prompt: 'why', stdin: { trickle: ['part one\n', 'part two\n'], gapMs: 1500 }, sees: ['stdin (18 bytes):\n```\npart one\npart two\n```'], saysNot: [/sent nothing/] },
  { name: '`run -`: stdin is the prompt, no block', prompt: '-', stdin: { pipe: 'the prompt itself\n' }, sees: [/^the prompt itself$/], seesNot: ['stdin ('] },
  { name: 'stdin is not scanned for @path', prompt: 'why', stdin: { pipe: 'see @a.txt\n' }, files: { 'a.txt': 'SECRET-A\n' }, sees: ['see @a.txt'], seesNot: ['SECRET-A'] },
  { name: '@file and stdin: the file first, stdin last', prompt: 'why @a.txt', stdin: { pipe: 'logs\n' }, files: { 'a.txt': 'A\n' }, sees: [/File a\.txt[^]*stdin \(5 bytes\)/] },
];

/** The REPL with piped input: which messages (turns) the lines make. */
// prettier-ignore
export const REPL_LINE_CASES: { name: string; input: string; turns: string[] }[] = [
  { name: 'one line, one turn', input: 'hello\n', turns: ['hello'] },
  { name: 'a trailing \\ continues', input: 'first \\\nsecond\n', turns: ['first \nsecond'] },
  { name: 'three lines', input: 'a\\\nb\\\nc\n', turns: ['a\nb\nc'] },
  { name: 'a trailing \\\\ is a literal backslash', input: 'path C:\\\\\nnext\n', turns: ['path C:\\\\', 'next'] },
  { name: 'a backslash inside is text', input: 'a \\ b\n', turns: ['a \\ b'] },
  { name: 'the end of input ends the message', input: 'last \\\n', turns: ['last'] },
  { name: 'continued, then @file', input: 'see \\\n@a.txt\n', turns: ['see \n@a.txt\n\nFile a.txt (lines 1-1 of 1):\n```\nA\n```'] },
];

// prettier-ignore
export const AT_CASES: PromptInputCase[] = [
  { name: 'plain', prompt: 'explain @a.txt', files: { 'a.txt': 'alpha\nbeta\n' }, sees: ['explain @a.txt\n\nFile a.txt (lines 1-2 of 2):\n```\nalpha\nbeta\n```'] },
  { name: 'at the start', prompt: '@a.txt is wrong', files: { 'a.txt': 'A\n' }, sees: ['File a.txt (lines 1-1 of 1)'] },
  { name: 'in a subdirectory', prompt: 'see @src/m.ts', files: { 'src/m.ts': 'export {}\n' }, sees: ['File src/m.ts (lines 1-1 of 1)'] },
  { name: 'double-quoted, with a space', prompt: 'read @"my notes.txt" now', files: { 'my notes.txt': 'N\n' }, sees: ['File my notes.txt'] },
  { name: 'single-quoted', prompt: "read @'my notes.txt'", files: { 'my notes.txt': 'N\n' }, sees: ['File my notes.txt'] },
  { name: 'trailing punctuation', prompt: 'see @a.txt, then @b.txt.', files: { 'a.txt': 'A\n', 'b.txt': 'B\n' }, sees: ['File a.txt', 'File b.txt'], saysNot: [/no such file/] },
  { name: '\\@ escapes: text, not read', prompt: 'literal \\@a.txt here', files: { 'a.txt': 'SECRET-A\n' }, sees: [/^literal @a\.txt here$/], seesNot: ['SECRET-A'] },
  { name: 'an e-mail address is text', prompt: 'mail bob@a.txt', files: { 'a.txt': 'SECRET-A\n' }, sees: [/^mail bob@a\.txt$/], seesNot: ['SECRET-A'], saysNot: [/no such file/] },
  { name: '@scope/pkg with no such file: text, said', prompt: 'upgrade @types/node', sees: [/^upgrade @types\/node$/], says: [/@types\/node: no such file; left as text/] },
  { name: 'a lone @ is text', prompt: 'meet @ noon', sees: [/^meet @ noon$/], saysNot: [/core-agent:/] },
  { name: 'missing: the turn runs without it', prompt: 'fix @nope.txt', sees: [/^fix @nope\.txt$/], says: [/@nope\.txt: no such file; left as text/] },
  { name: 'outside path_scope: refused, said', prompt: 'read @/etc/hostname', sees: [/^read @\/etc\/hostname$/], says: [/@\/etc\/hostname not attached: read_file: permission denied: .*outside path_scope/] },
  { name: '.. out of the workspace: refused', prompt: 'read @../x.txt', sees: [/^read @\.\.\/x\.txt$/], says: [/not attached: read_file: permission denied/] },
  { name: 'a path_scope deny entry: refused', prompt: 'read @.env', files: { '.env': 'TOKEN=SECRET-ENV\n' }, recipe: 'permissions:\n  path_scope:\n    deny: [".env"]\n', seesNot: ['SECRET-ENV'], says: [/@\.env not attached: read_file: permission denied/] },
  { name: 'a deny rule on read_file: refused', prompt: 'read @secret.txt', files: { 'secret.txt': 'SECRET-S\n' }, recipe: 'permissions:\n  deny: ["tool.read_file:secret.txt"]\n', seesNot: ['SECRET-S'], says: [/@secret\.txt not attached: read_file: permission denied/] },
  { name: 'a directory: refused', prompt: 'list @src', files: { 'src/m.ts': 'M\n' }, sees: [/^list @src$/], says: [/@src not attached: read_file: src is a directory/] },
  { name: 'a binary file: refused by read_file', prompt: 'what is @b.bin', files: { 'b.bin': Buffer.from([1, 0, 2, 0]) }, seesNot: ['File b.bin'], says: [/@b\.bin not attached: .*binary file/] },
  { name: 'two files: two blocks', prompt: 'diff @a.txt @b.txt', files: { 'a.txt': 'A\n', 'b.txt': 'B\n' }, sees: [/File a\.txt[^]*```\nA\n```\n\nFile b\.txt[^]*```\nB\n```$/] },
  { name: 'the same file twice: one block', prompt: '@a.txt vs @a.txt', files: { 'a.txt': 'A\n' }, seesNot: [/File a\.txt[^]*File a\.txt/], sees: ['File a.txt'] },
  { name: 'a huge file: read_file caps it, said', prompt: 'summarise @big.txt', files: { 'big.txt': lines(5000) }, sees: ["File big.txt (lines 1-2000 of 5000, cut at read_file's output cap; read_file offset=2001 reads on):", 'line 2000\n'], seesNot: ['line 2001'], says: [/@big\.txt: attached lines 1-2000 of 5000 only/] },
  { name: 'an empty file', prompt: 'why @e.txt', files: { 'e.txt': '' }, sees: ['File e.txt (empty):'] },
  { name: 'backticks in the file: a longer fence', prompt: '@md.md', files: { 'md.md': '```sh\nls\n```\n' }, sees: ['````\n```sh\nls\n```\n````'] },
  { name: 'one missing, one there', prompt: '@nope.txt @a.txt', files: { 'a.txt': 'A\n' }, sees: ['File a.txt'], says: [/@nope\.txt: no such file/] },
];
