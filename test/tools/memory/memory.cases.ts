import type { FailureKind } from '../../../src/core/failure.ts';
import { MEMORY_LIMITS } from '../../../src/tools/memory/limits.ts';
import type { Tree } from '../../helpers/workspace.ts';

/**
 * The memory family's behaviour, one case a line, run by memory.test.ts through the dispatcher
 * (the dialect's catalog, the gate, the real store) in a temporary state directory as user
 * alice. `tree` is written under alice's memories folder (`../../../outside/` is beside `users/`
 * in the state directory: what a planted link leads to); `after` is what must be there then
 * (`null`: absent). `ok` is the result's fields, `error` a pattern of the refusal.
 */
export interface MemoryCase {
  name: string;
  dialect: 'golem' | 'core-agent';
  tree?: Tree;
  call: [tool: string, args: Record<string, unknown>];
  ok?: Record<string, unknown>;
  error?: RegExp;
  kind?: FailureKind;
  after?: Record<string, string | null>;
}

const G = 'golem' as const;
const A = 'core-agent' as const;
const big = 'x'.repeat(MEMORY_LIMITS.fileBytes + 1);
const outsideLink = { link: { symlink: '../../../outside' } };
const secret = { '../../../outside/secret.md': "bob's secret" };

// prettier-ignore
export const MEMORY_CASES: MemoryCase[] = [
  // golem's seven tools, with golem's argument names and results
  { name: 'MemoryView with no file reads MEMORY.md', dialect: G, tree: { 'MEMORY.md': '# Alice\n- likes tea' }, call: ['MemoryView', {}], ok: { content: '# Alice\n- likes tea' } },
  { name: 'MemoryView of a missing file is "(no memory yet)"', dialect: G, call: ['MemoryView', { file: 'people/bob.md' }], ok: { content: '(no memory yet)' } },
  { name: 'MemoryView of a folder says what it holds', dialect: G, tree: { 'people/bob.md': 'b' }, call: ['MemoryView', { file: 'people' }], error: /is a folder; read one of its files: people\/bob\.md/ },
  { name: 'MemoryWrite with no file writes MEMORY.md whole', dialect: G, tree: { 'MEMORY.md': 'old' }, call: ['MemoryWrite', { content: 'new' }], ok: { result: 'wrote MEMORY.md' }, after: { 'MEMORY.md': 'new' } },
  { name: 'MemoryWrite makes subfolders', dialect: G, call: ['MemoryWrite', { file: 'a/b/c.md', content: 'deep' }], ok: { result: 'wrote a/b/c.md' }, after: { 'a/b/c.md': 'deep' } },
  { name: 'MemoryCreate makes a new file', dialect: G, call: ['MemoryCreate', { file: 'new.md', content: 'n' }], ok: { result: 'created new.md' }, after: { 'new.md': 'n' } },
  { name: 'MemoryCreate refuses an existing file and leaves it', dialect: G, tree: { 'x.md': 'keep' }, call: ['MemoryCreate', { file: 'x.md', content: 'lost' }], error: /"x\.md" already exists; creating never overwrites/, after: { 'x.md': 'keep' } },
  { name: 'MemoryCreate without file is refused in golem\'s words', dialect: G, call: ['MemoryCreate', { content: 'c' }], error: /MemoryCreate: invalid arguments.*file/, kind: 'invalid_args' },
  { name: 'MemoryInsert at a character offset (non-ASCII counts one each)', dialect: G, tree: { 'n.md': 'héllo wörld' }, call: ['MemoryInsert', { file: 'n.md', content: '→', position: 5 }], ok: { result: 'updated n.md' }, after: { 'n.md': 'héllo→ wörld' } },
  { name: 'MemoryInsert counts an astral character (emoji) as one', dialect: G, tree: { 'n.md': '😀ab' }, call: ['MemoryInsert', { file: 'n.md', content: '|', position: 1 }], after: { 'n.md': '😀|ab' } },
  { name: 'MemoryInsert at 0 prepends', dialect: G, tree: { 'n.md': 'abc' }, call: ['MemoryInsert', { file: 'n.md', content: '>', position: 0 }], after: { 'n.md': '>abc' } },
  { name: 'MemoryInsert past the end appends', dialect: G, tree: { 'n.md': 'abc' }, call: ['MemoryInsert', { file: 'n.md', content: '!', position: 99 }], after: { 'n.md': 'abc!' } },
  { name: 'MemoryInsert at -1 appends', dialect: G, tree: { 'n.md': 'abc' }, call: ['MemoryInsert', { file: 'n.md', content: '!', position: -1 }], after: { 'n.md': 'abc!' } },
  { name: 'MemoryInsert into a missing file is not_found', dialect: G, call: ['MemoryInsert', { file: 'none.md', content: 'x', position: 0 }], error: /"none\.md" does not exist/, kind: 'not_found' },
  { name: 'MemoryStrReplace replaces one literal occurrence', dialect: G, tree: { 'n.md': 'tea at 5' }, call: ['MemoryStrReplace', { file: 'n.md', old: 'tea', new: 'coffee' }], ok: { result: 'updated n.md', replacements: 1 }, after: { 'n.md': 'coffee at 5' } },
  { name: 'MemoryStrReplace is literal ($& and regex characters are text)', dialect: G, tree: { 'n.md': 'a.b a+b' }, call: ['MemoryStrReplace', { file: 'n.md', old: 'a+b', new: '$&$1' }], after: { 'n.md': 'a.b $&$1' } },
  { name: 'MemoryStrReplace with no hit names the count and changes nothing', dialect: G, tree: { 'n.md': 'tea' }, call: ['MemoryStrReplace', { file: 'n.md', old: 'milk', new: 'x' }], error: /old text was not found in "n\.md"/, after: { 'n.md': 'tea' } },
  { name: 'MemoryStrReplace with 3 hits and no all names 3', dialect: G, tree: { 'n.md': 'a a a' }, call: ['MemoryStrReplace', { file: 'n.md', old: 'a', new: 'b' }], error: /old text occurs 3 times in "n\.md"; set all=true/, after: { 'n.md': 'a a a' } },
  { name: 'MemoryStrReplace with all replaces every one', dialect: G, tree: { 'n.md': 'a a a' }, call: ['MemoryStrReplace', { file: 'n.md', old: 'a', new: 'b', all: true }], ok: { replacements: 3 }, after: { 'n.md': 'b b b' } },
  { name: 'MemoryStrReplace refuses an empty old', dialect: G, tree: { 'n.md': 'a' }, call: ['MemoryStrReplace', { file: 'n.md', old: '', new: 'b' }], error: /old text is required/, kind: 'invalid_args' },
  { name: 'MemoryRename moves a file into a new folder', dialect: G, tree: { 'a.md': 'A' }, call: ['MemoryRename', { from: 'a.md', to: 'archive/a.md' }], ok: { result: 'renamed a.md to archive/a.md' }, after: { 'a.md': null, 'archive/a.md': 'A' } },
  { name: 'MemoryRename never overwrites', dialect: G, tree: { 'a.md': 'A', 'b.md': 'B' }, call: ['MemoryRename', { from: 'a.md', to: 'b.md' }], error: /"b\.md" already exists; rename never overwrites/, after: { 'a.md': 'A', 'b.md': 'B' } },
  { name: 'MemoryRename of a missing file is not_found', dialect: G, call: ['MemoryRename', { from: 'a.md', to: 'b.md' }], error: /"a\.md" does not exist/, kind: 'not_found' },
  { name: 'MemoryRename refuses a folder', dialect: G, tree: { 'dir/a.md': 'A' }, call: ['MemoryRename', { from: 'dir', to: 'dir2' }], error: /"dir" is a folder/, after: { 'dir/a.md': 'A' } },
  { name: 'MemoryDelete removes one file', dialect: G, tree: { 'a.md': 'A' }, call: ['MemoryDelete', { file: 'a.md' }], ok: { result: 'deleted a.md' }, after: { 'a.md': null } },
  { name: 'MemoryDelete refuses a folder', dialect: G, tree: { 'dir/a.md': 'A' }, call: ['MemoryDelete', { file: 'dir' }], error: /"dir" is a folder; delete removes one file at a time/, after: { 'dir/a.md': 'A' } },
  { name: 'MemoryDelete of a missing file is not_found', dialect: G, call: ['MemoryDelete', { file: 'a.md' }], error: /does not exist/, kind: 'not_found' },

  // paths: only relative, inside the folder, ordinary characters
  { name: 'an absolute path is outside the memories folder', dialect: G, call: ['MemoryView', { file: '/etc/passwd' }], error: /memory file "\/etc\/passwd" is outside the memories folder/, kind: 'denied' },
  { name: '.. is outside the memories folder', dialect: G, call: ['MemoryWrite', { file: '../../bob/memories/MEMORY.md', content: 'x' }], error: /is outside the memories folder/, kind: 'denied' },
  { name: '.. in the middle is refused too', dialect: G, tree: { 'a/x.md': 'x' }, call: ['MemoryView', { file: 'a/../a/x.md' }], error: /is outside the memories folder/ },
  { name: 'a NUL byte is refused', dialect: G, call: ['MemoryWrite', { file: 'a\u0000.md', content: 'x' }], error: /contains a NUL byte/, kind: 'invalid_args' },
  { name: 'a backslash is refused', dialect: G, call: ['MemoryWrite', { file: '..\\..\\x.md', content: 'x' }], error: /contains a backslash: separate folders with \//, kind: 'invalid_args' },
  { name: 'an empty path names no file', dialect: G, call: ['MemoryCreate', { file: '', content: 'x' }], error: /names no file/ },
  { name: 'a symlinked folder is never followed (write)', dialect: G, tree: { ...outsideLink, ...secret }, call: ['MemoryWrite', { file: 'link/secret.md', content: 'pwned' }], error: /"link" is a symlink; memory never follows links/, after: { '../../../outside/secret.md': 'bob\'s secret' } },
  { name: 'a symlinked folder is never followed (read)', dialect: G, tree: { ...outsideLink, ...secret }, call: ['MemoryView', { file: 'link/secret.md' }], error: /symlink/ },
  { name: 'a symlinked file is never read', dialect: G, tree: { 'MEMORY.md': { symlink: '../../../outside/secret.md' }, ...secret }, call: ['MemoryView', {}], error: /"MEMORY\.md" is a symlink/ },
  { name: 'a symlinked file is never written through', dialect: G, tree: { 'MEMORY.md': { symlink: '../../../outside/secret.md' }, ...secret }, call: ['MemoryWrite', { content: 'pwned' }], error: /symlink/, after: { '../../../outside/secret.md': 'bob\'s secret' } },
  { name: 'a symlinked file is never edited through', dialect: G, tree: { 'n.md': { symlink: '../../../outside/secret.md' }, ...secret }, call: ['MemoryStrReplace', { file: 'n.md', old: 'bob', new: 'x' }], error: /symlink/, after: { '../../../outside/secret.md': 'bob\'s secret' } },
  { name: 'a symlink is deleted as a link, its target kept', dialect: G, tree: { 'n.md': { symlink: '../../../outside/secret.md' }, ...secret }, call: ['MemoryDelete', { file: 'n.md' }], after: { 'n.md': null, '../../../outside/secret.md': 'bob\'s secret' } },
  { name: 'a rename into a symlinked folder is refused', dialect: G, tree: { 'a.md': 'A', ...outsideLink, ...secret }, call: ['MemoryRename', { from: 'a.md', to: 'link/a.md' }], error: /symlink/, after: { 'a.md': 'A', '../../../outside/a.md': null } },

  // the limits (docs/golem.md#memory)
  { name: `a file above ${MEMORY_LIMITS.fileBytes} bytes is refused, naming the limit`, dialect: G, call: ['MemoryWrite', { file: 'big.md', content: big }], error: new RegExp(`above the ${MEMORY_LIMITS.fileBytes}-byte limit for a memory file`), after: { 'big.md': null } },
  { name: 'an insert that would pass the file limit is refused', dialect: G, tree: { 'n.md': 'x'.repeat(MEMORY_LIMITS.fileBytes) }, call: ['MemoryInsert', { file: 'n.md', content: 'y', position: 0 }], error: /byte limit for a memory file/ },
  { name: 'a path deeper than the limit is refused', dialect: G, call: ['MemoryWrite', { file: `${'d/'.repeat(MEMORY_LIMITS.depth)}x.md`, content: 'x' }], error: new RegExp(`above the limit of ${MEMORY_LIMITS.depth}`) },
  { name: 'a path longer than the limit is refused', dialect: G, call: ['MemoryWrite', { file: `${'n'.repeat(MEMORY_LIMITS.pathChars)}.md`, content: 'x' }], error: new RegExp(`above the ${MEMORY_LIMITS.pathChars}-character limit`) },
  { name: 'the home\'s total is bounded', dialect: G, tree: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`f${i}.md`, 'x'.repeat(MEMORY_LIMITS.fileBytes)])), call: ['MemoryWrite', { file: 'one-more.md', content: 'y' }], error: new RegExp(`above the ${MEMORY_LIMITS.totalBytes}-byte limit for one user's memory`) },
  { name: 'replacing a file counts its old size out of the total', dialect: G, tree: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`f${i}.md`, 'x'.repeat(MEMORY_LIMITS.fileBytes)])), call: ['MemoryWrite', { file: 'f0.md', content: 'short' }], ok: { result: 'wrote f0.md' }, after: { 'f0.md': 'short' } },
  { name: 'the file count is bounded', dialect: G, tree: Object.fromEntries(Array.from({ length: MEMORY_LIMITS.files }, (_, i) => [`f${i}.md`, 'x'])), call: ['MemoryCreate', { file: 'one-more.md', content: 'y' }], error: new RegExp(`already holds ${MEMORY_LIMITS.files} files`) },
  { name: 'a temporary file\'s name is reserved', dialect: G, call: ['MemoryWrite', { file: 'x.core-agent.tmp', content: 'y' }], error: /reserved for temporary files/ },

  // Anthropic's memory tool (core-agent's dialect), the same store
  { name: 'memory view of a file is line-numbered', dialect: A, tree: { 'MEMORY.md': 'one\ntwo' }, call: ['memory', { command: 'view', path: '/memories/MEMORY.md' }], ok: { result: 'Here\'s the content of /memories/MEMORY.md with line numbers:\n     1\tone\n     2\ttwo' } },
  { name: 'memory view with view_range', dialect: A, tree: { 'n.md': 'a\nb\nc\nd' }, call: ['memory', { command: 'view', path: '/memories/n.md', view_range: [2, 3] }], ok: { result: 'Here\'s the content of /memories/n.md with line numbers:\n     2\tb\n     3\tc' } },
  { name: 'memory view_range to -1 is to the end', dialect: A, tree: { 'n.md': 'a\nb\nc' }, call: ['memory', { command: 'view', path: '/memories/n.md', view_range: [3, -1] }], ok: { result: 'Here\'s the content of /memories/n.md with line numbers:\n     3\tc' } },
  { name: 'memory view_range past the end is refused', dialect: A, tree: { 'n.md': 'a' }, call: ['memory', { command: 'view', path: '/memories/n.md', view_range: [2, 3] }], error: /Invalid `view_range` parameter: \[2, 3\]/, kind: 'invalid_args' },
  { name: 'memory view of /memories lists two levels', dialect: A, tree: { 'MEMORY.md': 'abc', 'people/bob.md': 'b', 'people/x/y/z.md': 'deep' }, call: ['memory', { command: 'view', path: '/memories' }], ok: { result: 'Here\'re the files and directories up to 2 levels deep in /memories, excluding hidden items:\n4\t/memories\n3\t/memories/MEMORY.md\n-\t/memories/people/\n1\t/memories/people/bob.md\n-\t/memories/people/x/' } },
  { name: 'memory view of a missing path', dialect: A, call: ['memory', { command: 'view', path: '/memories/none.md' }], error: /The path \/memories\/none\.md does not exist\. Please provide a valid path\./, kind: 'not_found' },
  { name: 'memory create', dialect: A, call: ['memory', { command: 'create', path: '/memories/n.md', file_text: 'hi' }], ok: { result: 'File created successfully at: /memories/n.md' }, after: { 'n.md': 'hi' } },
  { name: 'memory create refuses an existing file', dialect: A, tree: { 'n.md': 'keep' }, call: ['memory', { command: 'create', path: '/memories/n.md', file_text: 'lost' }], error: /already exists/, after: { 'n.md': 'keep' } },
  { name: 'memory create without file_text names the field', dialect: A, call: ['memory', { command: 'create', path: '/memories/n.md' }], error: /file_text is required for the create command/, kind: 'invalid_args' },
  { name: 'memory str_replace', dialect: A, tree: { 'n.md': 'tea' }, call: ['memory', { command: 'str_replace', path: '/memories/n.md', old_str: 'tea', new_str: 'coffee' }], ok: { result: 'The memory file has been edited.' }, after: { 'n.md': 'coffee' } },
  { name: 'memory str_replace with no hit', dialect: A, tree: { 'n.md': 'tea' }, call: ['memory', { command: 'str_replace', path: '/memories/n.md', old_str: 'milk', new_str: 'x' }], error: /No replacement was performed, old_str "milk" did not appear verbatim in \/memories\/n\.md\./ },
  { name: 'memory str_replace with two hits names their lines', dialect: A, tree: { 'n.md': 'a\nb\na' }, call: ['memory', { command: 'str_replace', path: '/memories/n.md', old_str: 'a', new_str: 'x' }], error: /Multiple occurrences \(2\) of old_str "a" in lines: \[1,3\]/, after: { 'n.md': 'a\nb\na' } },
  { name: 'memory insert after a line', dialect: A, tree: { 'n.md': 'one\nthree' }, call: ['memory', { command: 'insert', path: '/memories/n.md', insert_line: 1, insert_text: 'two' }], ok: { result: 'The file /memories/n.md has been edited.' }, after: { 'n.md': 'one\ntwo\nthree' } },
  { name: 'memory insert at line 0 is at the top', dialect: A, tree: { 'n.md': 'b' }, call: ['memory', { command: 'insert', path: '/memories/n.md', insert_line: 0, insert_text: 'a' }], after: { 'n.md': 'a\nb' } },
  { name: 'memory insert past the last line is refused', dialect: A, tree: { 'n.md': 'a\nb' }, call: ['memory', { command: 'insert', path: '/memories/n.md', insert_line: 3, insert_text: 'x' }], error: /Invalid `insert_line` parameter: 3\. It should be within the range of lines of the file: \[0, 2\]/ },
  { name: 'memory delete', dialect: A, tree: { 'n.md': 'x' }, call: ['memory', { command: 'delete', path: '/memories/n.md' }], ok: { result: 'Successfully deleted /memories/n.md' }, after: { 'n.md': null } },
  { name: 'memory rename', dialect: A, tree: { 'a.md': 'A' }, call: ['memory', { command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b/a.md' }], ok: { result: 'Successfully renamed /memories/a.md to /memories/b/a.md' }, after: { 'a.md': null, 'b/a.md': 'A' } },
  { name: 'memory: a path not under /memories is outside', dialect: A, call: ['memory', { command: 'view', path: '/etc/passwd' }], error: /is outside the memories folder: paths start with \/memories\//, kind: 'denied' },
  { name: 'memory: /memoriesX is not /memories', dialect: A, call: ['memory', { command: 'view', path: '/memoriesX/a' }], error: /outside the memories folder/ },
  { name: 'memory: /memories/../ is outside', dialect: A, call: ['memory', { command: 'create', path: '/memories/../users/bob/x.md', file_text: 'x' }], error: /outside the memories folder/ },
  { name: 'memory: a symlinked folder is never followed', dialect: A, tree: { ...outsideLink, ...secret }, call: ['memory', { command: 'view', path: '/memories/link/secret.md' }], error: /symlink/ },
  { name: 'memory: golem\'s names are not offered here', dialect: A, call: ['MemoryView', {}], error: /MemoryView is the golem dialect's name/, kind: 'unknown_tool' },
  { name: 'MemoryView: Anthropic\'s memory is not offered under golem', dialect: G, call: ['memory', { command: 'view', path: '/memories' }], error: /memory/, kind: 'unknown_tool' },
];
