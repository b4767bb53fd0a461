/**
 * Kubeconfigs, and the files and plugins they name, that must end in one bounded sentence —
 * never an out-of-memory, a hang or a stack trace — one case a line; hostile-kubeconfig.test.ts
 * runs each through the built CLI.
 *
 * - `load`: the kubeconfig itself cannot be used. `watch` and a run whose recipe says
 *   `kubernetes: {required: true}` exit 2 with the reason; a k8s tool call fails (exit 1) with it.
 * - `request`: the kubeconfig loads, and what it names for a request (a CA, a key, a token file,
 *   an exec plugin) is refused at the first call: a k8s tool call fails (exit 1) with the reason.
 *
 * `make` writes what KUBECONFIG names into `dir` and returns its path (helpers in the runner:
 * `kubeconfig(user?, cluster?)` writes a usable one pointing at a closed port). `error` is
 * matched after "cannot load the Kubernetes configuration: " (load) or in the tool's error.
 */
export interface HostileKubeconfigCase {
  name: string;
  stage: 'load' | 'request';
  make: (dir: string, h: Helpers) => Promise<string>;
  error: RegExp;
}

export interface Helpers {
  /** A file of `bytes` bytes, sparse (no disk used) unless `fill` is given. */
  sized(file: string, bytes: number, fill?: string): Promise<string>;
  fifo(file: string): Promise<string>;
  /** A listening UNIX socket, closed after the test. */
  socket(file: string): Promise<string>;
  symlink(target: string, file: string): Promise<string>;
  write(file: string, content: string | Buffer): Promise<string>;
  /** A usable kubeconfig (server https://127.0.0.1:1, never reached) with this user and cluster entry. */
  kubeconfig(file: string, user?: Record<string, unknown>, cluster?: Record<string, unknown>): Promise<string>;
}

const MiB = 1024 * 1024;
const billionLaughs = [
  'a0: &a0 [x, x, x, x, x, x, x, x, x]',
  ...Array.from({ length: 8 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(9).fill(`*a${i}`).join(', ')}]`),
  'clusters: *a8',
].join('\n');
const NOT_REGULAR = 'not a regular file';

// One case a line (prettier would spread each over several).
// prettier-ignore
export const HOSTILE_KUBECONFIG_CASES: HostileKubeconfigCase[] = [
  { name: 'a 10 GB file (sparse)', stage: 'load', make: (d, h) => h.sized(`${d}/kc`, 10 * 1024 ** 3), error: /kc: 10737418240 bytes is over the 1 MiB limit for a kubeconfig; nothing of it was parsed$/ },
  { name: 'one byte over the 1 MiB limit', stage: 'load', make: (d, h) => h.sized(`${d}/kc`, MiB + 1, '#'), error: /kc: 1048577 bytes is over the 1 MiB limit for a kubeconfig/ },
  { name: '/dev/zero', stage: 'load', make: async () => '/dev/zero', error: new RegExp(`^/dev/zero: ${NOT_REGULAR} \\(a character device\\); give a kubeconfig file`) },
  { name: 'a symlink to /dev/zero', stage: 'load', make: (d, h) => h.symlink('/dev/zero', `${d}/kc`), error: /kc: not a regular file \(a character device\)/ },
  { name: 'a FIFO with no writer', stage: 'load', make: (d, h) => h.fifo(`${d}/kc`), error: /kc: not a regular file \(a FIFO\)/ },
  { name: 'a directory', stage: 'load', make: async (d) => d, error: /: not a regular file \(a directory\)/ },
  { name: 'a UNIX socket', stage: 'load', make: (d, h) => h.socket(`${d}/kc.sock`), error: /kc\.sock: not a regular file \(a socket\)/ },
  { name: 'binary garbage (a NUL byte)', stage: 'load', make: (d, h) => h.write(`${d}/kc`, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0])), error: /kc:1:8: not a text file \(a NUL byte\); a kubeconfig is UTF-8 text/ },
  { name: 'not UTF-8', stage: 'load', make: (d, h) => h.write(`${d}/kc`, Buffer.from('clusters: [\xff]\n', 'latin1')), error: /kc:1:12: not a text file \(the byte 0xff is not UTF-8\)/ },
  { name: 'a billion laughs (aliases of aliases)', stage: 'load', make: (d, h) => h.write(`${d}/kc`, billionLaughs), error: /kc:\d+:\d+: alias \*a\d: aliases expand this file past 10000 nodes/ },
  { name: 'an alias inside the node it names', stage: 'load', make: (d, h) => h.write(`${d}/kc`, 'clusters: &c [*c]\n'), error: /kc:1:\d+: alias \*c (is inside the node it names|has no anchor)/ },
  { name: '200 000 nested [', stage: 'load', make: (d, h) => h.write(`${d}/kc`, `clusters: ${'['.repeat(200_000)}${']'.repeat(200_000)}\n`), error: /kc:1:75: flow collections \(\[ and \{\) nested more than 64 levels deep/ },
  { name: '100 000 nested { on one line', stage: 'load', make: (d, h) => h.write(`${d}/kc`, `${'{a: '.repeat(100_000)}1${'}'.repeat(100_000)}\n`), error: /kc:1:\d+: flow collections \(\[ and \{\) nested more than 64 levels deep/ },
  { name: '70 nested "-" on one line', stage: 'load', make: (d, h) => h.write(`${d}/kc`, `clusters:\n${'- '.repeat(70)}x\n`), error: /kc:2:\d+: more than 64 nested "-" on one line/ },
  { name: 'a collection as a key', stage: 'load', make: (d, h) => h.write(`${d}/kc`, '? [a, b]\n: c\n'), error: /kc:1:\d+: a key must be a plain name/ },
  { name: 'a syntax error on every line', stage: 'load', make: (d, h) => h.write(`${d}/kc`, '\tx: 1\n'.repeat(20_000)), error: /kc:1:1: not valid YAML: Tabs are not allowed as indentation/ },
  { name: 'cut short', stage: 'load', make: (d, h) => h.write(`${d}/kc`, 'clusters: [{name: c, cluster: {server: "https://x'), error: /kc:\d+:\d+: not valid YAML/ },
  { name: 'a list, not a mapping', stage: 'load', make: (d, h) => h.write(`${d}/kc`, '- a\n- b\n'), error: /kc is not a kubeconfig core-agent can use: \(the file\)/ },
  { name: 'a /proc file that says it is empty', stage: 'load', make: async () => '/proc/self/status', error: /^\/proc\/self\/status sets no current-context/ },
  { name: 'a CA that is /dev/zero', stage: 'request', make: (d, h) => h.kubeconfig(`${d}/kc`, undefined, { server: 'https://127.0.0.1:1', 'certificate-authority': '/dev/zero' }), error: /the kubeconfig's certificate-authority \/dev\/zero: not a regular file \(a character device\); give a PEM file/ },
  { name: 'a client key of 10 GB (sparse)', stage: 'request', make: async (d, h) => h.kubeconfig(`${d}/kc`, { 'client-certificate-data': 'eA==', 'client-key': await h.sized(`${d}/key.pem`, 10 * 1024 ** 3) }), error: /client-key \S+key\.pem: 10737418240 bytes is over the 1 MiB limit for a certificate or key file/ },
  { name: 'a client certificate that is a FIFO', stage: 'request', make: async (d, h) => h.kubeconfig(`${d}/kc`, { 'client-certificate': await h.fifo(`${d}/cert.pem`), 'client-key-data': 'eA==' }), error: /client-certificate \S+cert\.pem: not a regular file \(a FIFO\)/ },
  { name: 'a missing client certificate', stage: 'request', make: (d, h) => h.kubeconfig(`${d}/kc`, { 'client-certificate': `${d}/nope.pem`, 'client-key-data': 'eA==' }), error: /cannot read the kubeconfig's client-certificate \S+nope\.pem: ENOENT/ },
  { name: 'a token file that is /dev/zero', stage: 'request', make: (d, h) => h.kubeconfig(`${d}/kc`, { 'auth-provider': { name: 'tokenfile', config: { tokenFile: '/dev/zero' } } }), error: /the token file \/dev\/zero: not a regular file \(a character device\)/ },
  { name: 'a token file of 70 KiB', stage: 'request', make: async (d, h) => h.kubeconfig(`${d}/kc`, { 'auth-provider': { name: 'tokenfile', config: { tokenFile: await h.sized(`${d}/token`, 70 * 1024, 't') } } }), error: /the token file \S+token: 71680 bytes is over the 64 KiB limit for a token file/ },
  { name: 'an exec plugin that prints without end', stage: 'request', make: (d, h) => h.kubeconfig(`${d}/kc`, { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'yes' } }), error: /exec plugin "yes" failed: it wrote more than 1 MiB to stdout; an ExecCredential is a few KiB/ },
  { name: 'an exec plugin that floods stderr', stage: 'request', make: (d, h) => h.kubeconfig(`${d}/kc`, { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'sh', args: ['-c', 'yes >&2'] } }), error: /exec plugin "sh" failed: it wrote more than 64 KiB to stderr/ },
  { name: 'an exec plugin that reads its stdin gets nothing, not a wait', stage: 'request', make: (d, h) => h.kubeconfig(`${d}/kc`, { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'cat' } }), error: /exec plugin "cat" failed: .*JSON/ },
];
