import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import { ANY_HOST, parseAuthority, type AllowedHost, type AllowedHostEntry } from './allowed-hosts.ts';

/**
 * The one Host/Origin policy of every HTTP listener core-agent opens (the attach
 * daemon, watch's health and metrics, `mcp serve --http`, the OAuth login's
 * loopback redirect; docs/network.md#listeners).
 *
 * A web page can make a browser send requests to any address, and by rebinding
 * its own domain to 127.0.0.1 it can also read the answers: the browser then
 * sends the page's Host (`rebind.evil.example:7777`) and, on a write, the page's
 * Origin. So the Host a request names must be one this listener answers to —
 * never "whatever the request says it is" — and a browser's Origin must name one
 * too:
 *
 *   - the loopback names (`localhost`, 127.0.0.0/8, `[::1]`) when the listener is
 *     bound to loopback or to every interface, with the port it listens on;
 *   - the address the connection arrived at (`req.socket.localAddress`: a pod's
 *     IP, which the kubelet's probes and Prometheus send), or the name it was
 *     bound to, with its port;
 *   - a name the operator configured (`attach.allowed_hosts`, `--allowed-host`):
 *     HOST matches any port, HOST:PORT that port only (a Service port or an
 *     ingress differs from the container's);
 *   - `*`, configured explicitly, takes any Host (behind an ingress that checks
 *     it); an Origin must still name one of the hosts above.
 *
 * No Origin (curl, core-agent's own clients) is fine; `Origin: null` (a sandboxed
 * frame, a file) is not. Host names compare case-insensitively and exactly: a
 * trailing dot (`localhost.`) is another name. A request with no Host, two, or
 * one that is not HOST[:PORT] (userinfo, a path, spaces) is refused, and so is a
 * request target that is neither a path nor an allowed absolute URL.
 */

export interface ListenerHostOptions {
  /** The address given to listen(): an IP, `0.0.0.0` / `::` (every interface), or a name. */
  bind: string;
  /** The operator's entries (allowed-hosts.ts parseAllowedHost). */
  allowed?: readonly AllowedHostEntry[];
  /** Where a name is added, for the refusal's sentence, e.g. "attach.allowed_hosts (or --allowed-host)"; none: no name can be. */
  setting?: string;
}

export type HostVerdict =
  /** `host`: the Host as the policy read it, in canonical form (what a library that re-parses it should be shown). */
  { ok: true; url: URL; host: string } | { ok: false; status: 400 | 403; field: 'Host' | 'Origin' | 'path'; error: string };

/** A host as compared: canonical IP text (IPv4-mapped IPv6 as IPv4), else the lower-case name. */
function canonicalHost(host: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const noZone = bare.replace(/%.*$/, '');
  if (ipaddr.IPv6.isValid(noZone) || ipaddr.IPv4.isValidFourPartDecimal(noZone)) return ipaddr.process(noZone).toString();
  return bare.toLowerCase();
}

function isIp(host: string): boolean {
  return ipaddr.IPv6.isValid(host) || ipaddr.IPv4.isValidFourPartDecimal(host);
}

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || (isIp(host) && ipaddr.process(host).range() === 'loopback');
}

/** Whether listening here reaches only this machine (a daemon without tokens may listen only there). */
export function isLoopbackBind(host: string): boolean {
  return isLoopbackHost(canonicalHost(host));
}

function isWildcardBind(host: string): boolean {
  const h = canonicalHost(host);
  return h === '' || h === '0.0.0.0' || h === '::';
}

/** Bounded and printable, for a refusal's sentence. */
function shown(text: string): string {
  const clean = text.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 100 ? `${clean.slice(0, 100)}…` : clean;
}

export class ListenerHostPolicy {
  /** The bound name or address, or '' for every interface (0.0.0.0 is no host to name). */
  private readonly bind: string;
  private readonly coversLoopback: boolean;
  private readonly named: readonly AllowedHost[];
  private readonly anyHost: boolean;

  constructor(private readonly o: ListenerHostOptions) {
    this.bind = isWildcardBind(o.bind) ? '' : canonicalHost(o.bind);
    this.coversLoopback = this.bind === '' || isLoopbackHost(this.bind);
    const allowed = o.allowed ?? [];
    this.named = allowed.filter((e): e is AllowedHost => e !== ANY_HOST).map((e) => ({ host: canonicalHost(e.host), port: e.port }));
    this.anyHost = allowed.includes(ANY_HOST);
  }

  /** Admit the request (with its target parsed) or say why not; run before anything else looks at it. */
  check(req: IncomingMessage): HostVerdict {
    const local = { address: canonicalHost(req.socket.localAddress ?? ''), port: req.socket.localPort ?? 0 };
    const hosts = req.headersDistinct.host ?? [];
    if (hosts.length === 0) return this.refuse(400, 'Host', 'the request has no Host header: name the host you connect to');
    if (hosts.length > 1) return this.refuse(400, 'Host', 'the request has more than one Host header');
    const host = parseAuthority(hosts[0]!);
    if (!host) return this.refuse(400, 'Host', `the Host header "${shown(hosts[0]!)}" is not HOST[:PORT]`);
    const name = canonicalHost(host.host);
    if (!this.answersTo(name, host.port ?? 80, local, true)) {
      const add = this.o.setting ? `; if that name is yours (a Service, an ingress), add it to ${this.o.setting}` : '';
      return this.refuse(403, 'Host', `this server does not answer to the host "${shown(hosts[0]!)}"${add}`);
    }
    const target = this.target(req.url ?? '', local);
    if ('error' in target) return this.refuse(400, 'path', target.error);
    const origins = req.headersDistinct.origin ?? [];
    if (origins.length > 1) return this.refuse(403, 'Origin', 'the request has more than one Origin header');
    if (origins.length === 1) {
      const why = this.originProblem(origins[0]!, local);
      if (why) return this.refuse(403, 'Origin', why);
    }
    const canonical = `${name.includes(':') ? `[${name}]` : name}${host.port === null ? '' : `:${host.port}`}`;
    return { ok: true, url: target.url, host: canonical };
  }

  private answersTo(host: string, port: number, local: { address: string; port: number }, asHost: boolean): boolean {
    if (this.named.some((e) => e.host === host && (e.port === null || e.port === port))) return true;
    if (asHost && this.anyHost) return true;
    if (port !== local.port) return false;
    if (this.coversLoopback && isLoopbackHost(host)) return true;
    return host !== '' && (host === local.address || host === this.bind);
  }

  /** Origin-form ("/path?q"), or an absolute URL naming a host this server answers to (as a proxy would send). */
  private target(raw: string, local: { address: string; port: number }): { url: URL } | { error: string } {
    const absolute = /^https?:\/\//i.test(raw);
    if (!absolute && !raw.startsWith('/')) return { error: `the request target "${shown(raw)}" is not a path` };
    let url: URL;
    try {
      // Origin-form is a path even when it starts with "//" (never an authority).
      url = new URL(absolute ? raw : `http://listener.invalid${raw}`);
    } catch {
      return { error: `the request target "${shown(raw)}" is not a path` };
    }
    if (!absolute) return { url };
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    if (!this.answersTo(canonicalHost(url.hostname), port, local, true)) {
      return { error: `the request target names the host "${shown(url.host)}", which this server does not answer to` };
    }
    return { url };
  }

  private originProblem(origin: string, local: { address: string; port: number }): string | null {
    if (origin === 'null') return 'a request from an opaque origin (Origin: null: a sandboxed frame, a file, a data: URL) is refused';
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return `the Origin header "${shown(origin)}" is not a URL`;
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') {
      return `the Origin header "${shown(origin)}" is not an http(s) origin`;
    }
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    if (this.answersTo(canonicalHost(url.hostname), port, local, false)) return null;
    const add = this.o.setting ? ` (${this.o.setting})` : '';
    return `the Origin ${shown(url.origin)} is refused: only a page served from a host this server answers to may call it${add}`;
  }

  private refuse(status: 400 | 403, field: 'Host' | 'Origin' | 'path', error: string): HostVerdict {
    return { ok: false, status, field, error };
  }
}
