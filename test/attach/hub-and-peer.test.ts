import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle } from '../helpers/cli.ts';
import { call, eventually, readSse, type Frame } from './daemon.ts';

/**
 * Two (and more) real `core-agent serve` processes on 127.0.0.1: a hub whose
 * replayed model calls call_peer, and peers that registered themselves with it
 * through their recipes' peers.register — call_peer against our own daemon, not
 * a stand-in, so what it reads is what the daemon really streams.
 */

// Every secret here is distinct and greppable: none may reach a log or a session database.
const CLIENT = 'client-secret-5d1e0c7a9b2f4638';
const HUB_TO_PEERS = 'hub-to-peers-secret-8c2b6e1f0a9d4735';
const WORKER_TO_HUB = 'worker-to-hub-secret-3f9a1c7e5b2d8046';
const SLEEPER_TO_HUB = 'sleeper-to-hub-secret-6b0d2f8a4c1e9357';
const SECRETS = [CLIENT, HUB_TO_PEERS, WORKER_TO_HUB, SLEEPER_TO_HUB];

/** call_peer's deadline on the hubs: the sleeper's turn never ends, so this is all it may cost. */
const DEADLINE_S = 3;

interface Daemon {
  name: string;
  dir: string;
  db: string;
  url: string;
  child: ChildProcessWithoutNullStreams;
  out: () => string;
  err: () => string;
}

const daemons: Daemon[] = [];

/** Poll an async check until it gives a value (a generous bound: this is about order, not speed). */
async function polled<T>(check: () => Promise<T | null>, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== null) return v;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** `core-agent serve` in its own directory (HOME, state, session db) with a replay script and a recipe. */
async function serve(o: {
  name: string;
  script: readonly object[];
  recipe: string;
  tokens: string;
  env?: Record<string, string>;
  port?: number;
  flags?: string[];
}): Promise<Daemon> {
  const dir = mkdtempSync(path.join(tmpdir(), `fleet-${o.name}-`));
  writeFileSync(path.join(dir, 'script.jsonl'), o.script.map((s) => JSON.stringify(s)).join('\n') + '\n');
  writeFileSync(path.join(dir, 'recipe.yaml'), o.recipe);
  const db = path.join(dir, 'sessions.db');
  const args = [
    'serve',
    ...['--listen', `127.0.0.1:${o.port ?? 0}`, '--token-env', 'ATTACH_TOKENS'],
    ...['-c', path.join(dir, 'recipe.yaml'), '-m', `replay:${path.join(dir, 'script.jsonl')}`, '--session-db', db],
    ...(o.flags ?? []),
  ];
  const child = spawn(process.execPath, [bundle, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, ATTACH_TOKENS: o.tokens, ...o.env },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const d: Daemon = { name: o.name, dir, db, url: '', child, out: () => out, err: () => err };
  daemons.push(d);
  const url = await eventually(() => /attach API on (http:\/\/\S+)/.exec(out)?.[1] ?? (child.exitCode !== null ? 'exited' : null), 60_000);
  if (url === 'exited') throw new Error(`${o.name} exited: ${err}`);
  d.url = url;
  return d;
}

function stop(d: Daemon): Promise<void> {
  if (d.child.exitCode !== null || d.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    d.child.once('close', () => resolve());
    d.child.kill('SIGTERM');
  });
}

const hubRecipe = `peers:
  hub: true
  token_env: PEER_TOKEN
  private_hosts: [127.0.0.1]   # the workers listen on loopback
tools:
  call_peer:
    enabled: true
    timeout_seconds: ${DEADLINE_S}
`;

const peerRecipe = (hub: string, name: string, port: number) => `peers:
  register:
    hub_url: ${hub}
    token_env: FLEET_TOKEN
    name: ${name}
    endpoint: http://127.0.0.1:${port}
    labels: { role: ${name} }
    ttl_seconds: 30
`;

const WORKER_ANSWER = 'worker here: prod-1 has 12 nodes, all Ready';

interface ToolResult {
  args: string;
  ok: boolean;
  shown: unknown;
  failure?: string;
}

/** The result of the call to `peer` among a turn's tool results. */
const callTo = (results: ToolResult[], peer: string) => results.find((r) => (JSON.parse(r.args) as { peer: string }).peer === peer);

/** Run one turn on a hub: create a session, inject, and read its events until the turn ends. */
async function hubTurn(hub: Daemon, prompt: string): Promise<{ sid: string; frames: Frame[]; results: ToolResult[] }> {
  const created = await call(hub.url, 'POST', '/sessions', { token: CLIENT });
  expect(created.status).toBe(201);
  const sid = String(created.json!.sessionID);
  const frames = await readSse(`${hub.url}/sessions/${sid}/events`, {
    token: CLIENT,
    timeoutMs: 90_000,
    onOpen: () => call(hub.url, 'POST', `/sessions/${sid}/inject`, { token: CLIENT, body: { message: prompt } }),
    until: (fs) => fs.some((f) => f.event === 'turn-complete' || f.event === 'turn-error'),
  });
  const results = frames.filter((f) => f.event === 'tool_result').map((f) => f.data.data as ToolResult);
  return { sid, frames, results };
}

/** Every file under a directory, as bytes (the session databases with their WAL files, the state files). */
function filesUnder(dir: string): Array<{ file: string; bytes: Buffer }> {
  const out: Array<{ file: string; bytes: Buffer }> = [];
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const file = path.join(dir, name);
    if (statSync(file).isFile()) out.push({ file, bytes: readFileSync(file) });
  }
  return out;
}

describe('a hub and its peers, as serve processes on 127.0.0.1', () => {
  let hub: Daemon;
  let denyHub: Daemon;
  let worker: Daemon;
  let sleeper: Daemon;

  beforeAll(async () => {
    const hubScript = [
      {
        tool_calls: [
          { name: 'call_peer', args: { peer: 'worker', prompt: 'how many nodes does prod-1 have?' } },
          { name: 'call_peer', args: { peer: 'nobody', prompt: 'hello?' } },
          { name: 'call_peer', args: { peer: 'sleeper', prompt: 'take your time' } },
        ],
      },
      { text: 'the hub is done' },
    ];
    const hubEnv = { PEER_TOKEN: HUB_TO_PEERS };
    const hubTokens = `client=${CLIENT},worker-daemon=${WORKER_TO_HUB},sleeper-daemon=${SLEEPER_TO_HUB}`;
    [hub, denyHub] = await Promise.all([
      serve({ name: 'hub', script: hubScript, recipe: hubRecipe, tokens: hubTokens, env: hubEnv, flags: ['--yolo'] }),
      serve({
        name: 'deny-hub',
        script: [{ tool_calls: [hubScript[0]!.tool_calls![0]!] }, { text: 'the deny hub is done' }],
        recipe: hubRecipe,
        tokens: hubTokens,
        env: hubEnv,
        flags: ['--yolo', '--deny', 'call_peer:work*'],
      }),
    ]);
    const [workerPort, sleeperPort] = [await freePort(), await freePort()];
    [worker, sleeper] = await Promise.all([
      serve({
        name: 'worker',
        script: [{ text: WORKER_ANSWER }],
        recipe: peerRecipe(hub.url, 'worker', workerPort),
        tokens: `hub=${HUB_TO_PEERS}`,
        env: { FLEET_TOKEN: WORKER_TO_HUB },
        port: workerPort,
      }),
      serve({
        name: 'sleeper',
        // Its turn never ends: the tool call runs for ten minutes.
        script: [{ tool_calls: [{ name: 'bash', args: { command: 'sleep 600' } }] }, { text: 'woke up' }],
        recipe: peerRecipe(hub.url, 'sleeper', sleeperPort),
        tokens: `hub=${HUB_TO_PEERS}`,
        env: { FLEET_TOKEN: SLEEPER_TO_HUB },
        port: sleeperPort,
        flags: ['--yolo'],
      }),
    ]);
    // The deny hub gets the worker too (registered by hand), so only the rule stands between them.
    const registered = await call(denyHub.url, 'POST', '/peers', {
      token: WORKER_TO_HUB,
      body: { name: 'worker', endpoint: worker.url },
    });
    expect(registered.status).toBe(201);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(daemons.splice(0).map(stop));
  });

  it('the peers registered themselves with the hub through their recipes', async () => {
    const peers = await polled(async () => {
      const r = await call(hub.url, 'GET', '/peers', { token: CLIENT });
      const list = (r.json?.peers ?? []) as Array<Record<string, unknown>>;
      return list.length === 2 ? list : null;
    }, 30_000);
    expect(peers.map((p) => p.name).sort()).toEqual(['sleeper', 'worker']);
    expect(peers.find((p) => p.name === 'worker')).toMatchObject({ endpoint: worker.url, labels: { role: 'worker' } });
    // The client is no owner: no registration ids for it.
    expect(peers.every((p) => p.registration_id === undefined)).toBe(true);
  }, 60_000);

  let turn: { sid: string; frames: Frame[]; results: ToolResult[] };

  it("the hub's call_peer gets the worker's replayed answer, and the hub's turn ends", async () => {
    await polled(async () =>
      ((await call(hub.url, 'GET', '/peers', { token: CLIENT })).json?.peers as unknown[]).length === 2 ? true : null,
    );
    turn = await hubTurn(hub, 'ask the fleet');
    const end = turn.frames.find((f) => f.event === 'turn-complete' || f.event === 'turn-error')!;
    expect(end.event).toBe('turn-complete');
    const ok = callTo(turn.results, 'worker')!;
    expect(ok.ok, JSON.stringify(ok)).toBe(true);
    const output = (typeof ok.shown === 'string' ? JSON.parse(ok.shown) : ok.shown) as Record<string, unknown>;
    expect(output).toMatchObject({ peer: 'worker', response: WORKER_ANSWER });
    expect(typeof output.duration_ms).toBe('number');
    // The session it names is on the worker, with the prompt and the answer in it.
    const sid = String(output.session_id);
    const onWorker = await readSse(`${worker.url}/sessions/${sid}/events`, {
      token: HUB_TO_PEERS,
      until: (fs) => fs.some((f) => f.event === 'turn_end'),
    });
    expect(JSON.stringify(onWorker)).toContain('how many nodes does prod-1 have?');
    expect(JSON.stringify(onWorker)).toContain(WORKER_ANSWER);
  }, 120_000);

  it('an unknown name fails, listing the registered peers', () => {
    const r = callTo(turn.results, 'nobody')!;
    expect(r).toMatchObject({ ok: false, failure: 'not_found' });
    expect(JSON.stringify(r.shown)).toMatch(/no peer named .*nobody.* the registered peers are sleeper, worker/);
  });

  it("a peer whose turn never ends costs only call_peer's deadline", () => {
    const r = callTo(turn.results, 'sleeper')! as ToolResult & { ms: number };
    expect(r).toMatchObject({ ok: false, failure: 'deadline' });
    expect(JSON.stringify(r.shown)).toMatch(new RegExp(`did not finish its turn within ${DEADLINE_S}s`));
    expect(r.ms).toBeGreaterThanOrEqual(DEADLINE_S * 1000 - 50);
    expect(r.ms).toBeLessThan((DEADLINE_S + 10) * 1000);
    // The whole hub turn: the worker's answer, the lookup and the one deadline, with a generous margin.
    const at = (f: Frame) => Date.parse(String(f.data.at));
    const logged = turn.frames.filter((f) => typeof f.data.at === 'string');
    expect(at(logged.at(-1)!) - at(logged[0]!)).toBeLessThan((DEADLINE_S + 20) * 1000);
  });

  it('--deny call_peer:work* refuses the call before anything reaches the worker', async () => {
    const before = ((await call(worker.url, 'GET', '/sessions', { token: HUB_TO_PEERS })).json!.sessions as unknown[]).length;
    const denied = await hubTurn(denyHub, 'ask the worker');
    const r = callTo(denied.results, 'worker')!;
    expect(r).toMatchObject({ ok: false, failure: 'denied' });
    expect(JSON.stringify(r.shown)).toMatch(/denied by permissions\.deny rule .*call_peer:work\*/);
    expect(denied.frames.find((f) => f.event === 'turn-complete')).toBeDefined();
    const after = ((await call(worker.url, 'GET', '/sessions', { token: HUB_TO_PEERS })).json!.sessions as unknown[]).length;
    expect(after).toBe(before);
  }, 120_000);

  it("no token appears in any daemon's output, session database or state files", async () => {
    await Promise.all(daemons.map(stop));
    for (const d of daemons) {
      const logs = d.out() + d.err();
      expect(logs.length).toBeGreaterThan(0);
      for (const secret of SECRETS) expect(logs, `${d.name}'s output`).not.toContain(secret);
      const files = filesUnder(d.dir).filter((f) => !f.file.endsWith('.yaml') && !f.file.endsWith('.jsonl'));
      expect(files.some((f) => path.basename(f.file) === 'sessions.db')).toBe(true);
      for (const f of files) for (const secret of SECRETS) expect(f.bytes.includes(secret), `${f.file} holds a token`).toBe(false);
    }
    // The databases are not empty of what happened: the search would find a token there.
    const hubDb = filesUnder(hub.dir).filter((f) => f.file.includes('sessions.db'));
    expect(hubDb.some((f) => f.bytes.includes('how many nodes does prod-1 have?'))).toBe(true);
  }, 60_000);
});
