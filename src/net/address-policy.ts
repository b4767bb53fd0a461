import ipaddr from 'ipaddr.js';

/**
 * The SSRF address policy: what an IP address is, whoever wrote it.
 *
 *   blocked  never reachable, whatever url_scope says — an exact-host entry
 *            included: link-local (where most clouds' instance metadata lives:
 *            169.254.169.254, 169.254.170.2, fe80::/10), the metadata addresses
 *            outside it (METADATA below: 192.0.0.0/24 as the Go original blocks
 *            it, for Oracle's 192.0.0.192; 100.100.100.200; the IPv6 ones),
 *            unspecified, broadcast and multicast addresses.
 *   private  loopback, RFC 1918, unique-local, carrier-grade NAT and every other
 *            special-purpose range: reachable only through an exact-host
 *            url_scope.allow entry, never through `*` or `*.domain`.
 *   public   everything else.
 *
 * IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64,
 * 6to4) are judged by the embedded address too, and the stricter verdict wins.
 */
export type AddressClass = { kind: 'public' } | { kind: 'private'; range: string } | { kind: 'blocked'; reason: string };

/** Host names that resolve to a metadata service inside clouds: refused before any lookup. */
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
]);

const BLOCKED_V4 = new Set(['unspecified', 'broadcast', 'multicast', 'linkLocal']);
const BLOCKED_V6 = new Set(['unspecified', 'multicast', 'linkLocal']);
/** Cloud metadata endpoints, named (the link-local ranges around the first two are blocked whole anyway). */
const METADATA: ReadonlyArray<readonly [cidr: string, what: string]> = [
  ['169.254.169.254/32', 'the instance metadata service of AWS, Azure, Google Cloud and most others'],
  ['169.254.170.2/32', 'AWS ECS task metadata'],
  ['192.0.0.0/24', 'IETF protocol assignments, where Oracle Cloud serves metadata at 192.0.0.192'],
  ['100.100.100.200/32', 'Alibaba Cloud metadata'],
  ['168.63.129.16/32', 'Azure WireServer'],
  ['fd00:ec2::254/128', 'AWS metadata (IPv6)'],
  ['fd20:ce::254/128', 'Google Cloud metadata (IPv6)'],
  ['fd00:c1::a9fe:a9fe/128', 'Oracle Cloud metadata (IPv6)'],
  ['fd00:a9fe:a9fe::1/128', 'Linode metadata (IPv6)'],
];
const METADATA_RANGES = METADATA.map(([cidr, what]) => ({ range: ipaddr.parseCIDR(cidr), what }));

/** A host name that is a cloud metadata endpoint, or null. */
export function blockedHostName(hostname: string): string | null {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return METADATA_HOSTS.has(name) ? `${name} is a cloud metadata endpoint and is always blocked` : null;
}

/** Whether the URL's host is an IP literal (URL.hostname form: dotted IPv4 or bracketed IPv6). */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : null;
}

export function classifyAddress(address: string): AddressClass {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/%.*$/, ''));
  } catch {
    return { kind: 'blocked', reason: `"${address}" is not an IP address` };
  }
  if (parsed.kind() === 'ipv4') return classifyV4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  const own = classifyV6(v6);
  const embedded = embeddedV4(v6);
  if (!embedded) return own;
  const inner = classifyV4(embedded);
  if (inner.kind === 'blocked') return { kind: 'blocked', reason: `${v6.toString()} carries ${embedded.toString()}: ${inner.reason}` };
  // The embedded address names the range better (loopback, RFC 1918) than "IPv4-mapped" does.
  if (inner.kind === 'private') return { kind: 'private', range: `${inner.range} (as ${v6.toString()})` };
  return own;
}

function classifyV4(ip: ipaddr.IPv4): AddressClass {
  return classifyRange(ip, ip.range(), BLOCKED_V4);
}

function classifyV6(ip: ipaddr.IPv6): AddressClass {
  return classifyRange(ip, ip.range(), BLOCKED_V6);
}

function classifyRange(ip: ipaddr.IPv4 | ipaddr.IPv6, range: string, blocked: ReadonlySet<string>): AddressClass {
  const text = ip.toString();
  const metadata = METADATA_RANGES.find((m) => m.range[0].kind() === ip.kind() && ip.match(m.range));
  if (metadata) return { kind: 'blocked', reason: `${text} is a cloud metadata address and is always blocked (${metadata.what})` };
  if (blocked.has(range)) return { kind: 'blocked', reason: `${text} is a ${describe(range)} address and is always blocked` };
  return range === 'unicast' ? { kind: 'public' } : { kind: 'private', range: describe(range) };
}

/** The IPv4 address inside an IPv6 one, where the format defines one. */
function embeddedV4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = ip.parts;
  const fromWords = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (RFC 6145), ::a.b.c.d (IPv4-compatible, deprecated)
  if (p[0] === 0 && p[1] === 0 && p[2] === 0 && p[3] === 0 && (p[4] === 0 || p[4] === 0xffff) && (p[5] === 0xffff || p[5] === 0)) {
    if (p[5] === 0 && p[4] === 0 && p[6] === 0 && p[7]! <= 1) return null; // :: and ::1
    return fromWords(p[6]!, p[7]!);
  }
  if (p[0] === 0x64 && p[1] === 0xff9b && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) return fromWords(p[6]!, p[7]!); // NAT64
  if (p[0] === 0x2002) return fromWords(p[1]!, p[2]!); // 6to4
  return null;
}

const RANGE_NAMES: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local (cloud metadata range)',
  loopback: 'loopback',
  private: 'private (RFC 1918)',
  uniqueLocal: 'unique-local (fc00::/7)',
  carrierGradeNat: 'carrier-grade NAT (100.64.0.0/10)',
  reserved: 'reserved',
};

function describe(range: string): string {
  return RANGE_NAMES[range] ?? `special-purpose (${range})`;
}
