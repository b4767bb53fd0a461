import type { PromptAnswer } from '../../src/permissions/gate.ts';
import type { Tree } from '../helpers/workspace.ts';

/**
 * The approval dialog for each kind of call: the files before, the call, and
 * lines the dialog must show (each a whole line of the dialog). Edits show a
 * unified diff of every file they would change; other calls their arguments.
 */
export interface DialogCase {
  name: string;
  tree: Tree;
  tool: string;
  args: Record<string, unknown>;
  shows: string[];
  /** Lines that must not be there (an edit's content is the diff, not repeated as an argument). */
  hides?: string[];
}

const PATCH = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

export const DIALOG_CASES: DialogCase[] = [
  {
    name: 'write_file creating a file',
    tree: {},
    tool: 'write_file',
    args: { path: 'new.txt', content: 'hello\n' },
    shows: ['  --- /dev/null', '  +++ b/new.txt', '  +hello'],
    hides: ['  content: hello'],
  },
  {
    name: 'write_file replacing a file',
    tree: { 'a.txt': 'old\nsame\n' },
    tool: 'write_file',
    args: { path: 'a.txt', content: 'new\nsame\n' },
    shows: ['  --- a/a.txt', '  +++ b/a.txt', '  -old', '  +new', '   same'],
  },
  {
    name: 'write_file in a subdirectory',
    tree: { sub: null },
    tool: 'write_file',
    args: { path: 'sub/x.txt', content: 'x\n' },
    shows: ['  path: sub/x.txt', '  +++ b/sub/x.txt'],
  },
  {
    name: 'write_file with the same content',
    tree: { 'a.txt': 'same\n' },
    tool: 'write_file',
    args: { path: 'a.txt', content: 'same\n' },
    shows: ['  --- a/a.txt +++ b/a.txt (no change)'],
  },
  {
    name: 'edit_file',
    tree: { 'c.yaml': 'port: 80\nhost: h\n' },
    tool: 'edit_file',
    args: { path: 'c.yaml', old_string: 'port: 80', new_string: 'port: 8080' },
    shows: ['  -port: 80', '  +port: 8080', '   host: h'],
    hides: ['  old_string: port: 80'],
  },
  {
    name: 'edit_file replace_all',
    tree: { 'r.txt': 'a\nb\na\n' },
    tool: 'edit_file',
    args: { path: 'r.txt', old_string: 'a', new_string: 'z', replace_all: true },
    shows: ['  -a', '  +z', '   b', '  replace_all: true'],
  },
  {
    name: 'edit_file on a CRLF file',
    tree: { 'w.txt': 'one\r\ntwo\r\n' },
    tool: 'edit_file',
    args: { path: 'w.txt', old_string: 'one', new_string: 'ONE' },
    shows: ['  -one', '  +ONE'],
  },
  {
    name: 'edit_file whose text is absent: the arguments, no diff',
    tree: { 'c.yaml': 'port: 80\n' },
    tool: 'edit_file',
    args: { path: 'c.yaml', old_string: 'nope', new_string: 'x' },
    shows: ['  old_string: nope', '  new_string: x'],
    hides: ['  --- a/c.yaml'],
  },
  {
    name: 'apply_patch updating one file and adding another',
    tree: { 'a.txt': 'one\ntwo\n' },
    tool: 'apply_patch',
    args: { patch: PATCH('*** Update File: a.txt', '@@', '-one', '+ONE', '*** Add File: b.txt', '+fresh') },
    shows: ['  --- a/a.txt', '  +++ b/a.txt', '  -one', '  +ONE', '  +++ b/b.txt', '  +fresh'],
    hides: ['  patch: *** Begin Patch'],
  },
  {
    name: 'apply_patch deleting a file',
    tree: { 'gone.txt': 'bye\n' },
    tool: 'apply_patch',
    args: { patch: PATCH('*** Delete File: gone.txt') },
    shows: ['  --- a/gone.txt', '  +++ /dev/null', '  -bye'],
  },
  {
    name: 'apply_patch moving a file',
    tree: { 'old.txt': 'keep\n' },
    tool: 'apply_patch',
    args: { patch: PATCH('*** Update File: old.txt', '*** Move to: moved.txt', '@@', '-keep', '+kept') },
    shows: ['  --- a/old.txt', '  +++ b/moved.txt', '  +kept'],
  },
  {
    name: 'apply_patch that would fail: the patch as written',
    tree: {},
    tool: 'apply_patch',
    args: { patch: PATCH('*** Update File: missing.txt', '@@', '-x', '+y') },
    shows: ['  patch: *** Begin Patch', '    *** Update File: missing.txt'],
  },
  {
    name: 'bash: the command in full',
    tree: {},
    tool: 'bash',
    args: { command: 'echo hi > out.txt' },
    shows: ['? bash asks for approval', '  command: echo hi > out.txt'],
  },
  {
    name: 'bash: a multi-line command, every line',
    tree: {},
    tool: 'bash',
    args: { command: 'set -e\necho one\necho two' },
    shows: ['  command: set -e', '    echo one', '    echo two'],
  },
  {
    name: 'bash: an escape sequence in the command is shown, not sent to the terminal',
    tree: {},
    tool: 'bash',
    args: { command: 'echo ok\x1b[1A\x1b[2K\rrm -rf x' },
    shows: ['  command: echo ok\\x1b[1A\\x1b[2K\\x0drm -rf x'],
  },
  {
    name: 'write_file content with a carriage return mid-line',
    tree: {},
    tool: 'write_file',
    args: { path: 'cr.txt', content: 'safe\rEVIL\n' },
    shows: ['  +safe\\x0dEVIL'],
  },
  {
    name: 'delete_file: the path',
    tree: { 'd.txt': 'x' },
    tool: 'delete_file',
    args: { path: 'd.txt' },
    shows: ['? delete_file asks for approval', '  path: d.txt'],
  },
];

/** What each reply to "Allow …?" means ('note': the note is asked for next; null: asked again). */
export const REPLY_CASES: Array<[reply: string, answer: PromptAnswer | 'note' | null]> = [
  ['y', 'once'],
  ['Y', 'once'],
  ['yes', 'once'],
  [' once ', 'once'],
  ['a', 'session'],
  ['always', 'session'],
  ['n', 'deny'],
  ['no', 'deny'],
  ['deny', 'deny'],
  ['', 'deny'],
  ['m', 'note'],
  ['note', 'note'],
  ['m use port 8080 instead', { deny: 'use port 8080 instead' }],
  ['note   not on a Friday ', { deny: 'not on a Friday' }],
  ['maybe', null],
  ['x', null],
  ['yy', null],
];
