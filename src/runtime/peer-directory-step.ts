import type { Recipe } from '../config/recipe-schema.ts';
import type { PeerDirectory, PeerRoster } from '../tools/peers/peer-directory.ts';
import { SettingsError } from './settings.ts';

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
export function peerDirectoryStep(recipe: Recipe, env: NodeJS.ProcessEnv, roster: PeerRoster | undefined): PeerDirectory | undefined {
  const section = (recipe.tools as Record<string, { enabled?: boolean } | undefined> | undefined)?.['call_peer'];
  if (section?.enabled !== true) return undefined;
  if (recipe.peers?.hub !== true) {
    throw new SettingsError(
      'tools.call_peer.enabled: call_peer runs only on a peer hub; start it with core-agent serve and peers.hub: true in the recipe, or remove tools.call_peer.enabled',
    );
  }
  if (!roster) return undefined;
  const tokenEnv = recipe.peers?.token_env;
  return {
    peers: () => roster.peers(),
    bearer: () => {
      if (tokenEnv === undefined) return { none: true };
      const token = env[tokenEnv]?.trim();
      return token ? { token } : { unset: tokenEnv };
    },
  };
}
