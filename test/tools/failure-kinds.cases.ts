// Every way a call can fail, and the kind it must carry as data (src/core/failure.ts).
// One line per case; failure-kinds.test.ts runs each through a real runtime's dispatcher.
// `throws` calls the test tool `throws` (failure-kinds.test.ts), which fails in the named way.
import type { FailureKind } from '../../src/core/failure.ts';

export interface FailureCase {
  /** What fails, in words (the test's title). */
  what: string;
  tool: string;
  args: unknown;
  kind: FailureKind;
  /** Permission mode (default yolo: only the case's own refusal stands in the way). */
  mode?: 'ask' | 'plan' | 'accept-edits' | 'yolo';
  /** A `permissions:` block for the recipe. */
  permissions?: string;
  /** The caller cancels the call before it starts. */
  cancel?: boolean;
}

const poll = (tool: string, args: Record<string, unknown>) => ({
  tool,
  args,
  expect_contains: 'never',
  timeout_seconds: 2,
  interval_seconds: 1,
});

export const FAILURE_CASES: readonly FailureCase[] = [
  // unknown_tool: no tool by that name
  { what: 'a name no tool has', tool: 'no_such_tool', args: {}, kind: 'unknown_tool' },
  { what: 'a typo of a real name', tool: 'read_fil', args: { path: 'a.txt' }, kind: 'unknown_tool' },
  { what: 'a name longer than any tool could have', tool: 'x'.repeat(300), args: {}, kind: 'unknown_tool' },
  { what: 'wait_and_verify polling a tool that does not exist', tool: 'wait_and_verify', args: poll('nope', {}), kind: 'unknown_tool' },
  // invalid_args: not JSON, not an object, or the schema says no
  { what: 'arguments that are not JSON', tool: 'read_file', args: '{"path": ', kind: 'invalid_args' },
  { what: 'arguments that are an array', tool: 'read_file', args: ['a.txt'], kind: 'invalid_args' },
  { what: 'arguments that are a number', tool: 'read_file', args: 7, kind: 'invalid_args' },
  { what: 'a required argument missing', tool: 'read_file', args: {}, kind: 'invalid_args' },
  { what: 'an argument of the wrong type', tool: 'read_file', args: { path: 3 }, kind: 'invalid_args' },
  { what: 'an argument the tool does not take', tool: 'read_file', args: { path: 'a.txt', colour: 'red' }, kind: 'invalid_args' },
  {
    what: 'an argument and its alias both given',
    tool: 'wait_and_verify',
    args: { tool: 'read_file', args: {}, arguments: {}, expect_contains: 'x' },
    kind: 'invalid_args',
  },
  { what: 'a path with a NUL byte', tool: 'read_file', args: { path: 'a\u0000b' }, kind: 'invalid_args' },
  { what: 'wait_and_verify without a condition', tool: 'wait_and_verify', args: { tool: 'read_file' }, kind: 'invalid_args' },
  {
    what: 'a poll whose arguments fail the polled tool’s schema (fails at once)',
    tool: 'wait_and_verify',
    args: poll('read_file', { path: 5 }),
    kind: 'invalid_args',
  },
  // denied: the gate, path_scope, a deny rule, plan-first, a precheck
  {
    what: 'a write in ask mode with nobody to ask',
    tool: 'write_file',
    args: { path: 'n.txt', content: 'x' },
    mode: 'ask',
    kind: 'denied',
  },
  { what: 'a write in plan mode', tool: 'write_file', args: { path: 'n.txt', content: 'x' }, mode: 'plan', kind: 'denied' },
  { what: 'a path outside path_scope', tool: 'read_file', args: { path: '/etc/hostname' }, kind: 'denied' },
  { what: 'a path that climbs out of the workspace', tool: 'read_file', args: { path: '../../../etc/hostname' }, kind: 'denied' },
  {
    what: 'a deny rule on the path',
    tool: 'read_file',
    args: { path: 'secret.txt' },
    permissions: '  deny: ["tool.read_file:secret.txt"]',
    kind: 'denied',
  },
  { what: 'the bash denylist (a precheck, in every mode)', tool: 'bash', args: { command: 'rm -rf /' }, kind: 'denied' },
  {
    what: 'a poll the gate refuses (fails at once, as denied)',
    tool: 'wait_and_verify',
    args: poll('read_file', { path: '/etc/hostname' }),
    kind: 'denied',
  },
  // not_found: the thing the call names is not there
  { what: 'read_file of a missing file', tool: 'read_file', args: { path: 'missing.txt' }, kind: 'not_found' },
  { what: 'a path through a file', tool: 'read_file', args: { path: 'a.txt/inner' }, kind: 'not_found' },
  {
    what: 'edit_file of a missing file',
    tool: 'edit_file',
    args: { path: 'missing.txt', old_string: 'a', new_string: 'b' },
    kind: 'not_found',
  },
  { what: 'list_dir of a missing directory', tool: 'list_dir', args: { path: 'nodir' }, kind: 'not_found' },
  { what: 'glob under a missing directory', tool: 'glob', args: { pattern: '*.txt', path: 'nodir' }, kind: 'not_found' },
  { what: 'grep under a missing path', tool: 'grep', args: { pattern: 'x', path: 'nodir' }, kind: 'not_found' },
  {
    what: 'read_many_files under a missing directory',
    tool: 'read_many_files',
    args: { pattern: '*.txt', path: 'nodir' },
    kind: 'not_found',
  },
  { what: 'json_query of a missing file', tool: 'json_query', args: { path: 'missing.json', expression: '.' }, kind: 'not_found' },
  { what: 'a todo step that does not exist', tool: 'todo', args: { action: 'set_status', id: 99, status: 'completed' }, kind: 'not_found' },
  { what: 'a terminal that does not exist', tool: 'terminal_output', args: { terminal_id: 't-nope' }, kind: 'not_found' },
  { what: 'a tool’s ENOENT from the system', tool: 'throws', args: { how: 'enoent' }, kind: 'not_found' },
  { what: 'a tool’s ToolError saying not_found', tool: 'throws', args: { how: 'tool_error_not_found' }, kind: 'not_found' },
  // deadline and canceled: the call's signal
  { what: 'a tool that runs past its deadline', tool: 'hangs', args: {}, kind: 'deadline' },
  { what: 'a tool that hits its own timeout', tool: 'throws', args: { how: 'own_timeout' }, kind: 'deadline' },
  { what: 'a call the caller cancels', tool: 'hangs', args: {}, cancel: true, kind: 'canceled' },
  { what: 'a tool that throws its own AbortError', tool: 'throws', args: { how: 'abort' }, kind: 'canceled' },
  // tool_error: the tool ran and failed with a message for the model
  {
    what: 'edit_file whose old_string is not in the file',
    tool: 'edit_file',
    args: { path: 'a.txt', old_string: 'zzz', new_string: 'b' },
    kind: 'tool_error',
  },
  {
    what: 'wait_and_verify polling a write tool',
    tool: 'wait_and_verify',
    args: poll('write_file', { path: 'a.txt', content: '' }),
    kind: 'tool_error',
  },
  { what: 'a tool’s plain ToolError', tool: 'throws', args: { how: 'tool_error' }, kind: 'tool_error' },
  { what: 'a known system failure that is not a missing thing', tool: 'throws', args: { how: 'econnrefused' }, kind: 'tool_error' },
  // internal: a failure nobody foresaw
  { what: 'a tool that throws a bare Error', tool: 'throws', args: { how: 'bug' }, kind: 'internal' },
  { what: 'a tool that throws a non-Error', tool: 'throws', args: { how: 'string' }, kind: 'internal' },
];
