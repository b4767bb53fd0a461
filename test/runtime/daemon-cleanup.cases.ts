// Every way a daemon ends closes what it opened (src/runtime/closer.ts): each case is a `watch`
// or `serve` command line of the built bundle, how it ends — a signal once it is up, or a
// failure part-way through its start — and what it says. The runner then holds that the process
// ended by itself (a server, a timer or a registration left open would keep it alive) and that
// the session database was closed (no descriptor of it still open when the command has
// returned). `{port}` is a port the test holds; `{free}` one nothing listens on.
// One line a case.

export interface DaemonCleanupCase {
  name: string;
  argv: string[];
  /** The recipe file (recipe.yaml), when the line names one. */
  recipe?: string;
  env?: Record<string, string>;
  /** 'up': wait until the daemon answers, then send the signal. Absent: it ends on its own. */
  stop?: { signal: 'SIGTERM' | 'SIGINT' };
  code: number;
  /** What stdout and stderr together must say. */
  says: RegExp;
}

const W = ['watch', '-c', 'recipe.yaml', '--model', 'replay:s.jsonl', '--session-db', 's.db', '--listen', '127.0.0.1:0'];
const S = ['serve', '--model', 'replay:s.jsonl', '--session-db', 's.db'];
const WATCHES = 'watch: { namespaces: [shop], reasons: [BackOff] }';

export const DAEMON_CLEANUP_CASES: DaemonCleanupCase[] = [
  {
    name: 'watch: SIGTERM once up',
    argv: W,
    recipe: WATCHES,
    stop: { signal: 'SIGTERM' },
    code: 0,
    says: /watch: stopped \(0 session\(s\) finished, 0 left to resume\)/,
  },
  { name: 'watch: SIGINT once up', argv: W, recipe: WATCHES, stop: { signal: 'SIGINT' }, code: 0, says: /watch: stopped \(/ },
  {
    name: 'watch with attach: SIGTERM once up',
    argv: W,
    recipe: `${WATCHES}\nattach: { listen: "127.0.0.1:0" }`,
    stop: { signal: 'SIGTERM' },
    code: 0,
    says: /attach API on http:[^]*watch: stopped \(/,
  },
  {
    name: 'watch: its health port taken',
    argv: [...W.slice(0, -1), '127.0.0.1:{port}'],
    recipe: WATCHES,
    code: 1,
    says: /cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE/,
  },
  {
    name: 'watch: its attach port taken (after the health port)',
    argv: W,
    recipe: `${WATCHES}\nattach: { listen: "127.0.0.1:{port}" }`,
    code: 1,
    says: /cannot serve the attach API on 127\.0\.0\.1:\d+/,
  },
  {
    name: 'watch: attach off loopback without a token',
    argv: W,
    recipe: `${WATCHES}\nattach: { listen: "0.0.0.0:0" }`,
    code: 2,
    says: /not loopback\) needs --token-env/,
  },
  {
    name: "watch: attach's token variable unset",
    argv: W,
    recipe: `${WATCHES}\nattach: { listen: "127.0.0.1:0", token_env: NO_SUCH_TOKEN }`,
    code: 2,
    says: /--token-env: NO_SUCH_TOKEN is not set/,
  },
  {
    name: 'watch: peers: without attach:',
    argv: W,
    recipe: `${WATCHES}\npeers: { hub: true }`,
    code: 2,
    says: /a peers: section but no attach: section/,
  },
  {
    name: "watch: a hub's registry up, its attach port taken",
    argv: W,
    recipe: `${WATCHES}\nattach: { listen: "127.0.0.1:{port}" }\npeers: { hub: true }`,
    code: 1,
    says: /cannot serve the attach API/,
  },
  {
    name: "watch: peers.register's token variable unset",
    argv: W,
    recipe: `${WATCHES}\nattach: { listen: "127.0.0.1:0" }\npeers: { register: { hub_url: "http://127.0.0.1:{free}", name: w1, endpoint: "http://127.0.0.1:{free}", token_env: NO_SUCH_TOKEN } }`,
    code: 2,
    says: /peers\.register\.token_env names NO_SUCH_TOKEN/,
  },
  {
    name: 'serve: SIGTERM once up',
    argv: [...S, '--listen', '127.0.0.1:0'],
    stop: { signal: 'SIGTERM' },
    code: 0,
    says: /serve: attach API on http:[^]*serve: stopped/,
  },
  {
    name: 'serve: SIGINT once up, registering with a hub that is not there',
    argv: [...S, '--listen', '127.0.0.1:0', '-c', 'recipe.yaml'],
    recipe: 'peers: { register: { hub_url: "http://127.0.0.1:{free}", name: s1, endpoint: "http://127.0.0.1:7777" } }',
    stop: { signal: 'SIGINT' },
    code: 0,
    says: /registering as s1[^]*serve: stopped/,
  },
  {
    name: 'serve: a peer hub, SIGTERM once up',
    argv: [...S, '--listen', '127.0.0.1:0', '-c', 'recipe.yaml'],
    recipe: 'peers: { hub: true }',
    stop: { signal: 'SIGTERM' },
    code: 0,
    says: /peer hub at \/peers[^]*serve: stopped/,
  },
  { name: 'serve: its port taken', argv: [...S, '--listen', '127.0.0.1:{port}'], code: 1, says: /cannot serve: .*EADDRINUSE/ },
  {
    name: 'serve: a hub, its port taken',
    argv: [...S, '--listen', '127.0.0.1:{port}', '-c', 'recipe.yaml'],
    recipe: 'peers: { hub: true }',
    code: 1,
    says: /cannot serve: /,
  },
  {
    name: 'serve: its token variable unset',
    argv: [...S, '--listen', '127.0.0.1:0', '--token-env', 'NO_SUCH_TOKEN'],
    code: 2,
    says: /--token-env: NO_SUCH_TOKEN is not set/,
  },
  { name: 'serve: off loopback without a token', argv: [...S, '--listen', '0.0.0.0:0'], code: 2, says: /not loopback\) needs --token-env/ },
];
