import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Recipe } from '../../src/config/recipe-schema.ts';
import { principal } from '../../src/core/principal.ts';
import { silentLogger } from '../../src/log.ts';
import { startPeerFleet } from '../../src/runtime/peers-step.ts';
import { tempDir } from '../helpers/workspace.ts';

const recipe = (peers: Recipe['peers']) => ({ peers }) as Recipe;

describe('the peers: section at start-up', () => {
  it('a hub opens its registry under the state directory; a member registers with it', async () => {
    const state = await tempDir();
    // The member listens on loopback: the hub's operator names it.
    const hub = startPeerFleet(recipe({ hub: true, private_hosts: ['127.0.0.1'] }), {}, state, silentLogger);
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      void hub.route!(req, res, url, { principal: req.headers.authorization ?? 'anonymous', who: principal('anonymous') }).then(
        (ok) => ok || res.writeHead(404).end(),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const hubUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const member = startPeerFleet(
      recipe({ register: { hub_url: hubUrl, token_env: 'HUB_TOKEN', name: 'op-1', endpoint: 'http://127.0.0.1:7001' } }),
      { HUB_TOKEN: 'member-token' },
      await tempDir(),
      silentLogger,
    );
    expect(member.registry).toBeUndefined();
    await member.registration!.firstAttempt;
    expect(hub.registry!.peers()).toEqual([{ name: 'op-1', endpoint: 'http://127.0.0.1:7001' }]);
    expect(existsSync(path.join(state, 'peers.json'))).toBe(true);
    await member.close();
    expect(hub.registry!.peers()).toEqual([]);
    await hub.close();
    server.close();
  });

  it('a registration token named but unset, or a broken state file, fails start-up', async () => {
    const register = { hub_url: 'http://127.0.0.1:1', token_env: 'HUB_TOKEN', name: 'op-1', endpoint: 'http://127.0.0.1:7001' };
    expect(() => startPeerFleet(recipe({ register }), {}, '/nonexistent', silentLogger)).toThrow(/HUB_TOKEN, which is unset/);
    const state = await tempDir();
    await writeFile(path.join(state, 'peers.json'), 'not json');
    expect(() => startPeerFleet(recipe({ hub: true }), {}, state, silentLogger)).toThrow(/peers\.hub: .*peers\.json is not JSON/);
  });
});
