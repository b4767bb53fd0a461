import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PeerRegistry } from '../../src/attach/peers-registry.ts';
import { recordCalls } from '../../src/runtime/record-calls.ts';
import { EventLog } from '../../src/store/event-log.ts';
import { setup, tempDir } from '../helpers/workspace.ts';
import { CALL_PEER_CASES, type CallPeerCase } from './call-peer.cases.ts';
import { startFakePeer, type FakePeer } from './fake-peer.ts';

/** The operator named 127.0.0.1 (peers.private_hosts): the fake peers and hubs listen there. */
const LOOPBACK = ['127.0.0.1'];

const TOKEN = 'planted-peer-token-5d1f0c';

const ROSTER: Array<[string, string]> = [
  ['ops-1', 'ok'],
  ['tools-1', 'tools'],
  ['nomulti-1', 'no-multi'],
  ['slow-1', 'slow'],
  ['huge-1', 'huge'],
  ['fail-1', 'fail'],
  ['auth-1', 'deny-401'],
  ['gone-1', 'hangup'],
  ['prod-1', 'ok'],
  ['prod-eu-2', 'ok'],
];

function rosterFor(peer: FakePeer): PeerRegistry {
  const registry = PeerRegistry.open({ privateHosts: LOOPBACK });
  for (const [name, mode] of ROSTER) registry.register({ name, endpoint: `${peer.url}/${mode}` }, 'op');
  registry.register({ name: 'down-1', endpoint: 'http://127.0.0.1:1' }, 'op');
  return registry;
}

async function hub(peer: FakePeer, token: CallPeerCase['token'] = 'set', extra = '') {
  return setup({
    flags: { mode: 'yolo' }, // only the deny rule may refuse
    env: token === 'set' ? { PEER_TOKEN: TOKEN } : {},
    services: { peerRoster: rosterFor(peer) },
    recipe: [
      `peers: { hub: true, private_hosts: [127.0.0.1]${token === 'none' ? '' : ', token_env: PEER_TOKEN'} }`,
      'tools: { call_peer: { enabled: true, timeout_seconds: 1, max_response_bytes: 1025 } }',
      'permissions: { deny: ["tool.call_peer:prod-*"] }',
      extra,
    ].join('\n'),
  });
}

const prompt = 'how many nodes are Ready in the prod-1 pool?';

describe('call_peer', () => {
  for (const c of CALL_PEER_CASES) {
    it(c.name, async () => {
      const peer = await startFakePeer();
      const rt = await hub(peer, c.token);
      const started = Date.now();
      const r = await rt.dispatcher.call('call_peer', { peer: c.peer.replace('{url}', peer.url), prompt });
      // Bounded: the 1 s deadline and nothing else (generous margin for a loaded machine).
      expect(Date.now() - started).toBeLessThan(10_000);
      if (c.ok) {
        expect(r.ok, r.ok ? '' : r.error).toBe(true);
        if (!r.ok) return;
        expect(Object.keys(r.result).sort()).toEqual(
          ['duration_ms', 'peer', 'response', 'session_id', ...(c.truncated ? ['truncated'] : [])].sort(),
        );
        expect(r.result.peer).toBe(c.peer);
        expect(r.result.session_id).toMatch(/^s-\d+$/);
        expect(r.result.response).toMatch(c.ok);
        expect(typeof r.result.duration_ms).toBe('number');
        if (c.truncated) expect(Buffer.byteLength(r.result.response as string)).toBeLessThanOrEqual(1025);
        // A fresh session per call, subscribed before the prompt went in.
        expect(peer.seen.map((s) => `${s.method} ${s.path.replace(/^\/[^/]+/, '')}`)).toEqual([
          'POST /sessions',
          `GET /sessions/core-agent/${r.result.session_id}/events`,
          `POST /sessions/core-agent/${r.result.session_id}/inject`,
        ]);
        expect(JSON.parse(peer.seen[2]!.body)).toEqual({ message: prompt });
      } else {
        expect(r.ok).toBe(false);
        if (r.ok) return;
        expect(r.error).toMatch(c.error!);
        if (c.kind) expect(r.kind).toBe(c.kind);
        expect(r.error).not.toContain(TOKEN);
      }
      if (!c.reached) expect(peer.seen).toEqual([]);
      // The token goes to the peer as a bearer, and nowhere else.
      for (const s of peer.seen) expect(s.auth).toBe(c.token === 'none' ? undefined : `Bearer ${TOKEN}`);
    });
  }

  it('two calls get two sessions (callers never share a transcript)', async () => {
    const peer = await startFakePeer();
    const rt = await hub(peer);
    const a = await rt.ok('call_peer', { peer: 'ops-1', prompt: 'one' });
    const b = await rt.ok('call_peer', { peer: 'ops-1', prompt: 'two' });
    expect(a.session_id).not.toBe(b.session_id);
  });

  it('the model sees only peer and prompt: no URL, header or token argument', async () => {
    const peer = await startFakePeer();
    const rt = await hub(peer);
    const tool = rt.catalog.list().find((t) => t.name === 'call_peer')!;
    expect(tool.kind).toBe('execute');
    expect(Object.keys((tool.inputSchema as { properties: object }).properties)).toEqual(['peer', 'prompt']);
    expect(await rt.refused('call_peer', { peer: 'ops-1', prompt: 'x', url: 'http://169.254.169.254' })).toMatch(/url/);
    expect(JSON.stringify(tool.inputSchema) + tool.description).not.toContain(TOKEN);
  });

  it('the planted token never reaches a result, an error or the session database', async () => {
    const peer = await startFakePeer();
    const rt = await hub(peer);
    const dir = await tempDir();
    const log = EventLog.open(path.join(dir, 'sessions.db'));
    const sid = log.createSession({ model: 'test', workspace: rt.dir, title: 'call_peer' });
    rt.dispatcher.recordTo(recordCalls(log, sid, rt.session));
    const outputs: string[] = [];
    for (const p of ['ops-1', 'huge-1', 'slow-1', 'fail-1', 'nomulti-1', 'auth-1', 'nope', 'prod-1']) {
      outputs.push(JSON.stringify(await rt.dispatcher.call('call_peer', { peer: p, prompt })));
    }
    expect(outputs.join('\n')).not.toContain(TOKEN);
    expect(peer.seen.length).toBeGreaterThan(0);
    expect(peer.seen.every((s) => s.auth === `Bearer ${TOKEN}`)).toBe(true);
    const events = log.events(sid);
    expect(events.length).toBe(8);
    expect(JSON.stringify(events)).not.toContain(TOKEN);
    log.close();
    for (const f of await readdir(dir)) expect((await readFile(path.join(dir, f))).includes(TOKEN), f).toBe(false);
  });
});

describe('where call_peer exists', () => {
  it('not enabled on a hub: not registered, with the reason', async () => {
    const rt = await setup({ services: { peerRoster: PeerRegistry.open({ privateHosts: LOOPBACK }) }, recipe: 'peers: { hub: true }\n' });
    expect(rt.catalog.has('call_peer')).toBe(false);
    expect(rt.catalog.notRegistered('call_peer')).toMatch(/with tools\.call_peer\.enabled/);
  });

  it('a hub recipe read by another command (no registry handed in): no call_peer, no failure', async () => {
    const rt = await setup({ recipe: 'peers: { hub: true }\ntools: { call_peer: { enabled: true } }\n' });
    expect(rt.catalog.has('call_peer')).toBe(false);
    expect(rt.catalog.notRegistered('call_peer')).toMatch(/only in the peer hub daemon/);
  });

  it('enabled in a recipe that is no hub: start-up fails, saying what to do', async () => {
    await expect(setup({ recipe: 'tools: { call_peer: { enabled: true } }\n' })).rejects.toThrow(
      /call_peer runs only on a peer hub; start it with core-agent serve and peers\.hub: true/,
    );
  });

  it('the recipe checks the peers section: tokens are named by variable, URLs carry no credentials', async () => {
    await expect(setup({ recipe: 'peers: { token_env: "not a name" }\n' })).rejects.toThrow(/token_env/);
    await expect(
      setup({ recipe: 'peers:\n  register: { hub_url: "http://u:p@hub:7777", name: a, endpoint: "http://127.0.0.1:1" }\n' }),
    ).rejects.toThrow(/hub_url/);
  });
});
