/**
 * Kubeconfigs the lean transport (src/k8s/kube-http.ts) must serve as the library
 * would, each against a fake API on 127.0.0.1 (kube-http.test.ts): what the file says,
 * and what the API must see — the Authorization header, the client certificate, the
 * TLS name — or the sentence the connection fails with.
 *
 * `server` is the fake API's URL; `dir` the kubeconfig's folder, where `files` are
 * written first (relative paths in a kubeconfig are relative to it).
 */
export interface SeenRequest {
  authorization: string | undefined;
  impersonate: string | undefined;
  userAgent: string | undefined;
  servername: string | false | undefined;
  /** The subject CN of the client certificate the server verified, if any. */
  clientCn: string | undefined;
}

export interface KubeconfigCase {
  what: string;
  /** TLS the fake API serves: the test CA's localhost certificate (default), a self-signed one, or none. */
  api?: 'https' | 'self-signed' | 'http';
  /** The server asks for a client certificate and trusts self-signed.pem as its CA. */
  clientCerts?: true;
  files?: (fixtures: Fixtures) => Record<string, string>;
  user?: Record<string, unknown> | ((fixtures: Fixtures) => Record<string, unknown>);
  cluster?: (server: string, fixtures: Fixtures) => Record<string, unknown>;
  /** What the API saw on the one GET the case makes. */
  sees?: Partial<SeenRequest>;
  /** Or the GET fails with this. */
  fails?: RegExp;
}

export interface Fixtures {
  /** The test CA, as text and as the path of its file. */
  ca: string;
  caFile: string;
  caB64: string;
  clientCert: string;
  clientKey: string;
  clientCertB64: string;
  clientKeyB64: string;
  /** A node script that prints an ExecCredential (argv: token [expiry] [count-file]). */
  execPlugin: string;
}

const trusted = (server: string, f: Fixtures) => ({ server, 'certificate-authority': f.caFile });

export const KUBECONFIG_CASES: readonly KubeconfigCase[] = [
  {
    what: 'a bearer token, the CA from a file',
    user: { token: 'tok-1' },
    cluster: trusted,
    sees: { authorization: 'Bearer tok-1', impersonate: undefined },
  },
  {
    what: 'a relative CA path, resolved against the kubeconfig’s folder',
    files: (f) => ({ 'certs/ca.pem': f.ca }),
    user: { token: 'tok-rel' },
    cluster: (server) => ({ server, 'certificate-authority': 'certs/ca.pem' }),
    sees: { authorization: 'Bearer tok-rel' },
  },
  {
    what: 'the CA as base64 data',
    user: { token: 'tok-2' },
    cluster: (server, f) => ({ server, 'certificate-authority-data': f.caB64 }),
    sees: { authorization: 'Bearer tok-2' },
  },
  {
    what: 'no CA for a server the system does not trust: refused, naming the TLS failure',
    user: { token: 'tok-3' },
    cluster: (server) => ({ server }),
    fails: /^cannot reach the Kubernetes API at https:\/\/127\.0\.0\.1:\d+: .*(certificate|self.signed)/i,
  },
  {
    what: 'insecure-skip-tls-verify for a self-signed server',
    api: 'self-signed',
    user: { token: 'tok-4' },
    cluster: (server) => ({ server, 'insecure-skip-tls-verify': true }),
    sees: { authorization: 'Bearer tok-4' },
  },
  {
    what: 'a self-signed server and the test CA: refused',
    api: 'self-signed',
    user: { token: 'tok-5' },
    cluster: trusted,
    fails: /^cannot reach the Kubernetes API at https:\/\/127\.0\.0\.1:\d+: /,
  },
  {
    what: 'tls-server-name: the certificate is checked against that name, and SNI carries it',
    user: { token: 'tok-6' },
    cluster: (server, f) => ({ server, 'certificate-authority': f.caFile, 'tls-server-name': 'svc.test' }),
    sees: { servername: 'svc.test' },
  },
  {
    what: 'tls-server-name the certificate does not cover: refused',
    user: { token: 'tok-7' },
    cluster: (server, f) => ({ server, 'certificate-authority': f.caFile, 'tls-server-name': 'elsewhere.test' }),
    fails: /^cannot reach the Kubernetes API at .*elsewhere\.test/,
  },
  {
    what: 'a client certificate and key from files',
    clientCerts: true,
    files: (f) => ({ 'client.pem': f.clientCert, 'client.key': f.clientKey }),
    user: { 'client-certificate': 'client.pem', 'client-key': 'client.key' },
    cluster: trusted,
    sees: { clientCn: 'localhost', authorization: undefined },
  },
  {
    what: 'a client certificate and key as base64 data',
    clientCerts: true,
    user: (f) => ({ 'client-certificate-data': f.clientCertB64, 'client-key-data': f.clientKeyB64 }),
    cluster: trusted,
    sees: { clientCn: 'localhost' },
  },
  {
    what: 'a client certificate file that is not there',
    user: { 'client-certificate': 'missing.pem', 'client-key': 'missing.key' },
    cluster: trusted,
    fails: /^cannot read the kubeconfig's client-certificate \/.*\/missing\.pem: ENOENT$/,
  },
  {
    what: 'a token file',
    files: () => ({ 'token.txt': 'tok-from-file' }),
    user: { 'token-file': '<dir>/token.txt' },
    cluster: trusted,
    sees: { authorization: 'Bearer tok-from-file' },
  },
  {
    what: 'basic auth',
    user: { username: 'ada', password: 'pw' },
    cluster: trusted,
    sees: { authorization: `Basic ${Buffer.from('ada:pw').toString('base64')}` },
  },
  {
    what: 'impersonation (as)',
    user: { token: 'tok-8', as: 'system:serviceaccount:ops:reader' },
    cluster: trusted,
    sees: { authorization: 'Bearer tok-8', impersonate: 'system:serviceaccount:ops:reader' },
  },
  {
    what: 'an exec plugin’s token (client.authentication.k8s.io/v1)',
    user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: '<node>', args: ['<plugin>', 'tok-exec'] } },
    cluster: trusted,
    sees: { authorization: 'Bearer tok-exec' },
  },
  {
    what: 'an exec plugin under auth-provider.config.exec (older kubeconfigs)',
    user: { 'auth-provider': { name: 'exec', config: { exec: { command: '<node>', args: ['<plugin>', 'tok-old'] } } } },
    cluster: trusted,
    sees: { authorization: 'Bearer tok-old' },
  },
  {
    what: 'an exec plugin that fails: its stderr, as an unauthorized failure',
    user: { exec: { command: '<node>', args: ['-e', "process.stderr.write('gcloud: not logged in\\n'); process.exit(1)"] } },
    cluster: trusted,
    fails: /^the kubeconfig's exec plugin ".*" failed: gcloud: not logged in$/,
  },
  {
    what: 'an exec plugin that is not installed',
    user: { exec: { command: 'gke-gcloud-auth-plugin-not-here', args: [] } },
    cluster: trusted,
    fails: /^the kubeconfig's exec plugin "gke-gcloud-auth-plugin-not-here" failed: spawn gke-gcloud-auth-plugin-not-here ENOENT$/,
  },
  {
    what: 'plain http with insecure-skip-tls-verify (the library’s rule)',
    api: 'http',
    user: { token: 'tok-9' },
    cluster: (server) => ({ server, 'insecure-skip-tls-verify': true }),
    sees: { authorization: 'Bearer tok-9' },
  },
  {
    what: 'plain http without it: refused before any request',
    api: 'http',
    user: { token: 'tok-10' },
    cluster: (server) => ({ server }),
    fails: /^cannot load the Kubernetes configuration: the cluster "c" is served over plain http; set insecure-skip-tls-verify: true/,
  },
  {
    what: 'a user with no credentials at all: the request goes out unauthenticated',
    user: {},
    cluster: trusted,
    sees: { authorization: undefined, clientCn: undefined },
  },
];
