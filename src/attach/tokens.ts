import { createHash, timingSafeEqual } from 'node:crypto';
import { principal, PRINCIPAL_NAME, type Principal } from '../core/principal.ts';

/**
 * A bearer token and the principal it stands for (recorded as owner and approver). The token is
 * held in clear (`--token-env`, a users file's `token_env`) or as its sha256 (a users file's
 * `token_sha256`): either way only digests are compared.
 */
export interface TokenEntry {
  principal: string;
  token?: string | undefined;
  /** The token's sha256, 64 hex digits. */
  sha256?: string | undefined;
  group?: string | undefined;
  tenant?: string | undefined;
  /** Only a users file's `admin: true` makes one; never a --token-env entry. */
  admin?: boolean | undefined;
}

/** The principal of a variable holding one bare token. */
export const SINGLE_TOKEN_PRINCIPAL = 'operator';

/**
 * The tokens in the variable named by --token-env. Two spellings:
 *
 * - one bare token (`s3cr3t`): its principal is `operator`;
 * - a list `alice=tok1,bob@example.com=tok2`: each entry's name is its principal.
 *
 * The value is a list only when every comma-separated entry is `NAME=TOKEN` with a
 * NAME that is a principal and a TOKEN that does not start with `=` — so a base64
 * token ending in `==` is still one bare token. Throws an Error (the CLI makes it a
 * usage error) naming the entry at fault, never echoing a token.
 */
export function parseTokens(value: string, variable: string): TokenEntry[] {
  const trimmed = value.trim();
  if (trimmed === '') throw new Error(`${variable} is empty`);
  const entries = trimmed.split(',').map((e) => e.trim());
  const listed = entries.map((e) => {
    const eq = e.indexOf('=');
    if (eq <= 0) return null;
    const principal = e.slice(0, eq);
    const token = e.slice(eq + 1);
    return PRINCIPAL_NAME.test(principal) && token !== '' && !token.startsWith('=') ? { principal, token } : null;
  });
  if (listed.every((e) => e !== null)) {
    const seen = new Set<string>();
    for (const e of listed) {
      if (seen.has(e.principal)) throw new Error(`${variable} names the principal "${e.principal}" twice`);
      seen.add(e.principal);
    }
    if (new Set(listed.map((e) => e.token)).size !== listed.length)
      throw new Error(`${variable} gives two principals the same token: each needs its own`);
    return listed;
  }
  if (entries.length > 1) {
    const bad = listed.findIndex((e) => e === null);
    throw new Error(`${variable}: entry ${bad + 1} is not NAME=TOKEN (NAME a letter, then letters, digits, . _ @ -)`);
  }
  return [{ principal: SINGLE_TOKEN_PRINCIPAL, token: trimmed }];
}

/**
 * The principal a presented token belongs to, or null. Every entry is compared
 * (no early exit) in constant time, so the time taken says nothing about which
 * token, or how much of one, matched.
 */
export function principalOf(presented: string, tokens: readonly TokenEntry[]): Principal | null {
  // Digests first: equal lengths for timingSafeEqual, and the token's length is not leaked either.
  const given = digest(presented);
  let found: TokenEntry | null = null;
  for (const t of tokens) if (timingSafeEqual(given, digestOf(t))) found = t;
  if (found === null) return null;
  return principal(found.principal, { group: found.group, tenant: found.tenant, admin: found.admin === true });
}

function digestOf(t: TokenEntry): Buffer {
  if (t.sha256 !== undefined) return Buffer.from(t.sha256, 'hex');
  // No token at all matches nothing (a users file never makes such an entry).
  return t.token === undefined ? Buffer.alloc(32) : digest(t.token);
}

export function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
