/**
 * Request paths whose segments do not decode (a malformed `%` escape, bytes that
 * are not UTF-8) against the attach daemon with its peer registry mounted
 * (test/attach/percent-escapes.test.ts): a 400 naming the segment's field, never
 * a 500; paths whose escapes do decode still reach their route. `{reg}` is a
 * registration id of the caller's.
 */
export interface PercentEscapeCase {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  status: number;
  /** The field a 400 names. */
  field?: string;
}

export const PERCENT_ESCAPE_CASES: readonly PercentEscapeCase[] = [
  // Session ids.
  { name: 'a session id with %zz', method: 'GET', path: '/sessions/%zz/events', status: 400, field: 'sessionID' },
  { name: 'a session id that is a lone %', method: 'POST', path: '/sessions/%/inject', status: 400, field: 'sessionID' },
  { name: 'a session id ending in %4', method: 'DELETE', path: '/sessions/s-1%4', status: 400, field: 'sessionID' },
  {
    name: 'a session id with a truncated UTF-8 sequence',
    method: 'POST',
    path: '/sessions/%E0%A4%A/wake',
    status: 400,
    field: 'sessionID',
  },
  { name: 'a session id with a lone continuation byte', method: 'GET', path: '/sessions/%80/prompts', status: 400, field: 'sessionID' },
  { name: 'a session id with an overlong encoding of /', method: 'GET', path: '/sessions/%C0%AF/events', status: 400, field: 'sessionID' },
  { name: 'a session id with a UTF-16 surrogate', method: 'GET', path: '/sessions/%ED%A0%80/events', status: 400, field: 'sessionID' },
  { name: 'a session id with %FF', method: 'POST', path: '/sessions/%FF/interrupt', status: 400, field: 'sessionID' },
  { name: 'the qualified form, a bad id', method: 'GET', path: '/sessions/core-agent/%zz/events', status: 400, field: 'sessionID' },
  { name: 'a bad action after a good id', method: 'POST', path: '/sessions/s-nope/%zz', status: 400, field: 'action' },
  { name: 'a bad prompt id', method: 'POST', path: '/sessions/s-nope/prompts/%zz/respond', status: 400, field: 'action' },
  { name: 'a bad first segment', method: 'GET', path: '/%zz', status: 400, field: 'path' },
  { name: 'a bad first segment before sessions', method: 'GET', path: '/%zz/sessions', status: 400, field: 'path' },
  // Peer ids.
  { name: 'a peer id with %zz', method: 'DELETE', path: '/peers/%zz', status: 400, field: 'id' },
  { name: 'a peer id that is a lone %', method: 'POST', path: '/peers/%/heartbeat', status: 400, field: 'id' },
  { name: 'a peer id with %FF', method: 'POST', path: '/peers/%FF/heartbeat', status: 400, field: 'id' },
  { name: 'a peer id with an overlong encoding', method: 'DELETE', path: '/peers/%C0%80', status: 400, field: 'id' },
  // Escapes that decode reach their route.
  { name: 'an escaped unknown session id', method: 'GET', path: '/sessions/s-%6Eope/events', status: 404 },
  { name: 'an escaped slash in a session id', method: 'GET', path: '/sessions/a%2Fb/events', status: 404 },
  { name: 'an escaped first segment', method: 'GET', path: '/%73essions', status: 200 },
  { name: 'an escaped registration id', method: 'POST', path: '/peers/{reg}/heartbeat', status: 200 },
  { name: 'an unknown peer id, escaped', method: 'DELETE', path: '/peers/reg-%30', status: 204 },
  // A target that no URL parser takes whole (it used to reject outside the handler's try).
  { name: 'a path that is not a URL', method: 'GET', path: '//[', status: 404 },
  { name: 'a path of only escapes', method: 'GET', path: '/%2F%2F', status: 404 },
];
