/**
 * Calls that do not come from a model — `tools call`, `mcp serve` — appear in
 * `sessions show` when a session database is set (--session-db or
 * CORE_AGENT_SESSION_DB), one case a line; recorded-calls.test.ts runs each
 * through the built CLI with a SQLite file in a temp dir.
 */
export interface RecordedCallCase {
  name: string;
  via: 'tools call' | 'mcp serve';
  /** Each call: a tool and its arguments (tools call: one process per call, each its own session). */
  calls: Array<{ tool: string; args: Record<string, unknown> }>;
  /** How the database is named: the flag, or the variable. */
  db: 'flag' | 'env';
  /** Extra command-line arguments. */
  extra?: string[];
  /** The title each session gets. */
  title: string;
  /** What each call's tool_result says, in order. */
  results: Array<{ name: string; ok: boolean; failure?: string }>;
}

// One case a line (prettier would spread each over several).
// prettier-ignore
export const RECORDED_CALL_CASES: RecordedCallCase[] = [
  { name: 'tools call: a read, by --session-db', via: 'tools call', db: 'flag', calls: [{ tool: 'read_file', args: { path: 'notes.txt' } }], title: 'tools call read_file', results: [{ name: 'read_file', ok: true }] },
  { name: 'tools call: a read, by CORE_AGENT_SESSION_DB', via: 'tools call', db: 'env', calls: [{ tool: 'list_dir', args: { path: '.' } }], title: 'tools call list_dir', results: [{ name: 'list_dir', ok: true }] },
  { name: 'tools call: refused by the gate', via: 'tools call', db: 'flag', calls: [{ tool: 'read_file', args: { path: 'secret/key.pem' } }], title: 'tools call read_file', results: [{ name: 'read_file', ok: false, failure: 'denied' }] },
  { name: 'tools call: bad arguments', via: 'tools call', db: 'flag', calls: [{ tool: 'read_file', args: { path: 7 } }], title: 'tools call read_file', results: [{ name: 'read_file', ok: false, failure: 'invalid_args' }] },
  { name: 'tools call: a write, with --yolo', via: 'tools call', db: 'flag', extra: ['--yolo'], calls: [{ tool: 'write_file', args: { path: 'out/a.txt', content: 'x' } }], title: 'tools call write_file', results: [{ name: 'write_file', ok: true }] },
  { name: 'mcp serve: two calls, one session', via: 'mcp serve', db: 'flag', calls: [{ tool: 'read_file', args: { path: 'notes.txt' } }, { tool: 'list_dir', args: { path: '.' } }], title: 'mcp serve', results: [{ name: 'read_file', ok: true }, { name: 'list_dir', ok: true }] },
  { name: 'mcp serve: by CORE_AGENT_SESSION_DB', via: 'mcp serve', db: 'env', calls: [{ tool: 'read_file', args: { path: 'notes.txt' } }], title: 'mcp serve', results: [{ name: 'read_file', ok: true }] },
  { name: 'mcp serve: a refusal is recorded too', via: 'mcp serve', db: 'flag', calls: [{ tool: 'read_file', args: { path: 'secret/key.pem' } }, { tool: 'read_file', args: { path: 'notes.txt' } }], title: 'mcp serve', results: [{ name: 'read_file', ok: false, failure: 'denied' }, { name: 'read_file', ok: true }] },
];
