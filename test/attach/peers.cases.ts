/**
 * The peer registry's HTTP API, one request a line, against a hub that already
 * holds prod-1 (alice's; labels env=prod, region=eu) and dev-1 (bob's; env=dev).
 * `{prod-1}` in a path is prod-1's registration id. `names` / `ids` check a GET's
 * roster and which rows carry their id; `after` is the roster alice sees next.
 */
export interface PeerRouteCase {
  name: string;
  as: string;
  method: 'GET' | 'POST' | 'DELETE' | 'PUT';
  path: string;
  body?: unknown;
  /** A raw body instead of JSON (not JSON, or huge). */
  raw?: string;
  contentType?: string;
  status: number;
  /** The field the JSON error names. */
  field?: string;
  names?: string[];
  ids?: string[];
  after?: string[];
}

const ep = 'http://127.0.0.1:9001';
const big = 'x'.repeat(20 * 1024);

export const PEER_ROUTE_CASES: PeerRouteCase[] = [
  {
    name: 'a new name registers, owned by the caller',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'stage-1', endpoint: ep },
    status: 201,
    after: ['dev-1', 'prod-1', 'stage-1'],
  },
  {
    name: 'https with a path prefix is an endpoint',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'stage-2', endpoint: 'https://peer.example:8443/attach' },
    status: 201,
  },
  {
    name: 'the owner re-registers its name (upsert)',
    as: 'alice',
    method: 'POST',
    path: '/peers',
    body: { name: 'prod-1', endpoint: 'http://127.0.0.1:9002', labels: { env: 'prod' } },
    status: 201,
    after: ['dev-1', 'prod-1'],
  },
  {
    name: 'another principal cannot take a name over',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'prod-1', endpoint: ep },
    status: 403,
    field: 'name',
  },
  {
    name: 'a relative endpoint',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'x', endpoint: '/peer' },
    status: 400,
    field: 'endpoint',
  },
  {
    name: 'an ftp: endpoint',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'x', endpoint: 'ftp://127.0.0.1/' },
    status: 400,
    field: 'endpoint',
  },
  {
    name: 'a javascript: endpoint',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'x', endpoint: 'javascript:alert(1)' },
    status: 400,
    field: 'endpoint',
  },
  {
    name: 'a file: endpoint',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'x', endpoint: 'file:///etc/passwd' },
    status: 400,
    field: 'endpoint',
  },
  {
    name: 'credentials in the endpoint',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'x', endpoint: 'http://user:secret@127.0.0.1:9001' },
    status: 400,
    field: 'endpoint',
  },
  {
    name: 'a user name alone in the endpoint',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'x', endpoint: 'http://token@127.0.0.1:9001' },
    status: 400,
    field: 'endpoint',
  },
  {
    name: 'a host-less endpoint',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'x', endpoint: 'http://' },
    status: 400,
    field: 'endpoint',
  },
  {
    name: 'an endpoint with a fragment',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'x', endpoint: 'http://127.0.0.1:9001/#x' },
    status: 400,
    field: 'endpoint',
  },
  {
    name: 'an endpoint over 2048 characters',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'x', endpoint: `http://h/${'a'.repeat(2100)}` },
    status: 400,
    field: 'endpoint',
  },
  // Characters the URL parser drops or encodes silently, so the hub would store (and show) them verbatim.
  ...(
    [
      ['CR LF in the host', 'http://peer.example\r\n:7777'],
      ['CR LF and a header after the host', 'http://peer.example:7777/\r\nX-Injected: 1'],
      ['a LF in the path', 'http://peer.example:7777/a\nb'],
      ['a tab in the host', 'http://peer\t.example:7777'],
      ['a NUL byte', 'http://peer.example:7777/\u0000'],
      ['a DEL', 'http://peer.example:7777/\u007f'],
      ['a C1 control (NEL)', 'http://peer.example:7777/\u0085'],
      ['a leading space', ' http://peer.example:7777'],
      ['a trailing newline', 'http://peer.example:7777\n'],
      ['a space in the path', 'http://peer.example:7777/a b'],
      ['a line separator', 'http://peer.example:7777/\u2028'],
    ] as const
  ).map(([what, endpoint]): PeerRouteCase => ({
    name: `an endpoint with ${what}`,
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'x', endpoint },
    status: 400,
    field: 'endpoint',
  })),
  {
    name: 'a label value with CR LF',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'x', endpoint: ep, labels: { env: 'prod\r\nX: 1' } },
    status: 400,
    field: 'labels.env',
  },
  {
    name: 'a URL as the name',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'http://169.254.169.254', endpoint: ep },
    status: 400,
    field: 'name',
  },
  { name: 'no name', as: 'bob', method: 'POST', path: '/peers', body: { endpoint: ep }, status: 400, field: 'name' },
  { name: 'no endpoint', as: 'bob', method: 'POST', path: '/peers', body: { name: 'x' }, status: 400, field: 'endpoint' },
  {
    name: 'an unknown field',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'x', endpoint: ep, owner: 'alice' },
    status: 400,
    field: 'owner',
  },
  {
    name: 'a label value that is not a string',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'x', endpoint: ep, labels: { env: 1 } },
    status: 400,
    field: 'labels.env',
  },
  {
    name: 'a zero TTL',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'x', endpoint: ep, heartbeat_ttl_sec: 0 },
    status: 400,
    field: 'heartbeat_ttl_sec',
  },
  {
    name: 'a body over 16 KiB',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    raw: `{"name":"x","endpoint":"${ep}","labels":{"a":"${big}"}}`,
    status: 413,
  },
  { name: 'a body that is not JSON', as: 'bob', method: 'POST', path: '/peers', raw: '{name: x', status: 400 },
  { name: 'a body that is not a JSON object', as: 'bob', method: 'POST', path: '/peers', raw: '[1]', status: 400, field: '(body)' },
  {
    name: 'a write without a JSON content type',
    as: 'bob',
    method: 'POST',
    path: '/peers',
    body: { name: 'x', endpoint: ep },
    contentType: 'text/plain',
    status: 415,
  },
  {
    name: 'the roster, ids only on the owner’s rows',
    as: 'alice',
    method: 'GET',
    path: '/peers',
    status: 200,
    names: ['dev-1', 'prod-1'],
    ids: ['prod-1'],
  },
  {
    name: 'a principal owning nothing sees no ids',
    as: 'carol',
    method: 'GET',
    path: '/peers',
    status: 200,
    names: ['dev-1', 'prod-1'],
    ids: [],
  },
  { name: 'a label filter', as: 'bob', method: 'GET', path: '/peers?label=env=prod', status: 200, names: ['prod-1'], ids: [] },
  {
    name: 'label filters combine (all must match)',
    as: 'bob',
    method: 'GET',
    path: '/peers?label=env=prod&label=region=us',
    status: 200,
    names: [],
  },
  { name: 'two matching filters', as: 'bob', method: 'GET', path: '/peers?label=env=prod&label=region=eu', status: 200, names: ['prod-1'] },
  { name: 'a filter that is not key=value', as: 'bob', method: 'GET', path: '/peers?label=env', status: 400, field: 'label' },
  { name: 'the owner heartbeats', as: 'alice', method: 'POST', path: '/peers/{prod-1}/heartbeat', status: 200 },
  { name: 'another principal’s heartbeat is masked as unknown', as: 'bob', method: 'POST', path: '/peers/{prod-1}/heartbeat', status: 404 },
  { name: 'an unknown id’s heartbeat', as: 'alice', method: 'POST', path: '/peers/reg-0000000000000000/heartbeat', status: 404 },
  {
    name: 'another principal cannot delete',
    as: 'bob',
    method: 'DELETE',
    path: '/peers/{prod-1}',
    status: 403,
    after: ['dev-1', 'prod-1'],
  },
  { name: 'the owner deletes', as: 'alice', method: 'DELETE', path: '/peers/{prod-1}', status: 204, after: ['dev-1'] },
  {
    name: 'deleting an unknown id is done already',
    as: 'alice',
    method: 'DELETE',
    path: '/peers/reg-0000000000000000',
    status: 204,
    after: ['dev-1', 'prod-1'],
  },
  { name: 'a method /peers does not take', as: 'alice', method: 'PUT', path: '/peers', status: 405 },
  { name: 'GET on a registration', as: 'alice', method: 'GET', path: '/peers/{prod-1}', status: 405 },
  { name: 'an unknown peers path', as: 'alice', method: 'POST', path: '/peers/{prod-1}/renew', status: 404 },
];
