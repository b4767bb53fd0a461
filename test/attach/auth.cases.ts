// Who gets in: each request's credentials → the status, and the principal /whoami names.
// The daemon holds TOKENS (daemon.ts): alice's and bob@example.com's.
import { ALICE, BOB } from './daemon.ts';

export interface AuthCase {
  name: string;
  headers: Record<string, string>;
  status: 200 | 401;
  principal?: string;
}

export const AUTH_CASES: readonly AuthCase[] = [
  { name: 'no token', headers: {}, status: 401 },
  { name: 'a wrong bearer token', headers: { authorization: 'Bearer not-a-token' }, status: 401 },
  { name: 'an empty bearer token', headers: { authorization: 'Bearer ' }, status: 401 },
  { name: 'a prefix of a token', headers: { authorization: `Bearer ${ALICE.slice(0, -1)}` }, status: 401 },
  { name: 'a token with a byte more', headers: { authorization: `Bearer ${ALICE}x` }, status: 401 },
  { name: 'two tokens joined', headers: { authorization: `Bearer ${ALICE},${BOB}` }, status: 401 },
  { name: 'the principal name as the token', headers: { authorization: 'Bearer alice' }, status: 401 },
  { name: 'the list entry as the token', headers: { authorization: `Bearer alice=${ALICE}` }, status: 401 },
  { name: 'Basic instead of Bearer', headers: { authorization: `Basic ${ALICE}` }, status: 401 },
  { name: "alice's token", headers: { authorization: `Bearer ${ALICE}` }, status: 200, principal: 'alice' },
  { name: "bob's token", headers: { authorization: `Bearer ${BOB}` }, status: 200, principal: 'bob@example.com' },
  { name: 'the scheme in lower case', headers: { authorization: `bearer ${BOB}` }, status: 200, principal: 'bob@example.com' },
  { name: 'X-Attach-Token', headers: { 'x-attach-token': ALICE }, status: 200, principal: 'alice' },
  {
    name: 'X-Attach-Token wins over Authorization',
    headers: { 'x-attach-token': BOB, authorization: `Bearer ${ALICE}` },
    status: 200,
    principal: 'bob@example.com',
  },
  { name: 'X-Attach-Token wins even when wrong', headers: { 'x-attach-token': 'wrong', authorization: `Bearer ${ALICE}` }, status: 401 },
];

/** The variable --token-env names → the principals it defines, or the error's words. */
export const TOKEN_VALUE_CASES: ReadonlyArray<[value: string, principals: string[] | { error: RegExp }]> = [
  ['s3cr3t-token', ['operator']],
  ['  s3cr3t-token  ', ['operator']],
  ['dGhpcyBpcyBiYXNlNjQ==', ['operator']],
  ['abc=', ['operator']],
  ['alice=tok-a', ['alice']],
  ['alice=tok-a,bob@example.com=tok-b', ['alice', 'bob@example.com']],
  ['alice=tok-a, bob=tok-b', ['alice', 'bob']],
  ['ci.bot=tok=with=equals', ['ci.bot']],
  ['', { error: /is empty/ }],
  ['   ', { error: /is empty/ }],
  ['alice=tok-a,alice=tok-b', { error: /"alice" twice/ }],
  ['alice=same,bob=same', { error: /same token/ }],
  ['alice=tok-a,just-a-token', { error: /entry 2 is not NAME=TOKEN/ }],
  ['alice=tok-a,', { error: /entry 2 is not NAME=TOKEN/ }],
  ['1bad=tok,bob=tok-b', { error: /entry 1 is not NAME=TOKEN/ }],
];
