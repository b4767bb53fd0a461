// The attach daemon's wire shapes, one request a line: the status and the JSON
// body's field names. Transcribed from the Go original's documented contract
// (go-steer/core-agent docs/site/src/content/docs/reference/attach-http.md) and
// its conformance fixtures (pkg/attach/testdata/conformance/<fixture>), named on
// each line; field names exactly as there (`sessionID`, not `session_id`).
// Paths: {sid} is a session that has run one turn, {fresh} a new session made for
// the line (DELETE), {app} the app segment of the qualified path grammar; {self} in a
// header is the daemon's own origin (http://127.0.0.1:PORT).

export interface WireCase {
  name: string;
  method: 'GET' | 'POST' | 'DELETE' | 'PUT';
  path: string;
  /** A JSON value, or a string sent as it is. */
  body?: unknown;
  headers?: Record<string, string>;
  status: number;
  /** The response body's keys, exactly (optional ones in `optional`). */
  fields?: readonly string[];
  optional?: readonly string[];
  /** For a list: the keys of each item under this key. */
  items?: { key: string; fields: readonly string[]; optional?: readonly string[] };
  /** A response header the line pins. */
  header?: [string, string];
  /** For a refusal: the field its error names. */
  errorField?: string;
  fixture?: string;
}

const ERROR = ['error'] as const;
const FIELD_ERROR = ['error', 'field'] as const;
const SESSION_ROW = ['app', 'user', 'sessionID', 'has_event_log', 'status', 'last_touched_at'] as const;
const INTERRUPT = ['interrupted', 'paused', 'running_subagents', 'stopped_subagents', 'session'] as const;

export const WIRE_CASES: readonly WireCase[] = [
  { name: 'whoami', method: 'GET', path: '/whoami', status: 200, fields: ['identity', 'admin', 'source'], fixture: 'rest-whoami-v1.json' },
  {
    name: 'create a session',
    method: 'POST',
    path: '/sessions',
    status: 201,
    fields: ['app', 'user', 'sessionID', 'url'],
    fixture: 'rest-create-session-v1.json',
  },
  {
    name: 'list sessions',
    method: 'GET',
    path: '/sessions',
    status: 200,
    fields: ['sessions'],
    items: { key: 'sessions', fields: SESSION_ROW, optional: ['title'] },
    fixture: 'rest-sessions-list-v2.json',
  },
  {
    name: 'inject',
    method: 'POST',
    path: '/sessions/{sid}/inject',
    body: { message: 'and again' },
    status: 200,
    fields: ['injected', 'session', 'woke', 'prompt_id'],
    fixture: 'rest-inject-v2.json',
  },
  {
    name: 'inject, qualified path',
    method: 'POST',
    path: '/sessions/{app}/{sid}/inject',
    body: { message: 'once more' },
    status: 200,
    fields: ['injected', 'session', 'woke', 'prompt_id'],
    fixture: 'rest-inject-v2.json',
  },
  {
    name: 'wake with a prompt',
    method: 'POST',
    path: '/sessions/{sid}/wake',
    body: { prompt: 'rescan' },
    status: 200,
    fields: ['woken', 'prompt', 'prompt_id'],
    fixture: 'rest-wake-v1.json',
  },
  {
    name: 'wake, no body',
    method: 'POST',
    path: '/sessions/{sid}/wake',
    status: 200,
    fields: ['woken', 'prompt'],
    fixture: 'rest-wake-v1.json',
  },
  {
    name: 'wake a target: not supported',
    method: 'POST',
    path: '/sessions/{sid}/wake',
    body: { target: 'sub' },
    status: 501,
    fields: FIELD_ERROR,
    errorField: 'target',
  },
  {
    name: 'interrupt, idle',
    method: 'POST',
    path: '/sessions/{fresh}/interrupt',
    status: 200,
    fields: INTERRUPT,
    header: ['x-interrupted', 'nothing-in-flight'],
  },
  {
    name: 'interrupt, no hold',
    method: 'POST',
    path: '/sessions/{fresh}/interrupt',
    body: { hold: false },
    status: 200,
    fields: INTERRUPT,
  },
  {
    name: 'interrupt, a bad field',
    method: 'POST',
    path: '/sessions/{sid}/interrupt',
    body: { hold: 'yes' },
    status: 400,
    fields: FIELD_ERROR,
    errorField: 'hold',
  },
  {
    name: 'respond to an unknown prompt',
    method: 'POST',
    path: '/sessions/{sid}/perms/respond',
    body: { id: 'p-1', decision: 'allow' },
    status: 404,
    fields: FIELD_ERROR,
    errorField: 'id',
  },
  {
    name: 'respond with an unknown decision',
    method: 'POST',
    path: '/sessions/{sid}/perms/respond',
    body: { id: 'p-1', decision: 'maybe' },
    status: 400,
    fields: FIELD_ERROR,
    errorField: 'decision',
  },
  {
    name: 'respond without an id',
    method: 'POST',
    path: '/sessions/{sid}/perms/respond',
    body: { decision: 'deny' },
    status: 400,
    fields: FIELD_ERROR,
    errorField: 'id',
  },
  {
    name: 'inject an empty message',
    method: 'POST',
    path: '/sessions/{sid}/inject',
    body: { message: '  ' },
    status: 400,
    fields: FIELD_ERROR,
    errorField: 'message',
  },
  {
    name: 'inject without a message',
    method: 'POST',
    path: '/sessions/{sid}/inject',
    status: 400,
    fields: FIELD_ERROR,
    errorField: 'message',
  },
  {
    name: 'inject an unknown field',
    method: 'POST',
    path: '/sessions/{sid}/inject',
    body: { message: 'x', session_id: 'y' },
    status: 400,
    fields: FIELD_ERROR,
    errorField: '(body)',
  },
  {
    name: 'inject a message over the cap',
    method: 'POST',
    path: '/sessions/{sid}/inject',
    body: { message: 'x'.repeat(7000) },
    status: 400,
    fields: FIELD_ERROR,
    errorField: 'message',
  },
  {
    name: 'inject a body over 8 KiB',
    method: 'POST',
    path: '/sessions/{sid}/inject',
    body: { message: 'x'.repeat(9000) },
    status: 413,
    fields: ERROR,
  },
  { name: 'inject malformed JSON', method: 'POST', path: '/sessions/{sid}/inject', body: '{"message": ', status: 400, fields: ERROR },
  {
    name: 'inject to an unknown session',
    method: 'POST',
    path: '/sessions/s-nope/inject',
    body: { message: 'x' },
    status: 404,
    fields: ERROR,
  },
  {
    name: 'a write without JSON content type',
    method: 'POST',
    path: '/sessions/{sid}/inject',
    body: '{"message":"x"}',
    headers: { 'content-type': 'text/plain' },
    status: 415,
    fields: ERROR,
  },
  {
    name: 'a write from a foreign origin',
    method: 'POST',
    path: '/sessions/{sid}/inject',
    body: { message: 'x' },
    headers: { origin: 'https://evil.example' },
    status: 403,
    fields: FIELD_ERROR,
    errorField: 'Origin',
  },
  // The Go original let any loopback page write; a page on another local port is another
  // site (a dev server, a downloaded file's server), so only the daemon's own origin may.
  {
    name: 'a write from a loopback page on another port',
    method: 'POST',
    path: '/sessions/{sid}/wake',
    headers: { origin: 'http://localhost:3000' },
    status: 403,
    fields: FIELD_ERROR,
    errorField: 'Origin',
  },
  {
    name: "a write from the daemon's own origin",
    method: 'POST',
    path: '/sessions/{sid}/wake',
    headers: { origin: '{self}' },
    status: 200,
    fields: ['woken', 'prompt'],
  },
  {
    name: 'a read from a foreign origin',
    method: 'GET',
    path: '/sessions',
    headers: { origin: 'https://evil.example' },
    status: 403,
    fields: FIELD_ERROR,
    errorField: 'Origin',
  },
  { name: 'events of an unknown session', method: 'GET', path: '/sessions/s-nope/events', status: 404, fields: ERROR },
  {
    name: 'events from a bad cursor',
    method: 'GET',
    path: '/sessions/{sid}/events?since=-3',
    status: 400,
    fields: FIELD_ERROR,
    errorField: 'since',
  },
  {
    name: 'events from a cursor that is not a number',
    method: 'GET',
    path: '/sessions/{sid}/events?since=abc',
    status: 400,
    fields: FIELD_ERROR,
    errorField: 'since',
  },
  { name: 'prompts of an unknown session', method: 'GET', path: '/sessions/s-nope/perms/stream', status: 404, fields: ERROR },
  { name: 'an unknown endpoint', method: 'GET', path: '/nope', status: 404, fields: ERROR },
  { name: 'an unknown session endpoint', method: 'POST', path: '/sessions/{sid}/frobnicate', status: 404, fields: ERROR },
  { name: 'a method a path does not take', method: 'PUT', path: '/sessions', status: 405, fields: ERROR, header: ['allow', 'GET, POST'] },
  { name: 'GET an inject', method: 'GET', path: '/sessions/{sid}/inject', status: 405, fields: ERROR },
  { name: 'delete a session', method: 'DELETE', path: '/sessions/{fresh}', status: 204 },
  { name: 'delete, qualified path', method: 'DELETE', path: '/sessions/{app}/{fresh}', status: 204 },
  { name: 'delete an unknown session', method: 'DELETE', path: '/sessions/s-nope', status: 404, fields: ERROR },
];
