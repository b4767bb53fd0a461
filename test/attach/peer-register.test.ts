import { describe, expect, it } from 'vitest';
import { startPeerRegistration } from '../../src/attach/peer-register.ts';
import { PeerRegistry } from '../../src/attach/peers-registry.ts';
import { startHub } from './peer-hub.ts';

/** The operator named 127.0.0.1 (peers.private_hosts): the fake peers and hubs listen there. */
const LOOPBACK = ['127.0.0.1'];

/** The hub stub takes the bearer token as the principal: the token here is a name, and must still never be logged. */
const TOKEN = 'op-token-9c1e7a';

function capture() {
  const lines: string[] = [];
  const rec = (level: string) => (obj: unknown, msg?: string) => lines.push(`${level} ${JSON.stringify(obj)} ${msg ?? ''}`);
  const logger = {
    fatal: rec('fatal'),
    error: rec('error'),
    warn: rec('warn'),
    info: rec('info'),
    debug: rec('debug'),
    trace: rec('trace'),
  };
  return { logger, lines };
}

const until = async (what: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

const config = (hub: string) => ({
  hub_url: hub,
  name: 'op-1',
  endpoint: 'http://127.0.0.1:7001',
  labels: { env: 'prod' },
  ttl_seconds: 30,
});

describe('registering this daemon with a hub', () => {
  it('registers, heartbeats, registers again after a 404, and deregisters on close', async () => {
    const registry = PeerRegistry.open({ privateHosts: LOOPBACK });
    const hub = await startHub(registry);
    const { logger, lines } = capture();
    const reg = startPeerRegistration({ config: config(hub.url), token: TOKEN, logger, intervalMs: 100 });
    await reg.firstAttempt;
    const first = reg.registrationId;
    expect(first).toMatch(/^reg-/);
    expect(registry.list({ env: 'prod' }, TOKEN)).toMatchObject([
      { name: 'op-1', endpoint: 'http://127.0.0.1:7001', registration_id: first },
    ]);
    await until(() => hub.requests.includes(`POST /peers/${first}/heartbeat`));

    // The hub forgets the registration (a restart without state): the next beat's 404 re-registers.
    expect(registry.delete(first!, TOKEN)).toBe('deleted');
    await until(() => reg.registrationId !== undefined && reg.registrationId !== first);
    expect(registry.peers().map((p) => p.name)).toEqual(['op-1']);

    await reg.close();
    expect(registry.peers()).toEqual([]);
    const count = hub.requests.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(hub.requests.length).toBe(count); // no beat after close
    expect(lines.join('\n')).not.toContain(TOKEN);
  });

  it('the TTL decides the interval: a third of it, so a lease never lapses between beats', async () => {
    const registry = PeerRegistry.open({ privateHosts: LOOPBACK });
    const hub = await startHub(registry);
    const reg = startPeerRegistration({ config: { ...config(hub.url), ttl_seconds: 5 }, token: TOKEN, logger: capture().logger });
    await reg.firstAttempt;
    const [peer] = registry.list({}, TOKEN);
    expect(Date.parse(peer!.lease_expires_at) - Date.parse(peer!.registered_at)).toBe(5000);
    await until(() => hub.requests.some((r) => r.endsWith('/heartbeat')), 4000);
    await reg.close();
  });

  it('a hub that is down or refuses is logged and retried, never thrown', async () => {
    const { logger, lines } = capture();
    const down = startPeerRegistration({ config: config('http://127.0.0.1:1'), token: TOKEN, logger, intervalMs: 50 });
    await down.firstAttempt;
    expect(down.registrationId).toBeUndefined();
    await until(() => lines.filter((l) => l.includes('unreachable')).length >= 2);
    await down.close();

    const hub = await startHub(PeerRegistry.open({ privateHosts: LOOPBACK }));
    const refused = startPeerRegistration({ config: { ...config(hub.url), endpoint: 'ftp://x/' }, token: TOKEN, logger, intervalMs: 50 });
    await refused.firstAttempt;
    expect(refused.registrationId).toBeUndefined();
    expect(lines.some((l) => l.includes('refused the registration') && l.includes('endpoint'))).toBe(true);
    await refused.close();
    expect(lines.join('\n')).not.toContain(TOKEN);
  });
});
