import path from 'node:path';
import { startPeerRegistration, type PeerRegistration } from '../attach/peer-register.ts';
import { PeerRegistry } from '../attach/peers-registry.ts';
import { peersRoute } from '../attach/peers-route.ts';
import type { Route } from '../attach/route.ts';
import { peerHostsNamed } from '../config/peer-hosts.ts';
import type { Recipe } from '../config/recipe-schema.ts';
import type { Logger } from '../log.ts';
import { SettingsError } from './settings.ts';

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
      registry = PeerRegistry.open({ file: path.join(stateDir, 'peers.json'), logger, privateHosts: peerHostsNamed(recipe.peers) });
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
