/**
 * url_scope: which URLs the network tools (fetch_url, web_fetch) may reach.
 *
 * An entry is `[scheme://]host[:port]`:
 *   - host `*` matches every host, `*.example.com` every subdomain of
 *     example.com (not example.com itself), anything else one exact host
 *     (a name, an IPv4 address, or `[an:ipv6::address]`);
 *   - no scheme, or `https://`, allows HTTPS only; `http://` opts that host in to
 *     plain HTTP as well;
 *   - a port restricts the entry to that port; without one, any port.
 * Deny entries use the same grammar, ignore the scheme, and win over allow.
 *
 * Exact-host entries matter beyond matching: loopback and private addresses are
 * reachable only through one (see address-policy.ts), so `*` never opens the
 * cluster network or localhost by accident.
 */

export class UrlScopeError extends Error {
  override readonly name = 'UrlScopeError';
}

interface HostPattern {
  readonly raw: string;
  readonly http: boolean;
  /** '*' | '*.suffix' (suffix normalized) | an exact normalized hostname. */
  readonly host: string;
  readonly kind: 'any' | 'suffix' | 'exact';
  readonly port: number | undefined;
}

export type ScopeDecision = { refused: string } | { exactHost: boolean };

export class UrlScope {
  private constructor(
    private readonly allow: readonly HostPattern[],
    private readonly deny: readonly HostPattern[],
  ) {}

  /** Throws UrlScopeError naming the entry and what is wrong with it. */
  static parse(allow: readonly string[], deny: readonly string[] = []): UrlScope {
    return new UrlScope(
      allow.map((e, i) => parsePattern(e, `url_scope.allow[${i}]`)),
      deny.map((e, i) => parsePattern(e, `url_scope.deny[${i}]`)),
    );
  }

  get empty(): boolean {
    return this.allow.length === 0;
  }

  /** The entries, for the startup log and tool descriptions. */
  describe(): { allow: string[]; deny: string[] } {
    return { allow: this.allow.map((p) => p.raw), deny: this.deny.map((p) => p.raw) };
  }

  /** Scheme, deny and allow for one URL (already parsed and normalized by WHATWG URL). */
  check(url: URL): ScopeDecision {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      return { refused: `only http and https URLs can be fetched, not ${url.protocol.slice(0, -1)}` };
    }
    const port = effectivePort(url);
    // `example.com.` is example.com: a trailing dot (or %2e, or 。) must not step round a deny entry.
    const hostname = withoutTrailingDots(url.hostname);
    const denied = this.deny.find((p) => hostMatches(p, hostname, port));
    if (denied) return { refused: `${url.host} is denied by url_scope.deny entry "${denied.raw}"` };
    const matching = this.allow.filter((p) => hostMatches(p, hostname, port));
    if (matching.length === 0) {
      return { refused: `${url.host} is not in url_scope.allow (allowed: ${this.allow.map((p) => p.raw).join(', ')})` };
    }
    const schemeOk = url.protocol === 'https:' ? matching : matching.filter((p) => p.http);
    if (schemeOk.length === 0) {
      return {
        refused: `plain http to ${url.host} is not allowed: use https, or opt the host in with an "http://${url.host}" url_scope.allow entry`,
      };
    }
    return { exactHost: schemeOk.some((p) => p.kind === 'exact') };
  }
}

function withoutTrailingDots(hostname: string): string {
  return hostname.replace(/\.+$/, '');
}

function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'http:' ? 80 : 443;
}

function hostMatches(p: HostPattern, hostname: string, port: number): boolean {
  if (p.port !== undefined && p.port !== port) return false;
  switch (p.kind) {
    case 'any':
      return true;
    case 'suffix':
      return hostname.endsWith(`.${p.host}`);
    case 'exact':
      return hostname === p.host;
  }
}

const ENTRY = /^(?:(https?):\/\/)?(\*|\*\.[^/:[\]]+|\[[0-9a-fA-F:.]+\]|[^/:[\]*]+)(?::(\d{1,5}))?\/?$/;

function parsePattern(raw: string, field: string): HostPattern {
  const m = ENTRY.exec(raw.trim());
  if (!m) {
    throw new UrlScopeError(
      `${field}: "${raw}" is not a host pattern; write host, *.domain, * or [ipv6], optionally with http:// and :port (e.g. "api.example.com", "http://10.0.0.5:8080")`,
    );
  }
  const [, scheme, host, portText] = m as unknown as [string, string | undefined, string, string | undefined];
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (port < 1 || port > 65535)) throw new UrlScopeError(`${field}: port ${portText} in "${raw}" is out of range`);
  const http = scheme === 'http';
  if (host === '*') return { raw, http, host, kind: 'any', port };
  if (host.startsWith('*.')) return { raw, http, host: normalizeHost(host.slice(2), field, raw), kind: 'suffix', port };
  return { raw, http, host: normalizeHost(host, field, raw), kind: 'exact', port };
}

/** The WHATWG URL parser's form of a host: lower case, punycode, IPv4 in dotted decimal, IPv6 bracketed and compressed. */
function normalizeHost(host: string, field: string, raw: string): string {
  try {
    return withoutTrailingDots(new URL(`https://${host}/`).hostname);
  } catch {
    throw new UrlScopeError(`${field}: "${host}" in "${raw}" is not a valid host name or address`);
  }
}
