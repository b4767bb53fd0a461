import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PeerRegistry, type PeerRegistryOptions } from '../../src/attach/peers-registry.ts';
import { tempDir } from '../helpers/workspace.ts';
import { startHub } from './peer-hub.ts';
import { PEER_ROUTE_CASES } from './peers.cases.ts';

/** The operator named 127.0.0.1 (peers.private_hosts): the fake peers and hubs listen there. */
const LOOPBACK = ['127.0.0.1'];

async function seeded(opts: PeerRegistryOptions = {}) {
  const registry = PeerRegistry.open({ privateHosts: LOOPBACK, ...opts });
  const prod = registry.register({ name: 'prod-1', endpoint: 'http://127.0.0.1:9001', labels: { env: 'prod', region: 'eu' } }, 'alice');
  registry.register({ name: 'dev-1', endpoint: 'http://127.0.0.1:9003', labels: { env: 'dev' } }, 'bob');
  return { registry, prodId: prod.registration_id! };
}

async function send(url: string, as: string, method: string, p: string, o: { body?: unknown; raw?: string; contentType?: string } = {}) {
  const body = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
  const res = await fetch(`${url}${p}`, {
    method,
    headers: { Authorization: `Bearer ${as}`, 'Content-Type': o.contentType ?? 'application/json' },
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

type Row = { name: string; registration_id?: string };

describe('the peers route', () => {
  for (const c of PEER_ROUTE_CASES) {
    it(c.name, async () => {
      const { registry, prodId } = await seeded();
      const hub = await startHub(registry);
      const r = await send(hub.url, c.as, c.method, c.path.replace('{prod-1}', prodId), c);
      expect(r.status, JSON.stringify(r.json)).toBe(c.status);
      if (c.status >= 400 && c.status !== 405) expect(typeof r.json.error).toBe('string');
      if (c.field !== undefined) expect(r.json.field).toBe(c.field);
      if (c.status === 201) {
        expect(r.json.registration_id).toMatch(/^reg-[0-9a-f]{16}$/);
        expect(r.json.registration_id).not.toBe(prodId);
        expect(Object.keys(r.json)).not.toContain('owner');
      }
      const rows = (r.json.peers ?? []) as Row[];
      if (c.names) expect(rows.map((p) => p.name)).toEqual(c.names);
      if (c.ids) expect(rows.filter((p) => p.registration_id !== undefined).map((p) => p.name)).toEqual(c.ids);
      if (c.after) {
        const after = await send(hub.url, 'alice', 'GET', '/peers');
        expect((after.json.peers as Row[]).map((p) => p.name)).toEqual(c.after);
      }
      // An error never echoes a huge input back.
      expect(JSON.stringify(r.json).length).toBeLessThan(1000 + (c.status < 300 ? 5000 : 0));
    });
  }

  it('a request without a principal never reaches the route (the stub answers 401)', async () => {
    const { registry } = await seeded();
    const hub = await startHub(registry);
    expect((await fetch(`${hub.url}/peers`)).status).toBe(401);
  });
});

describe('leases', () => {
  it('a peer whose TTL ran out drops out of the roster; a heartbeat in time keeps it', async () => {
    let now = Date.parse('2026-12-01T12:00:00Z');
    const registry = PeerRegistry.open({ privateHosts: LOOPBACK, now: () => now });
    const a = registry.register({ name: 'a', endpoint: 'http://127.0.0.1:1', heartbeat_ttl_sec: 30 }, 'alice');
    registry.register({ name: 'b', endpoint: 'http://127.0.0.1:2', heartbeat_ttl_sec: 30 }, 'alice');
    now += 20_000;
    expect(registry.heartbeat(a.registration_id!, 'alice')?.lease_expires_at).toBe('2026-12-01T12:00:50.000Z');
    now += 15_000; // b: 35 s since its registration
    expect(registry.list({}, 'alice').map((p) => p.name)).toEqual(['a']);
    expect(registry.peers().map((p) => p.name)).toEqual(['a']);
    now += 20_000;
    expect(registry.peers()).toEqual([]);
    expect(registry.heartbeat(a.registration_id!, 'alice')).toBeUndefined();
  });

  it('a TTL above the ceiling is cut to it (5 minutes)', () => {
    const now = Date.parse('2026-12-01T12:00:00Z');
    const registry = PeerRegistry.open({ privateHosts: LOOPBACK, now: () => now });
    const p = registry.register({ name: 'a', endpoint: 'http://127.0.0.1:1', heartbeat_ttl_sec: 86_400 }, 'alice');
    expect(p.lease_expires_at).toBe('2026-12-01T12:05:00.000Z');
  });

  it('a name whose owner let the lease run out can be taken by another principal', () => {
    let now = 0;
    const registry = PeerRegistry.open({ privateHosts: LOOPBACK, now: () => now });
    registry.register({ name: 'a', endpoint: 'http://127.0.0.1:1', heartbeat_ttl_sec: 10 }, 'alice');
    expect(() => registry.register({ name: 'a', endpoint: 'http://127.0.0.1:2' }, 'bob')).toThrow(/another principal/);
    now += 11_000;
    expect(registry.register({ name: 'a', endpoint: 'http://127.0.0.1:2' }, 'bob').endpoint).toBe('http://127.0.0.1:2');
  });
});

describe('the state file', () => {
  it('survives a restart: peers, leases, owners and ids; written 0600', async () => {
    const file = path.join(await tempDir(), 'state', 'peers.json');
    const { registry, prodId } = await seeded({ file });
    const before = registry.list({}, 'alice');
    const again = PeerRegistry.open({ privateHosts: LOOPBACK, file });
    expect(again.list({}, 'alice')).toEqual(before);
    // Ownership came back too: bob still cannot take prod-1 or delete it.
    expect(() => again.register({ name: 'prod-1', endpoint: 'http://127.0.0.1:1' }, 'bob')).toThrow(/another principal/);
    expect(again.delete(prodId, 'bob')).toBe('forbidden');
    expect(again.delete(prodId, 'alice')).toBe('deleted');
    expect(
      PeerRegistry.open({ privateHosts: LOOPBACK, file })
        .peers()
        .map((p) => p.name),
    ).toEqual(['dev-1']);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('a restart over the HTTP API keeps what was registered through it', async () => {
    const file = path.join(await tempDir(), 'peers.json');
    const hub = await startHub(PeerRegistry.open({ privateHosts: LOOPBACK, file }));
    expect((await send(hub.url, 'alice', 'POST', '/peers', { body: { name: 'ops-1', endpoint: 'http://127.0.0.1:7' } })).status).toBe(201);
    const restarted = await startHub(PeerRegistry.open({ privateHosts: LOOPBACK, file }));
    const r = await send(restarted.url, 'alice', 'GET', '/peers');
    expect((r.json.peers as Row[]).map((p) => [p.name, p.registration_id !== undefined])).toEqual([['ops-1', true]]);
  });

  it('an entry whose lease ran out while the hub was down is not revived', async () => {
    const file = path.join(await tempDir(), 'peers.json');
    let now = 1_000_000;
    PeerRegistry.open({ privateHosts: LOOPBACK, file, now: () => now }).register(
      { name: 'a', endpoint: 'http://127.0.0.1:1', heartbeat_ttl_sec: 10 },
      'alice',
    );
    now += 60_000;
    expect(PeerRegistry.open({ privateHosts: LOOPBACK, file, now: () => now }).peers()).toEqual([]);
  });

  it('a state file that is not JSON fails start-up, naming the file; a malformed entry is skipped', async () => {
    const dir = await tempDir();
    const broken = path.join(dir, 'broken.json');
    await writeFile(broken, '{"peers": [');
    expect(() => PeerRegistry.open({ privateHosts: LOOPBACK, file: broken })).toThrow(/broken\.json is not JSON/);
    const partial = path.join(dir, 'partial.json');
    const { registry } = await seeded({ file: partial });
    const saved = JSON.parse(await readFile(partial, 'utf8')) as { peers: unknown[] };
    saved.peers.push({ name: 'evil', endpoint: 'javascript:alert(1)' });
    await writeFile(partial, JSON.stringify(saved));
    const warnings: unknown[] = [];
    const logger = { warn: (o: unknown) => warnings.push(o) } as never;
    expect(PeerRegistry.open({ privateHosts: LOOPBACK, file: partial, logger }).peers()).toEqual(registry.peers());
    expect(warnings).toHaveLength(1);
  });
});
