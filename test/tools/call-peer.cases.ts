import type { FailureKind } from '../../src/core/failure.ts';

/**
 * call_peer against a roster of fake peers (test/tools/fake-peer.ts), one call a
 * line. `token`: set (peers.token_env names PEER_TOKEN, which holds the planted
 * token), unset (named, not set) or none (no token_env). Every runtime has
 * `permissions.deny: [tool.call_peer:prod-*]`, timeout_seconds 1 and
 * max_response_bytes 1025. `{url}` is the fake peer's address. `reached`: whether
 * any request may reach a peer at all.
 */
export interface CallPeerCase {
  name: string;
  peer: string;
  token?: 'set' | 'unset' | 'none';
  ok?: RegExp;
  truncated?: boolean;
  error?: RegExp;
  kind?: FailureKind;
  reached: boolean;
}

export const CALL_PEER_CASES: CallPeerCase[] = [
  { name: 'a registered peer answers', peer: 'ops-1', ok: /^prod-1 has 12 nodes, all Ready\. \(asked: how many nodes/, reached: true },
  {
    name: 'narration and the answer, never tool calls or results',
    peer: 'tools-1',
    ok: /^Checking the nodes\.\n\n12 nodes\.$/,
    reached: true,
  },
  { name: 'no token_env: the call goes without Authorization', peer: 'ops-1', token: 'none', ok: /12 nodes/, reached: true },
  {
    name: 'a peer without multi-session (501) is named as such',
    peer: 'nomulti-1',
    error: /has no multi-session: it answered 501/,
    reached: true,
  },
  {
    name: 'a peer that streams forever costs only the deadline',
    peer: 'slow-1',
    error: /did not finish its turn within 1s/,
    kind: 'deadline',
    reached: true,
  },
  { name: 'an answer over the byte cap is cut and flagged', peer: 'huge-1', ok: /^(é){512}$/, truncated: true, reached: true },
  {
    name: 'a turn-error keeps the peer’s kind and message',
    peer: 'fail-1',
    error: /turn failed on the peer \(rate_limited\): quota exhausted on the peer/,
    reached: true,
  },
  {
    name: 'a peer refusing the token',
    peer: 'auth-1',
    error: /refused to open a session: HTTP 401 unauthorized: Bearer \[redacted\]$/,
    reached: true,
  },
  { name: 'a stream that ends before the turn does', peer: 'gone-1', error: /event stream ended before the turn completed/, reached: true },
  { name: 'a registered peer that is down', peer: 'down-1', error: /"down-1" is unreachable at http:\/\/127\.0\.0\.1:1/, reached: false },
  {
    name: 'an unknown name lists the registered peers',
    peer: 'nope',
    error:
      /^call_peer: no peer named "nope".*registered peers are auth-1, down-1, fail-1, gone-1, huge-1, nomulti-1, ops-1, prod-1, prod-eu-2, slow-1, tools-1$/,
    kind: 'not_found',
    reached: false,
  },
  {
    name: 'a URL given as a name resolves to nothing',
    peer: '{url}/ok',
    error: /no peer named .*registered peers are auth-1/,
    kind: 'not_found',
    reached: false,
  },
  {
    name: 'a metadata address given as a name resolves to nothing',
    peer: 'http://169.254.169.254/latest/meta-data',
    error: /no peer named/,
    kind: 'not_found',
    reached: false,
  },
  {
    name: 'a name differing only in case is another name',
    peer: 'OPS-1',
    error: /no peer named "OPS-1"/,
    kind: 'not_found',
    reached: false,
  },
  {
    name: 'token_env named but unset fails before any request',
    peer: 'ops-1',
    token: 'unset',
    error: /peers\.token_env names PEER_TOKEN, which is unset or empty/,
    reached: false,
  },
  { name: 'a deny rule on the peer name refuses it', peer: 'prod-1', error: /tool\.call_peer:prod-\*/, kind: 'denied', reached: false },
  {
    name: 'the deny pattern covers every matching name',
    peer: 'prod-eu-2',
    error: /tool\.call_peer:prod-\*/,
    kind: 'denied',
    reached: false,
  },
];
