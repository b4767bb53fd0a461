import { ATTACH_LISTEN_DEFAULT, PROMPT_TIMEOUT_DEFAULT_S } from '../attach/defaults.ts';
import { UsageError } from '../core/usage-error.ts';
import { startAttachApi } from './attach-api.ts';
import { prepareServe } from './attach-step.ts';
import { CannotListenError, Closer, stopSignal } from './closer.ts';
import type { FlagSettings } from './settings.ts';
import { buildSystem } from './system.ts';
import { incidentAccess, usersFileOf } from './attach-api.ts';
import { recipeDirOf } from './recipe-step.ts';

// `core-agent serve`, assembled: the steps before the first request (prepareServe), the attach
// API on its address, the peer hub's route beside it, and one Closer for all of it.

export interface AttachDaemonRequest {
  flags: FlagSettings;
  env: NodeJS.ProcessEnv;
  /** Notes on stderr (a damaged database moved aside). */
  say: (text: string) => void;
  /** --fresh-session-db. */
  fresh: boolean;
  maxSteps: number | undefined;
  /** --listen, --token-env, --allowed-host, --prompt-timeout: each over the recipe's attach: section, over the defaults. */
  listen: string | undefined;
  tokenEnv: string | undefined;
  /** --users-file, over CORE_AGENT_USERS_FILE, over attach.users_file (relative to the recipe's folder). */
  usersFile: string | undefined;
  allowedHosts: readonly string[];
  promptTimeoutS: number | undefined;
  /** Called once the API listens: the daemon is up. */
  onReady: () => void;
}

export interface AttachDaemon {
  address: string;
  dbPath: string;
  modelSpec: string;
  /** This daemon hosts the peer registry (/peers). */
  hub: boolean;
  /** peers.register: the name it registers as, and with which hub. */
  registered: { name: string; hub: string } | undefined;
  /** Serves until SIGINT or SIGTERM, then closes everything it opened. */
  run(): Promise<void>;
}

/**
 * Starts the attach daemon: the recipe, the model (checked once), the store, the peers: section
 * and the API. A mistake in the command line or the recipe is a UsageError, an address it cannot
 * take a CannotListenError; either way what was opened is closed first.
 */
export async function startAttachDaemon(r: AttachDaemonRequest): Promise<AttachDaemon> {
  let report: (what: string, err: unknown) => void = (what, err) =>
    r.say(`core-agent: closing ${what} failed: ${(err as Error).message}\n`);
  const closer = new Closer((what, err) => report(what, err));
  return closer.closeOnFailure(async () => {
    const sys = await prepareServe({
      flags: r.flags,
      env: r.env,
      command: 'serve',
      say: r.say,
      fresh: r.fresh,
      maxSteps: r.maxSteps,
      build: (req) => buildSystem(req),
    });
    report = (what, err) => sys.logger.error({ err, what }, 'closing failed');
    closer.add('stores', 'the session database', () => sys.log.close());
    closer.add('registration', 'the peer registration', () => sys.peers.close());
    const section = sys.recipe.attach;
    const listen = r.listen ?? section?.listen ?? ATTACH_LISTEN_DEFAULT;
    let api;
    try {
      api = await startAttachApi({
        listen,
        tokenEnv: r.tokenEnv ?? section?.token_env,
        serviceAccess: incidentAccess(section),
        usersFile: usersFileOf(r.usersFile, r.env, section?.users_file, recipeDirOf(sys.settings, process.cwd())),
        allowedHosts: [...(section?.allowed_hosts ?? []), ...r.allowedHosts],
        advertised: sys.recipe.peers?.register?.endpoint,
        env: r.env,
        log: sys.log,
        startSession: sys.startSession,
        logger: sys.logger,
        promptTimeoutMs: (r.promptTimeoutS ?? section?.prompt_timeout_seconds ?? PROMPT_TIMEOUT_DEFAULT_S) * 1000,
        command: 'serve',
        // peers.hub: the registry's /peers beside the session API.
        extraRoutes: sys.peers.route ? [sys.peers.route] : [],
      });
    } catch (err) {
      if (err instanceof UsageError) throw err;
      throw new CannotListenError(`cannot serve: ${(err as Error).message}`);
    }
    closer.add('servers', 'the attach API', () => api.close());
    r.onReady();
    const register = sys.recipe.peers?.register;
    // Listening before the command says it is up: a SIGTERM sent on reading that line must find
    // the listener, not Node's default action (the process killed, exit by signal instead of 0).
    const signalled = stopSignal(closer, 'ends');
    return {
      address: api.server.address,
      dbPath: sys.dbPath,
      modelSpec: sys.modelSpec,
      hub: sys.peers.registry !== undefined,
      registered: register ? { name: register.name, hub: register.hub_url } : undefined,
      run: async () => {
        await signalled;
        await closer.closeAll();
      },
    };
  });
}
