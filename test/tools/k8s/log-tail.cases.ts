/**
 * What k8s_logs keeps of a container log larger than its bounds: the END (the crash, the
 * last error), cut at a line boundary, with what was dropped from the start. The fake API
 * (log-tail.test.ts) applies tailLines, sinceSeconds, previous and limitBytes as the
 * kubelet does: tail from the end of the file, then skip lines older than now − since,
 * then write only the FIRST limitBytes bytes, mid-line and mid-character alike.
 */

/** One line of the fake container's log file: how many seconds ago it was written, and its text (no "\n"). */
export interface LogLine {
  age: number;
  text: string;
  /** The line has no "\n" (a process that died mid-line): only the last one may. */
  unterminated?: true;
}

export interface LogTailCase {
  what: string;
  log: LogLine[];
  /** The container's previous run (previous: true); none: the API answers 400. */
  previous?: LogLine[];
  /** k8s_logs's arguments besides pod. */
  args: Record<string, unknown>;
  /** tool_output.per_tool.k8s_logs. */
  caps?: { max_bytes?: number; max_lines?: number };
  /** The fake API stops this many bytes short of limitBytes when it cuts (the docs allow "slightly less"). */
  shortBy?: number;
  expect: {
    /** The kept log ends with this ('' for an empty log). */
    endsWith: string;
    truncated: boolean;
    /** How the dropped part is given: counted exactly (the whole selection was read) or as lower bounds. */
    dropped?: 'exact' | 'at_least';
    /** The first kept line is the end of a line longer than the bound. */
    midLine?: true;
    /** The last line is longer than one read: only its head could be shown. */
    endMissing?: true;
    /** Requests made of the log endpoint. */
    requests: number;
  };
}

const FATAL = 'FATAL checkout: cannot reach the payments database after 5 attempts; exiting with code 1';

/** `n` lines of `width` characters, the oldest `n` seconds ago, numbered so a cut shows where it fell. */
function lines(n: number, width: number, fill = 'x', start = 0): LogLine[] {
  return Array.from({ length: n }, (_, i) => {
    const head = `line ${start + i} `;
    return { age: n - i, text: head + fill.repeat(Math.max(0, Math.ceil((width - head.length) / fill.length))) };
  });
}

const crash = (age = 0): LogLine => ({ age, text: FATAL });

export const LOG_TAIL_CASES: readonly LogTailCase[] = [
  {
    what: 'a log under the cap is shown whole',
    log: [...lines(50, 40), crash()],
    args: {},
    expect: { endsWith: `${FATAL}\n`, truncated: false, requests: 1 },
  },
  {
    what: 'tail_lines 2000 over the cap keeps the last lines, the crash last',
    log: [...lines(1999, 100), crash()],
    args: { tail_lines: 2000 },
    expect: { endsWith: `${FATAL}\n`, truncated: true, dropped: 'exact', requests: 1 },
  },
  {
    what: 'the last line alone longer than the cap keeps its end',
    log: [...lines(10, 40), { age: 0, text: `${'y'.repeat(100 * 1024)} END-OF-LONG-LINE` }],
    args: {},
    expect: { endsWith: 'END-OF-LONG-LINE\n', truncated: true, dropped: 'exact', midLine: true, requests: 1 },
  },
  {
    what: 'multi-byte UTF-8 lines over the cap are cut between lines',
    log: [...lines(3000, 41, 'é日😀'), { age: 0, text: `${FATAL} — 致命的 😱` }],
    args: { tail_lines: 3000 },
    expect: { endsWith: `${FATAL} — 致命的 😱\n`, truncated: true, dropped: 'exact', requests: 1 },
  },
  {
    what: 'one multi-byte line longer than the cap is cut between characters',
    log: [{ age: 1, text: `${'😀é'.repeat(20_000)}日本の終わり` }],
    args: {},
    expect: { endsWith: '日本の終わり\n', truncated: true, dropped: 'exact', midLine: true, requests: 1 },
  },
  {
    what: 'since_seconds over the cap keeps the window’s end',
    log: [...lines(5000, 60), crash()],
    args: { since_seconds: 3000 },
    expect: { endsWith: `${FATAL}\n`, truncated: true, dropped: 'exact', requests: 1 },
  },
  {
    what: 'since_seconds with tail_lines: both apply, the end kept',
    log: [...lines(5000, 60), crash()],
    args: { since_seconds: 4000, tail_lines: 2500 },
    expect: { endsWith: `${FATAL}\n`, truncated: true, dropped: 'exact', requests: 1 },
  },
  {
    what: 'previous: true reads the crashed run, its end kept',
    log: lines(20, 40, 'n'),
    previous: [...lines(2999, 80, 'p'), crash(0)],
    args: { previous: true, tail_lines: 3000 },
    expect: { endsWith: `${FATAL}\n`, truncated: true, dropped: 'exact', requests: 1 },
  },
  {
    what: 'max_bytes given bounds the kept end',
    log: [...lines(199, 100), crash()],
    args: { max_bytes: 2048 },
    expect: { endsWith: `${FATAL}\n`, truncated: true, dropped: 'exact', requests: 1 },
  },
  {
    what: 'an empty log',
    log: [],
    args: { tail_lines: 500 },
    expect: { endsWith: '', truncated: false, requests: 1 },
  },
  {
    what: 'a last line without a newline (the process died mid-line) is kept',
    log: [...lines(3000, 60), { age: 0, text: 'panic: runtime error: index out of range', unterminated: true }],
    args: { tail_lines: 3000 },
    expect: { endsWith: 'panic: runtime error: index out of range', truncated: true, dropped: 'exact', requests: 1 },
  },
  {
    what: 'a selection larger than one read: fewer lines are read, the end kept',
    log: [...lines(9999, 300), crash()],
    args: { tail_lines: 10_000 },
    expect: { endsWith: `${FATAL}\n`, truncated: true, dropped: 'at_least', requests: 2 },
  },
  {
    what: 'a since_seconds window larger than one read: fewer lines are read, the end kept',
    log: [...lines(30_000, 100, 'é'), crash()],
    args: { since_seconds: 1_000_000 },
    expect: { endsWith: `${FATAL}\n`, truncated: true, dropped: 'at_least', requests: 2 },
  },
  {
    what: 'long lines at the end: a next read sized by the longest line reaches the end',
    log: [...lines(4000, 100), ...lines(40, 200 * 1024, 'z', 4000), crash()],
    args: { tail_lines: 5000 },
    expect: { endsWith: `${FATAL}\n`, truncated: true, dropped: 'at_least', requests: 3 },
  },
  {
    what: 'a last line longer than one read: its head, and the end said to be missing',
    log: [...lines(5, 40), { age: 0, text: `HEAD-OF-HUGE ${'w'.repeat(2 * 1024 * 1024)}` }],
    args: {},
    expect: { endsWith: 'w', truncated: true, endMissing: true, requests: 3 },
  },
  {
    what: 'an API that cuts slightly short of limitBytes is still read to the end',
    log: [...lines(9999, 300), crash()],
    args: { tail_lines: 10_000 },
    shortBy: 100,
    expect: { endsWith: `${FATAL}\n`, truncated: true, dropped: 'at_least', requests: 2 },
  },
  {
    what: 'an output cap below max_bytes: the end fitted to the cap, not cut again',
    log: [...lines(999, 100), crash()],
    args: { tail_lines: 1000, max_bytes: 65_536 },
    caps: { max_bytes: 8192 },
    expect: { endsWith: `${FATAL}\n`, truncated: true, dropped: 'exact', requests: 1 },
  },
  {
    what: 'an output cap of lines: the last lines kept, not the first',
    log: [...lines(4999, 10), crash()],
    args: { tail_lines: 5000 },
    caps: { max_lines: 100 },
    expect: { endsWith: `${FATAL}\n`, truncated: true, dropped: 'exact', requests: 1 },
  },
  {
    what: 'lines that grow in JSON (quotes, backslashes, control characters) fit the cap',
    log: [...lines(2000, 60, '"\\\u0001'), crash()],
    args: { tail_lines: 2001, max_bytes: 16_384 },
    caps: { max_bytes: 16_384 },
    expect: { endsWith: `${FATAL}\n`, truncated: true, dropped: 'exact', requests: 1 },
  },
];
