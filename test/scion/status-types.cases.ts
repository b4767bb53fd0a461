/**
 * sciontool_status arguments the model may get wrong: each is refused before
 * sciontool runs, with an error naming the field (and, for status_type, the
 * four valid types). One case a line: [what is sent, what the error must say].
 */
export const STATUS_REFUSAL_CASES: ReadonlyArray<readonly [args: unknown, error: RegExp]> = [
  [{ status_type: 'done', message: 'x' }, /status_type must be one of "ask_user", "blocked", "task_completed", "limits_exceeded"/],
  [{ status_type: 'TASK_COMPLETED', message: 'x' }, /status_type must be one of .*"task_completed"/],
  [{ status_type: 'task-completed', message: 'x' }, /status_type must be one of/],
  [{ status_type: 'waiting_for_input', message: 'x' }, /status_type must be one of/],
  [{ status_type: 'completed', message: 'x' }, /status_type must be one of/],
  [{ status_type: '', message: 'x' }, /status_type must be one of/],
  [{ status_type: ' ask_user', message: 'x' }, /status_type must be one of/],
  [{ status_type: 'x'.repeat(10_000), message: 'x' }, /status_type must be one of/],
  [{ status_type: 3, message: 'x' }, /status_type must be one of/],
  [{ status_type: null, message: 'x' }, /status_type/],
  [{ message: 'x' }, /status_type must be one of .*, not nothing/],
  [{ status_type: 'blocked' }, /message is required/],
  [{ status_type: 'blocked', message: '' }, /message/],
  [{ status_type: 'blocked', message: '   ' }, /message/],
  [{ status_type: 'blocked', message: 'x'.repeat(2001) }, /message/],
  [{ status_type: 'blocked', message: 'x', extra: 1 }, /extra/],
];
