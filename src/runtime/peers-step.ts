import path from 'node:path';
import { startPeerRegistration, type PeerRegistration } from '../attach/peer-register.ts';
import { PeerRegistry } from '../attach/peers-registry.ts';
import { peersRoute } from '../attach/peers-route.ts';
import type { Route } from '../attach/route.ts';
import type { Recipe } from '../config/recipe-schema.ts';
import type { Logger } from '../log.ts';
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

/** What a daemon's peers: section starts: the hub's registry and route, and its own registration with a hub. */
export interface PeerFleet {
  /** The registry, on a hub: mount `route` and hand `registry` to each session as `peerRoster`. */
  readonly registry: PeerRegistry | undefined;
  readonly route: Route | undefined;
  readonly registration: PeerRegistration | undefined;
  close(): Promise<void>;
}

/**
 * For the serve command: open the registry under the state directory when
 * peers.hub is set (its file failing to load fails start-up), and register
 * with a hub when peers.register is set, the token read here from the
 * variable register.token_env names (named but unset is a start-up error).
 */
export function startPeerFleet(recipe: Recipe, env: NodeJS.ProcessEnv, stateDir: string, logger: Logger): PeerFleet {
  const peers = recipe.peers;
  const register = peers?.register;
  let token: string | undefined;
  if (register?.token_env !== undefined) {
    token = env[register.token_env]?.trim();
    if (!token)
      throw new SettingsError(`peers.register.token_env names ${register.token_env}, which is unset or empty; set it or remove token_env`);
  }
  let registry: PeerRegistry | undefined;
  if (peers?.hub === true) {
    try {
      registry = PeerRegistry.open({ file: path.join(stateDir, 'peers.json'), logger });
    } catch (err) {
      throw new SettingsError(`peers.hub: ${(err as Error).message}`);
    }
    registry.startSweep();
  }
  const registration = register ? startPeerRegistration({ config: register, token, logger }) : undefined;
  return {
    registry,
    route: registry ? peersRoute(registry) : undefined,
    registration,
    async close() {
      await registration?.close();
      registry?.close();
    },
  };
}
