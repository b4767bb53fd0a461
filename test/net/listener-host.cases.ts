/**
 * The listeners' Host/Origin policy (src/net/listener-host.ts, docs/network.md#listeners),
 * one request a line, sent as GET and as POST to every HTTP listener core-agent opens,
 * each a real server bound to 127.0.0.1 (test/net/listener-host.test.ts). The listeners
 * that take configuration answer to ALLOWED as well; the OAuth redirect takes none, so
 * a line marked `configured` is refused there as its `unconfigured` says.
 *
 * `{P}` is the listener's port, `{Q}` another port. `host: null` sends HTTP/1.0 with no
 * Host; an array sends the header several times.
 */
export type Verdict = 'admit' | 'foreign-host' | 'bad-host' | 'origin' | 'bad-target';

export interface ListenerHostCase {
  name: string;
  host: string | null | readonly string[];
  origin?: string | readonly string[];
  /** The request target; default the listener's own path. `{path}` is that path. */
  target?: string;
  want: Verdict;
  /** What a listener with no configured names answers instead (lines that rely on ALLOWED). */
  unconfigured?: Verdict;
}

/** What the configurable listeners are given (attach.allowed_hosts, --allowed-host). */
export const ALLOWED = ['agent.example.test', 'svc.example.test:8443', '[fd00::7]:9000'];

export const LISTENER_HOST_CASES: readonly ListenerHostCase[] = [
  // Its own loopback names, with its port.
  { name: '127.0.0.1 with the port', host: '127.0.0.1:{P}', want: 'admit' },
  { name: 'localhost with the port', host: 'localhost:{P}', want: 'admit' },
  { name: '[::1] with the port', host: '[::1]:{P}', want: 'admit' },
  { name: 'the long form of ::1', host: '[0:0:0:0:0:0:0:1]:{P}', want: 'admit' },
  { name: 'IPv4-mapped loopback', host: '[::ffff:127.0.0.1]:{P}', want: 'admit' },
  { name: 'another loopback address', host: '127.0.0.2:{P}', want: 'admit' },
  { name: 'upper case LOCALHOST', host: 'LOCALHOST:{P}', want: 'admit' },
  // The port must be the one it listens on.
  { name: '127.0.0.1 without a port (80)', host: '127.0.0.1', want: 'foreign-host' },
  { name: 'localhost without a port', host: 'localhost', want: 'foreign-host' },
  { name: '127.0.0.1 with another port', host: '127.0.0.1:{Q}', want: 'foreign-host' },
  { name: '[::1] with another port', host: '[::1]:{Q}', want: 'foreign-host' },
  // DNS rebinding and other names.
  { name: 'a rebinding name with the port', host: 'rebind.evil.example:{P}', want: 'foreign-host' },
  {
    name: 'a rebinding name with its matching Origin',
    host: 'rebind.evil.example:{P}',
    origin: 'http://rebind.evil.example:{P}',
    want: 'foreign-host',
  },
  { name: 'a foreign name without a port', host: 'evil.example', want: 'foreign-host' },
  { name: 'localhost. with a trailing dot', host: 'localhost.:{P}', want: 'foreign-host' },
  { name: 'a name under localhost', host: 'app.localhost:{P}', want: 'foreign-host' },
  { name: '127.0.0.1 as one number', host: '2130706433:{P}', want: 'foreign-host' },
  { name: '127.0.0.1 in hex', host: '0x7f.0.0.1:{P}', want: 'foreign-host' },
  { name: '127.0.0.1. with a trailing dot', host: '127.0.0.1.:{P}', want: 'foreign-host' },
  { name: 'the unspecified address', host: '0.0.0.0:{P}', want: 'foreign-host' },
  { name: 'a private address it is not on', host: '10.0.0.1:{P}', want: 'foreign-host' },
  { name: 'a metadata address', host: '169.254.169.254:{P}', want: 'foreign-host' },
  { name: 'a name under an allowed name', host: 'sub.agent.example.test:{P}', want: 'foreign-host' },
  // Not HOST[:PORT].
  { name: 'userinfo before the host', host: 'user@127.0.0.1:{P}', want: 'bad-host' },
  { name: 'a path after the host', host: '127.0.0.1:{P}/sessions', want: 'bad-host' },
  { name: 'a space inside', host: '127.0.0.1 :{P}', want: 'bad-host' },
  { name: 'an empty Host', host: '', want: 'bad-host' },
  { name: 'port 0', host: '127.0.0.1:0', want: 'bad-host' },
  { name: 'a port past 65535', host: '127.0.0.1:99999', want: 'bad-host' },
  { name: 'an empty port', host: '127.0.0.1:', want: 'bad-host' },
  { name: 'an unclosed bracket', host: '[::1:{P}', want: 'bad-host' },
  { name: 'IPv6 without brackets', host: '::1', want: 'bad-host' },
  { name: 'not an IPv6 address in brackets', host: '[1::2::3]:{P}', want: 'bad-host' },
  { name: 'an IPv6 zone', host: '[fe80::1%25lo]:{P}', want: 'bad-host' },
  { name: 'a scheme in the Host', host: 'http://127.0.0.1:{P}', want: 'bad-host' },
  { name: 'no Host at all (HTTP/1.0)', host: null, want: 'bad-host' },
  { name: 'two Host headers, the first allowed', host: ['127.0.0.1:{P}', 'rebind.evil.example:{P}'], want: 'bad-host' },
  // The operator's names.
  { name: 'a configured name, any port', host: 'agent.example.test:{P}', want: 'admit', unconfigured: 'foreign-host' },
  { name: 'a configured name, no port', host: 'agent.example.test', want: 'admit', unconfigured: 'foreign-host' },
  { name: 'a configured name in upper case', host: 'AGENT.Example.TEST:443', want: 'admit', unconfigured: 'foreign-host' },
  { name: 'a configured name with its port', host: 'svc.example.test:8443', want: 'admit', unconfigured: 'foreign-host' },
  { name: 'a configured name with another port', host: 'svc.example.test:{P}', want: 'foreign-host' },
  { name: 'a configured IPv6 address with its port', host: '[fd00:0::7]:9000', want: 'admit', unconfigured: 'foreign-host' },
  { name: 'a configured IPv6 address with another port', host: '[fd00::7]:9001', want: 'foreign-host' },
  // Origin: absent is fine; present, it must name a host this server answers to.
  { name: 'Origin: the listener itself', host: '127.0.0.1:{P}', origin: 'http://127.0.0.1:{P}', want: 'admit' },
  { name: 'Origin: localhost, same port', host: '127.0.0.1:{P}', origin: 'http://localhost:{P}', want: 'admit' },
  { name: 'Origin: [::1], same port', host: 'localhost:{P}', origin: 'http://[::1]:{P}', want: 'admit' },
  { name: 'Origin: null', host: '127.0.0.1:{P}', origin: 'null', want: 'origin' },
  { name: 'Origin: a loopback page on another port', host: '127.0.0.1:{P}', origin: 'http://localhost:{Q}', want: 'origin' },
  { name: 'Origin: 127.0.0.1 on another port', host: '127.0.0.1:{P}', origin: 'http://127.0.0.1:{Q}', want: 'origin' },
  { name: 'Origin: loopback without a port (80)', host: '127.0.0.1:{P}', origin: 'http://127.0.0.1', want: 'origin' },
  { name: 'Origin: a foreign site', host: '127.0.0.1:{P}', origin: 'https://evil.example', want: 'origin' },
  { name: 'Origin: the rebinding name', host: '127.0.0.1:{P}', origin: 'http://rebind.evil.example:{P}', want: 'origin' },
  { name: 'Origin: not a URL', host: '127.0.0.1:{P}', origin: 'not a url', want: 'origin' },
  { name: 'Origin: file://', host: '127.0.0.1:{P}', origin: 'file://', want: 'origin' },
  { name: 'Origin: with userinfo', host: '127.0.0.1:{P}', origin: 'http://u@127.0.0.1:{P}', want: 'origin' },
  { name: 'Origin: twice', host: '127.0.0.1:{P}', origin: ['http://127.0.0.1:{P}', 'https://evil.example'], want: 'origin' },
  {
    name: 'Origin: a configured name over https',
    host: '127.0.0.1:{P}',
    origin: 'https://agent.example.test',
    want: 'admit',
    unconfigured: 'origin',
  },
  {
    name: 'Origin: a configured name with its port',
    host: '127.0.0.1:{P}',
    origin: 'https://svc.example.test:8443',
    want: 'admit',
    unconfigured: 'origin',
  },
  { name: 'Origin: a configured name with another port', host: '127.0.0.1:{P}', origin: 'https://svc.example.test', want: 'origin' },
  {
    name: 'Origin: allowed, Host a rebinding name',
    host: 'rebind.evil.example:{P}',
    origin: 'http://127.0.0.1:{P}',
    want: 'foreign-host',
  },
  // The request target: a path, or an absolute URL naming a host it answers to.
  { name: 'an absolute target naming itself', host: '127.0.0.1:{P}', target: 'http://127.0.0.1:{P}{path}', want: 'admit' },
  {
    name: 'an absolute target naming a rebinding name',
    host: '127.0.0.1:{P}',
    target: 'http://rebind.evil.example:{P}{path}',
    want: 'bad-target',
  },
  { name: 'an absolute target on another port', host: '127.0.0.1:{P}', target: 'http://127.0.0.1:{Q}{path}', want: 'bad-target' },
  { name: 'an asterisk target', host: '127.0.0.1:{P}', target: '*', want: 'bad-target' },
  // (A target that is no path at all, "GET sessions", never reaches a listener: node's parser answers 400.)
];
