import type { PeersConfig } from './peers-schema.ts';

// Apart from peers-schema.ts, whose zod schema a start must not evaluate: the peers family's
// services (src/tools/peers/services.ts) import this at every start, for every command.

/**
 * The hosts the recipe names for the fleet — peers.private_hosts, and its own
 * hub and endpoint under peers.register — which alone may be loopback or private
 * when a registration points at them (the hub's registry, call_peer).
 */
export function peerHostsNamed(peers: PeersConfig | undefined): string[] {
  const hosts = [...(peers?.private_hosts ?? [])];
  for (const u of [peers?.register?.hub_url, peers?.register?.endpoint]) if (u) hosts.push(new URL(u).hostname);
  return hosts;
}
