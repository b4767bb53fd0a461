import type { Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import { blockedHostName, classifyAddress, ipLiteral } from './address-policy.ts';
import { openTunnel } from './proxy-tunnel.ts';
import { quoteArg } from '../util/error-text.ts';
import { failureText, innermostError, loadUndici, readCapped } from './undici.ts';
import type { UrlScope } from './url-scope.ts';

/**
 * HTTP GET behind the SSRF guard. Every hop — the first URL and every redirect —
 * is checked the same way before a byte is sent:
 *
 *   1. url_scope: scheme, deny entries, allow entries (url-scope.ts);
 *   2. metadata host names are refused outright;
 *   3. the host's addresses — the literal itself when the URL names an IP (the
 *      WHATWG parser has already turned 2130706433, 0x7f.1, 0177.0.0.1 and 127.1
 *      into 127.0.0.1), else every address the resolver returns — are classified
 *      (address-policy.ts): one blocked address refuses the hop, and private ones
 *      need an exact-host allow entry;
 *   4. the connection goes to the address that was checked: the connector
 *      replaces the host name with it (TLS still verifies the name), so no
 *      second lookup can answer differently (DNS rebinding), and the socket's
 *      remote address is checked once more after connecting.
 *
 * Environment proxies are never used: each hop gets its own undici Agent, which
 * reads no environment variables. A proxy the operator configures is reached
 * by a CONNECT tunnel to the checked address (proxy-tunnel.ts).
 */

export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => {
  const { lookup } = await import('node:dns/promises');
  return (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);
};

/** A hop the policy refuses; the message is complete and model-facing. */
export class FetchRefused extends Error {
  override readonly name = 'FetchRefused';
}

export interface FetchPolicy {
  readonly scope: UrlScope;
  readonly resolve: Resolver;
  /** Body bytes kept (after content decoding); the rest is not read. */
  readonly maxBodyBytes: number;
  readonly maxRedirects: number;
  readonly userAgent: string;
  /** An explicitly configured HTTP proxy, reached by CONNECT to the checked address. */
  readonly proxy?: URL | undefined;
}

export interface FetchedResponse {
  /** The final URL, after redirects. */
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly contentType: string;
  readonly body: Buffer;
  /** The body went past maxBodyBytes and was cut there. */
  readonly truncated: boolean;
  /** Each URL redirected to, in order. */
  readonly redirects: string[];
}

type Undici = typeof import('./undici-entry.ts');

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
export const CONNECT_TIMEOUT_MS = 10_000;

export async function guardedFetch(target: string, policy: FetchPolicy, signal: AbortSignal, accept = '*/*'): Promise<FetchedResponse> {
  const { Agent, buildConnector, fetch } = await loadUndici();
  const redirects: string[] = [];
  let url = parseTarget(target);
  for (;;) {
    const pinned = await checkHop(url, policy);
    const connect = policy.proxy
      ? tunnelConnector(policy.proxy, pinned, url)
      : pinnedConnector(buildConnector({ timeout: CONNECT_TIMEOUT_MS }), pinned);
    const agent = new Agent({ connect, connections: 1, allowH2: false });
    try {
      const res = await fetch(url, {
        dispatcher: agent,
        redirect: 'manual',
        signal,
        headers: { 'user-agent': policy.userAgent, accept },
      }).catch((err: unknown) => {
        throw new Error(`${shown(url)}: ${networkError(err, signal)}`);
      });
      const location = res.headers.get('location');
      if (REDIRECTS.has(res.status) && location !== null) {
        await res.body?.cancel();
        if (redirects.length >= policy.maxRedirects) throw new FetchRefused(`${shown(url)}: more than ${policy.maxRedirects} redirects`);
        const next = parseTarget(location, url);
        redirects.push(next.href);
        url = next;
        continue;
      }
      const { body, truncated } = await readCapped(res.body, policy.maxBodyBytes, signal);
      return {
        url: url.href,
        status: res.status,
        statusText: res.statusText,
        contentType: res.headers.get('content-type') ?? '',
        body,
        truncated,
        redirects,
      };
    } finally {
      agent.destroy().catch(() => {});
    }
  }
}

function parseTarget(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new FetchRefused(
      base
        ? `redirect from ${shown(base)} to ${quoteArg(text)}, which is not a valid URL`
        : `${quoteArg(text)} is not a valid absolute URL (write it with its scheme, e.g. https://example.com/path)`,
    );
  }
  // Credentials in a URL would be copied into the transcript and the logs.
  if (url.username !== '' || url.password !== '') throw new FetchRefused(`${url.host}: URLs with credentials (user:password@) are refused`);
  url.hash = '';
  return url;
}

/** Runs the policy on one hop; resolves to the addresses the connection may use, all checked. */
async function checkHop(url: URL, policy: FetchPolicy): Promise<string[]> {
  const where = shown(url);
  // What is always blocked is said first, whatever url_scope would have said.
  refuseAlwaysBlocked(url, where);
  const decision = policy.scope.check(url);
  if ('refused' in decision) throw new FetchRefused(`${where}: ${decision.refused}`);
  return checkedAddresses(url, where, policy.resolve, {
    mayReachPrivate: decision.exactHost,
    howToAllow: (host) => `reachable only through an exact-host url_scope.allow entry ("${host}"), not a wildcard`,
  });
}

/**
 * The address policy's first step, before any other rule and any lookup: metadata
 * host names, and IP literals that are always blocked (address-policy.ts).
 * `where` is how the refusal names the destination.
 */
export function refuseAlwaysBlocked(url: URL, where: string): void {
  const metadata = blockedHostName(url.hostname);
  if (metadata) throw new FetchRefused(`${where}: ${metadata}`);
  const literal = ipLiteral(url.hostname);
  const literalClass = literal ? classifyAddress(literal) : undefined;
  if (literalClass?.kind === 'blocked') throw new FetchRefused(`${where}: ${literalClass.reason}`);
}

/**
 * The host's addresses — the literal itself, or every answer the resolver gives —
 * each judged: one blocked address refuses the hop, and a loopback or private one
 * refuses it unless `mayReachPrivate` (the caller's rule: an exact-host url_scope
 * entry for fetch_url, a host the operator named for the say-so requests).
 * `howToAllow(host)` ends the refusal of a private address with the setting that
 * would allow it. Resolves to the addresses the connection may be pinned to.
 */
export async function checkedAddresses(
  url: URL,
  where: string,
  resolve: Resolver,
  o: { mayReachPrivate: boolean; howToAllow: (host: string) => string },
): Promise<string[]> {
  const literal = ipLiteral(url.hostname);
  let addresses: string[];
  if (literal) addresses = [literal];
  else {
    try {
      addresses = await resolve(url.hostname);
    } catch (err) {
      throw new Error(`${where}: could not resolve ${url.hostname}: ${failureText(err)}`);
    }
    if (addresses.length === 0) throw new Error(`${where}: ${url.hostname} has no addresses`);
  }
  // Every answer is judged, not just the first: one bad address refuses the hop.
  for (const address of addresses) {
    const verdict = classifyAddress(address);
    const via = literal ? '' : `${url.hostname} resolves to ${address}; `;
    if (verdict.kind === 'blocked') throw new FetchRefused(`${where}: ${via}${verdict.reason}`);
    if (verdict.kind === 'private' && !o.mayReachPrivate) {
      throw new FetchRefused(`${where}: ${via}${address} is a ${verdict.range} address, ${o.howToAllow(url.hostname)}`);
    }
  }
  return addresses;
}

export type Connector = ReturnType<Undici['buildConnector']>;

/**
 * Connect to a checked address whatever host name undici asks for, and verify
 * the peer. The addresses are tried in order (a dual-stack name whose IPv6 is
 * unreachable still works); every one of them passed the policy.
 */
export function pinnedConnector(base: Connector, addresses: readonly string[]): Connector {
  return (options, callback) => {
    const attempt = (i: number, lastError: Error | null) => {
      const pinned = addresses[i];
      if (pinned === undefined) return callback(lastError ?? new Error('no address to connect to'), null);
      base({ ...options, hostname: pinned }, (err, socket) => {
        if (err || !socket) return attempt(i + 1, err ?? new Error('no socket'));
        const peer = (socket as Socket).remoteAddress;
        if (peer === undefined || normalize(peer) !== normalize(pinned)) {
          socket.destroy();
          return callback(new FetchRefused(`connected to ${peer ?? 'an unknown address'}, not the checked ${pinned}`), null);
        }
        callback(null, socket);
      });
    };
    attempt(0, null);
  };
}

/** Through the configured proxy: a CONNECT tunnel to the checked address, TLS to the original name. */
function tunnelConnector(proxy: URL, addresses: readonly string[], url: URL): Connector {
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const servername = ipLiteral(url.hostname) ? undefined : url.hostname;
  return (_options, callback) => {
    const attempt = (i: number, lastError: Error | null) => {
      const address = addresses[i];
      if (address === undefined) return callback(lastError ?? new Error('no address to connect to'), null);
      openTunnel(proxy, { address, port, tls: url.protocol === 'https:', servername }, CONNECT_TIMEOUT_MS).then(
        (socket) => callback(null, socket),
        (err: Error) => attempt(i + 1, err),
      );
    };
    attempt(0, null);
  };
}

function normalize(address: string): string {
  return ipaddr.process(address.replace(/%.*$/, '')).toNormalizedString();
}

/** Why a hop failed, from undici's layered errors ("fetch failed" → cause → …), as a sentence where the code is known. */
function networkError(err: unknown, signal: AbortSignal): string {
  if (signal.aborted) return signal.reason instanceof Error && signal.reason.name === 'TimeoutError' ? 'timed out' : 'aborted';
  const e = innermostError(err);
  // The pinned connector's own refusal stays a refusal.
  if (e instanceof FetchRefused) throw e;
  return failureText(err);
}

/** A URL as messages show it: whole up to 300 characters, else its start (a URL may be 8 KiB, or more once encoded). */
function shown(url: URL): string {
  return url.href.length <= 300 ? url.href : `${url.href.slice(0, 300)}… (${url.href.length} characters)`;
}
