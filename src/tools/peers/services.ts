import { SettingsError } from '../../core/settings-error.ts';
import { peerHostsNamed } from '../../config/peer-hosts.ts';
import type { FamilyServices } from '../framework/family.ts';
import type { MissingReasons } from '../framework/services.ts';
import type { PeerDirectory, PeerRoster } from './peer-directory.ts';

declare module '../framework/services.ts' {
  interface ToolServices {
    /** The peer hub's registry, handed to the root by `serve` with peers.hub: true: what call_peer resolves names against. */
    readonly peerRoster?: PeerRoster | undefined;
    /** The peer hub's roster and the peers' token (call_peer): only on a hub with tools.call_peer.enabled. */
    readonly peers?: PeerDirectory | undefined;
  }
}

/**
 * call_peer's service: the hub's live roster and the peers' token. Given only
 * when the recipe enables tools.call_peer AND this process is a peer hub (the
 * serve command hands its registry in). Enabling it in a recipe that is no
 * hub's fails start-up, rather than registering a tool whose every call must
 * fail; a hub's recipe read by another command (recipe validate, tools list,
 * run) just has no call_peer, with the reason. The
 * token is read from the variable peers.token_env names at each call, so a
 * rotated secret is picked up, and an unset one fails the call instead of
 * sending it anonymously.
 */
export const services: FamilyServices = ({ recipe, env, resolver, services: given }) => {
  const section = (recipe.tools as Record<string, { enabled?: boolean } | undefined> | undefined)?.['call_peer'];
  if (section?.enabled !== true) return {};
  if (recipe.peers?.hub !== true) {
    throw new SettingsError(
      'tools.call_peer.enabled: call_peer runs only on a peer hub; start it with core-agent serve and peers.hub: true in the recipe, or remove tools.call_peer.enabled',
    );
  }
  const roster = given.peerRoster;
  if (!roster) return {};
  const tokenEnv = recipe.peers?.token_env;
  const peers: PeerDirectory = {
    peers: () => roster.peers(),
    bearer: () => {
      if (tokenEnv === undefined) return { none: true };
      const token = env[tokenEnv]?.trim();
      return token ? { token } : { unset: tokenEnv };
    },
    destinations: { namedHosts: peerHostsNamed(recipe.peers), setting: 'peers.private_hosts', resolve: resolver },
  };
  return { peers };
};

export const missing: MissingReasons = {
  peers: () => 'call_peer runs only in the peer hub daemon (core-agent serve, peers.hub: true) with tools.call_peer.enabled',
};
