import type { OutboundPolicy } from '../../net/outbound-fetch.ts';

/**
 * What call_peer may know of the fleet, handed in by the root on a peer hub:
 * the live roster (read on every call — leases come and go) and the bearer
 * token for peers. Deliberately not the registry: no registration ids, no
 * owners, no way to register or delete.
 */
export interface PeerEntry {
  readonly name: string;
  readonly endpoint: string;
}

/** The token call_peer sends, resolved by the root from `peers.token_env`. */
export type PeerBearer =
  /** No peers.token_env configured: calls go without Authorization (a loopback fleet without tokens). */
  | { readonly none: true }
  | { readonly token: string }
  /** peers.token_env names a variable that is unset or empty: every call fails, never anonymous. */
  | { readonly unset: string };

export interface PeerDirectory {
  peers(): readonly PeerEntry[];
  bearer(): PeerBearer;
  /**
   * Where call_peer may go: the hosts the operator named (peers.private_hosts, the
   * recipe's own hub and endpoint), which alone may be loopback or private.
   */
  readonly destinations: Pick<OutboundPolicy, 'namedHosts' | 'setting' | 'resolve'>;
}

/** The live roster, as the call_peer registry needs it (the hub's PeerRegistry has this shape). */
export interface PeerRoster {
  peers(): readonly PeerEntry[];
}
