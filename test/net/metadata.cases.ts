/**
 * Cloud metadata addresses as data, each in the notations the URL parser and
 * the address policy normalise. Every case is fetched with an exact-host
 * url_scope.allow entry for that very host as written — the entry that opens a
 * loopback or private address — and must still be refused: metadata is always
 * blocked.
 */
export const METADATA_URLS: readonly string[] = [
  // Oracle Cloud, 192.0.0.192, and the rest of 192.0.0.0/24 (the Go original blocks it whole).
  'http://192.0.0.192/opc/v2/instance/',
  'http://3221225664/', // decimal
  'http://0xc00000c0/', // hex
  'http://0300.0.0.0300/', // octal
  'http://192.0.192/', // short form
  'http://192.0.0.192./', // trailing dot
  'http://[::ffff:192.0.0.192]/', // IPv4-mapped IPv6
  'http://[::ffff:c000:c0]/',
  'http://[64:ff9b::192.0.0.192]/', // NAT64
  'http://[2002:c000:c0::]/', // 6to4
  'http://192.0.0.170/',
  // Alibaba Cloud.
  'http://100.100.100.200/latest/meta-data/',
  'http://1684301000/',
  'http://0x646464c8/',
  'http://0144.0144.0144.0310/',
  'http://[::ffff:100.100.100.200]/',
  // Most clouds' instance metadata, and AWS ECS task metadata.
  'http://169.254.169.254/latest/meta-data/',
  'http://2852039166/',
  'http://0xa9fea9fe/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://169.254.170.2/v2/credentials',
  'http://2852039170/',
  // Azure WireServer.
  'http://168.63.129.16/machine?comp=goalstate',
  'http://0xa83f8110/',
  // IPv6 metadata endpoints (unique-local, so otherwise "private": opened by an exact entry).
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://[fd00:0ec2:0000:0000:0000:0000:0000:0254]/',
  'http://[fd20:ce::254]/computeMetadata/v1/',
  'http://[fd00:c1::a9fe:a9fe]/opc/v2/',
  'http://[fd00:a9fe:a9fe::1]/v1/',
  // Names.
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://metadata/',
  'http://metadata.azure.internal/',
];

/** Names that resolve to a metadata address, each with an exact-host entry: refused after the lookup. */
export const RESOLVES_TO_METADATA: ReadonlyArray<readonly [name: string, address: string]> = [
  ['oracle.test', '192.0.0.192'],
  ['ietf.test', '192.0.0.8'],
  ['alibaba.test', '100.100.100.200'],
  ['aws.test', '169.254.169.254'],
  ['wire.test', '168.63.129.16'],
  ['aws6.test', 'fd00:ec2::254'],
  ['gcp6.test', 'fd20:ce::254'],
  ['mapped.test', '::ffff:192.0.0.192'],
];
