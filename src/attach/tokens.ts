import { createHash, timingSafeEqual } from 'node:crypto';
import { PRINCIPAL_NAME } from '../core/principal.ts';

/** A bearer token and the name it stands for (the principal recorded as owner and approver). */
export interface TokenEntry {
  principal: string;
  token: string;
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
export function principalOf(presented: string, tokens: readonly TokenEntry[]): string | null {
  // Digests first: equal lengths for timingSafeEqual, and the token's length is not leaked either.
  const given = digest(presented);
  let found: string | null = null;
  for (const t of tokens) if (timingSafeEqual(given, digest(t.token))) found = t.principal;
  return found;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
