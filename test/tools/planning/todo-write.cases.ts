/**
 * golem's TodoWrite (`--dialect golem`, a face over update_plan), one call a line: `ok` is the
 * result's sentence and `steps` the checklist it leaves; `error` holds every pattern the one
 * error must match — each problem of the list named in the same message, not the first only.
 */
export interface TodoWriteCase {
  name: string;
  args: unknown;
  ok?: string;
  steps?: { step: string; status: string }[];
  error?: RegExp[];
}

export const TODO_WRITE_CASES: TodoWriteCase[] = [
  {
    name: 'three items: golem sentence, the list replaced',
    args: {
      todos: [
        { content: 'a', status: 'completed' },
        { content: 'b', status: 'in_progress' },
        { content: 'c', status: 'pending' },
      ],
    },
    ok: '3 todos recorded',
    steps: [
      { step: 'a', status: 'completed' },
      { step: 'b', status: 'in_progress' },
      { step: 'c', status: 'pending' },
    ],
  },
  {
    name: 'one item',
    args: { todos: [{ content: 'only', status: 'pending' }] },
    ok: '1 todos recorded',
    steps: [{ step: 'only', status: 'pending' }],
  },
  {
    name: 'a missing status is pending (as golem)',
    args: { todos: [{ content: 'x' }] },
    ok: '1 todos recorded',
    steps: [{ step: 'x', status: 'pending' }],
  },
  {
    name: 'all completed',
    args: {
      todos: [
        { content: 'x', status: 'completed' },
        { content: 'y', status: 'completed' },
      ],
    },
    ok: '2 todos recorded',
  },
  {
    name: 'two bad statuses: both named in one error',
    args: {
      todos: [
        { content: 'a', status: 'done' },
        { content: 'b', status: 'pending' },
        { content: 'c', status: 'doing' },
      ],
    },
    error: [/todos\[0\]\.status/, /"done"/, /todos\[2\]\.status/, /"doing"/],
  },
  {
    name: 'a bad status and an empty content: both named',
    args: {
      todos: [
        { content: '', status: 'pending' },
        { content: 'b', status: 'finished' },
      ],
    },
    error: [/todos\[0\]\.content is empty/, /todos\[1\]\.status/],
  },
  {
    name: 'Codex field names are refused in golem words',
    args: { todos: [{ step: 'a', status: 'pending' }] },
    error: [/unknown key in todos\[0\] "step"/, /todos\[0\]\.content is required/],
  },
  { name: 'todos missing', args: {}, error: [/todos is required/] },
  { name: 'an empty list', args: { todos: [] }, error: [/todos/] },
  {
    name: 'more than 50 items',
    args: { todos: Array.from({ length: 51 }, (_, i) => ({ content: `s${i}`, status: 'pending' })) },
    error: [/todos has 51 items.*50/],
  },
  { name: 'a status of the wrong type', args: { todos: [{ content: 'a', status: 3 }] }, error: [/todos\[0\]\.status/] },
  {
    name: 'two in_progress: refused here (golem accepts), both named',
    args: {
      todos: [
        { content: 'first', status: 'in_progress' },
        { content: 'second', status: 'in_progress' },
      ],
    },
    error: [/2 steps are in_progress/, /"first"/, /"second"/, /at most one may be/],
  },
  { name: 'an unknown top-level argument', args: { todos: [{ content: 'a' }], merge: true }, error: [/unknown argument "merge"/] },
];
