import { classifyAddress, ipLiteral } from './address-policy.ts';
import {
  checkedAddresses,
  CONNECT_TIMEOUT_MS,
  FetchRefused,
  pinnedConnector,
  refuseAlwaysBlocked,
  systemResolver,
  type Resolver,
} from './guarded-fetch.ts';
import { failureText, loadUndici } from './undici.ts';

/**
 * Requests made on someone else's say-so — to an address a server, a peer or a
 * discovery document named (OAuth discovery and token calls, dynamic client
 * registration, call_peer's session calls, the peer hub) — and to the endpoints
 * the operator configured (alert webhooks, the peer hub, web_search's provider).
 * They take the address policy fetch_url takes (address-policy.ts, the pinned
 * connection of guarded-fetch.ts), with the operator's names in place of url_scope:
 *
 *   - metadata and link-local addresses, and the metadata host names, are always
 *     refused, whoever named them;
 *   - a loopback or private address (RFC 1918, unique-local, CGNAT, …) is reached
 *     only for a host the operator named exactly — the MCP server's own URL, the
 *     recipe's hub and peer entries, a `private_hosts` list — never because a
 *     server's document pointed there;
 *   - anything else (public) is reached;
 *   - the connection goes to an address that was checked (no second lookup can
 *     rebind it), with no environment proxy;
 *   - a redirect is never followed here: `redirect: 'manual'` hands it back (the
 *     MCP SDK then follows it only within the origin, calling this again, so the
 *     new hop is checked), anything else refuses it;
 *   - every body is capped: a response at `maxBodyBytes` (a text/event-stream at
 *     that much per event) fails its read with ResponseTooLarge, naming the cap,
 *     and the rest is not read.
 *
 * A refusal (FetchRefused) names the destination by its origin only — a webhook's
 * path is its credential — the address class, and the setting that would allow it;
 * never a header, a body, or a query.
 */

/** The fetch signature the MCP SDK takes (its FetchLike). */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface OutboundPolicy {
  /** Hosts the operator named (any spelling URL parsing accepts): only these may resolve to loopback or private addresses. */
  readonly namedHosts: Iterable<string>;
  /** The setting that names further hosts, said in a refusal: `peers.private_hosts`. */
  readonly setting: string;
  /** Whose answers the cap is on, for its error: `the peer`, `OAuth discovery and token responses`. */
  readonly what: string;
  /** The most of one response body read (of one event, for text/event-stream). */
  readonly maxBodyBytes: number;
  /** The DNS resolver (default: the system's); a test seam. */
  readonly resolve?: Resolver | undefined;
  /**
   * Told of every refusal and every cap reached, as it happens: a caller whose
   * library swallows the error (the MCP SDK falls back when protected-resource
   * metadata fails) still lets the operator know why.
   */
  readonly onRefusal?: ((err: FetchRefused | ResponseTooLarge) => void) | undefined;
}

/** A response body past its cap: what was read is dropped, and nothing more is read. */
export class ResponseTooLarge extends Error {
  override readonly name = 'ResponseTooLarge';
}

/** Statuses whose Response must have no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The destination as errors show it: scheme, host and port — never the path or query (a webhook's path is its secret). */
export function originOf(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

/** A host in the form the URL parser gives it, without trailing dots. */
export function normalHost(host: string): string | undefined {
  try {
    return new URL(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}/`).hostname.replace(/\.+$/, '');
  } catch {
    return undefined;
  }
}

/** Judge one destination under the policy (no request made): its checked addresses, or FetchRefused. */
export async function checkOutbound(url: URL, policy: Pick<OutboundPolicy, 'namedHosts' | 'setting' | 'resolve'>): Promise<string[]> {
  const where = refuseOutright(url);
  return checkedAddresses(url, where, policy.resolve ?? systemResolver, {
    mayReachPrivate: isNamed(url, policy.namedHosts),
    howToAllow: (h) => howToAllow(h, policy.setting),
  });
}

/**
 * What can be said of a destination without a lookup (the hub judging a
 * registration): the refusal of a metadata name, a blocked address, or a
 * loopback or private address the operator did not name; null when only a
 * lookup could tell (a name) or the address is allowed. The lookup happens,
 * and is judged, when the request is made.
 */
export function refusalWithoutLookup(url: URL, policy: Pick<OutboundPolicy, 'namedHosts' | 'setting'>): string | null {
  try {
    const where = refuseOutright(url);
    const literal = ipLiteral(url.hostname);
    if (!literal) return null;
    const verdict = classifyAddress(literal);
    if (verdict.kind === 'private' && !isNamed(url, policy.namedHosts))
      return `${where}: ${literal} is a ${verdict.range} address, ${howToAllow(url.hostname, policy.setting)}`;
    return null;
  } catch (err) {
    if (err instanceof FetchRefused) return err.message;
    throw err;
  }
}

/** Scheme, credentials, metadata names and blocked literals; returns how refusals name the destination. */
function refuseOutright(url: URL): string {
  const where = originOf(url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FetchRefused(`${where}: only http and https are used, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '') throw new FetchRefused(`${url.host}: URLs with credentials (user:password@) are refused`);
  refuseAlwaysBlocked(url, where);
  return where;
}

function isNamed(url: URL, namedHosts: Iterable<string>): boolean {
  const host = url.hostname.replace(/\.+$/, '');
  for (const h of namedHosts) if (normalHost(h) === host) return true;
  return false;
}

function howToAllow(host: string, setting: string): string {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  return `reachable only when the operator names that host: core-agent does not go there because a server or a peer said so (to allow it, add "${bare}" to ${setting})`;
}

/**
 * A fetch for requests made on someone else's say-so, under `policy`. Each
 * request gets its own connection, pinned to the addresses checked for it, and
 * closed when its body has been read or cancelled.
 */
export function outboundFetch(policy: OutboundPolicy): FetchLike {
  return async (input, init = {}) => {
    const { Agent, buildConnector, fetch } = await loadUndici();
    const url = typeof input === 'string' ? parseUrl(input) : new URL(input.href);
    const addresses = await checkOutbound(url, policy).catch((err: unknown) => {
      if (err instanceof FetchRefused) policy.onRefusal?.(err);
      throw err;
    });
    const agent = new Agent({
      connect: pinnedConnector(buildConnector({ timeout: CONNECT_TIMEOUT_MS }), addresses),
      connections: 1,
      allowH2: false,
    });
    const release = () => void agent.destroy().catch(() => {});
    let res: Awaited<ReturnType<typeof fetch>>;
    try {
      res = await fetch(url, { ...(init as object), dispatcher: agent, redirect: 'manual' });
    } catch (err) {
      release();
      if (init.signal?.aborted) throw init.signal.reason;
      // The pinned connector's own refusal stays a refusal.
      let e: unknown = err;
      while (e instanceof Error && !(e instanceof FetchRefused) && e.cause instanceof Error) e = e.cause;
      if (e instanceof FetchRefused) throw e;
      throw new Error(`${originOf(url)}: ${failureText(err)}`, { cause: err });
    }
    const where = originOf(url);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location !== null && init.redirect !== 'manual') {
      await res.body?.cancel().catch(() => {});
      release();
      // Not a FetchRefused: the request did go out; its answer is what is refused.
      throw new Error(`${where} answered with a redirect (HTTP ${res.status}), which is not followed`);
    }
    const declared = Number(res.headers.get('content-length') ?? NaN);
    const events = /^text\/event-stream\b/i.test(res.headers.get('content-type') ?? '');
    const tooLarge = () => {
      const err = new ResponseTooLarge(
        `the answer from ${where} is over the ${sizeText(policy.maxBodyBytes)} cap on ${policy.what}; stopped reading it`,
      );
      policy.onRefusal?.(err);
      return err;
    };
    if (!events && declared > policy.maxBodyBytes) {
      await res.body?.cancel().catch(() => {});
      release();
      throw tooLarge();
    }
    const body = res.body && !NULL_BODY.has(res.status) ? capBody(res.body, policy.maxBodyBytes, events, tooLarge, release) : null;
    if (!body) {
      await res.body?.cancel().catch(() => {});
      release();
    }
    const out = new Response(body, { status: res.status, statusText: res.statusText, headers: [...res.headers] });
    Object.defineProperty(out, 'url', { value: url.href });
    return out;
  };
}

function parseUrl(text: string): URL {
  try {
    return new URL(text);
  } catch {
    throw new FetchRefused(`not an absolute URL: ${text.slice(0, 100)}`);
  }
}

/**
 * The body, read on demand and cut at `max` bytes — of the whole body, or, for
 * an event stream (which may last all day), of any one event: the bytes between
 * two blank lines. `done` runs once, when the body ends either way.
 */
function capBody(
  source: ReadableStream<Uint8Array>,
  max: number,
  events: boolean,
  tooLarge: () => Error,
  done: () => void,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let size = 0;
  // Event streams: a blank line is two line ends in a row (\n, \r or \r\n each).
  let lastWasEnd = false;
  let lastWasCr = false;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    done();
  };
  const measure = (chunk: Uint8Array) => {
    if (!events) {
      size += chunk.byteLength;
      return;
    }
    for (const b of chunk) {
      if (b === 0x0a && lastWasCr) {
        lastWasCr = false; // the \n of \r\n: the line end was counted at the \r
        continue;
      }
      if (b === 0x0a || b === 0x0d) {
        if (lastWasEnd) size = 0;
        lastWasEnd = true;
        lastWasCr = b === 0x0d;
        continue;
      }
      lastWasEnd = false;
      lastWasCr = false;
      size += 1;
      if (size > max) return;
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done: end, value } = await reader.read();
          if (end) {
            finish();
            controller.close();
            return;
          }
          measure(value);
          if (size > max) {
            await reader.cancel().catch(() => {});
            finish();
            controller.error(tooLarge());
            return;
          }
          controller.enqueue(value);
        } catch (err) {
          finish();
          controller.error(err);
        }
      },
      async cancel(reason) {
        await reader.cancel(reason).catch(() => {});
        finish();
      },
    },
    { highWaterMark: 0 },
  );
}

function sizeText(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes}-byte`;
}
