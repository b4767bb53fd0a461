/**
 * The syntax of a Host header and of an operator's `allowed_hosts` /
 * `--allowed-host` entry: HOST or HOST:PORT, HOST a DNS name, a dotted IPv4
 * address or a bracketed IPv6 one; `*` for any host. Apart from the policy
 * (listener-host.ts) so the recipe's schema checks entries without loading it.
 */

/** One configured entry: the host as written (lower case; IPv6 without brackets); null port: any. */
export interface AllowedHost {
  host: string;
  port: number | null;
}

/** `*`: any Host (never any Origin). */
export const ANY_HOST = '*';
export type AllowedHostEntry = AllowedHost | typeof ANY_HOST;

const AUTHORITY = /^(?:\[([0-9A-Fa-f:.]{2,45})\]|([A-Za-z0-9_.-]{1,253}))(?::(\d{1,5}))?$/;
const NAME_LABELS = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?$/;

/** HOST[:PORT] as a Host header or a configured entry writes it, or null when it is not one (userinfo, a path, spaces, a bad port). */
export function parseAuthority(text: string): AllowedHost | null {
  const m = AUTHORITY.exec(text);
  if (!m) return null;
  const port = m[3] === undefined ? null : Number(m[3]);
  if (port !== null && (port < 1 || port > 65_535)) return null;
  if (m[1] !== undefined) {
    try {
      new URL(`http://[${m[1]}]/`);
    } catch {
      return null;
    }
    return { host: m[1].toLowerCase(), port };
  }
  const name = m[2]!.toLowerCase();
  if (!NAME_LABELS.test(name) || name.split('.').some((label) => label.length > 63)) return null;
  return { host: name, port };
}

/** One entry: `*`, HOST or HOST:PORT; throws a sentence saying what to write. */
export function parseAllowedHost(text: string): AllowedHostEntry {
  const t = text.trim();
  if (t === ANY_HOST) return ANY_HOST;
  const parsed = t.length <= 300 ? parseAuthority(t) : null;
  if (parsed) return parsed;
  const shown = t.length > 60 ? `${t.slice(0, 60)}…` : t;
  throw new Error(
    `"${shown}" is not a host: give a name or an address, optionally with :PORT (agent.example.com, agent.example.com:443, [::1]:7777), no scheme or path; "*" takes any host`,
  );
}

/** Several entries; each value may be a comma-separated list (a repeated flag). */
export function parseAllowedHosts(values: readonly string[]): AllowedHostEntry[] {
  return values.flatMap((v) => v.split(',').filter((s) => s.trim() !== '')).map(parseAllowedHost);
}

/** Why `*` cannot be used here, or null: without a token it would hand the listener to any web page. */
export function anyHostProblem(allowed: readonly AllowedHostEntry[], hasToken: boolean, setting: string): string | null {
  if (hasToken || !allowed.includes(ANY_HOST)) return null;
  return `${setting} "*" needs a bearer token: without one, any web page that rebinds its name to this address could drive it`;
}
