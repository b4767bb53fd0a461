import { PROMPT_TIMEOUT_DEFAULT_S } from '../attach/defaults.ts';
import { WATCH_DEFAULTS } from '../config/watch-schema.ts';
import { UsageError } from '../core/usage-error.ts';
import type { AllowedHostEntry } from '../net/allowed-hosts.ts';
import { startHealthServer } from '../watch/health-server.ts';
import { IncidentStore } from '../watch/incident-store.ts';
import { WatchMetrics } from '../watch/metrics.ts';
import { Watcher } from '../watch/watcher.ts';
import { startAttachApi } from './attach-api.ts';
import { incidentAccess, usersFileOf } from './attach-api.ts';

import { CannotListenError, Closer, stopSignal } from './closer.ts';
import { startPeerFleet } from './peers-step.ts';
import type { FlagSettings } from './settings.ts';
import { stateDir } from './state-dir.ts';
import { buildSystem } from './system.ts';
import type { WatchSystem } from './requests.ts';

// `core-agent watch`, assembled: the steps before the first event (prepareWatch), the incident
// store, the watcher, its health and metrics port, the attach API and the peers: section when
// the recipe has them, and one Closer for all of it.

export interface WatchDaemonRequest {
  /** The flags, --listen included (over CORE_AGENT_WATCH_LISTEN, over the default). */
  flags: FlagSettings;
  /** --allowed-host, checked: names the health port answers to. */
  healthHosts: readonly AllowedHostEntry[];
  /** --shutdown-grace: how long running sessions get to finish on SIGTERM. */
  graceMs: number;
  /** --fresh-session-db. */
  fresh: boolean;
  maxSteps: number | undefined;
  interactive: boolean;
  env: NodeJS.ProcessEnv;
  /** Progress lines (stdout): an incident taken, a session's outcome. */
  progress: (text: string) => void;
  /** Notes (stderr): a damaged database moved aside. */
  say: (text: string) => void;
  /** Called once the watcher has listed what it watches: the daemon is up. */
  onReady: () => void;
}

export interface WatchDaemon {
  /** Where /healthz, /readyz and /metrics answer. */
  health: string;
  /** Where the attach API answers, with an attach: section. */
  attach: string | undefined;
  dbPath: string;
  /** Watches until SIGTERM or SIGINT, or a full disk halts it; then stops the sessions and closes everything it opened. */
  run(): Promise<WatchStop>;
}

export type WatchStop =
  | { by: 'signal'; signal: string; finished: number; checkpointed: number }
  | { by: 'halt'; reason: string; checkpointed: number; queued: number };

/**
 * Starts the watch daemon, up to the point where it listens (the watcher itself starts in
 * `run`). A mistake in the command line or the recipe is a UsageError, an address it cannot take
 * a CannotListenError; either way what was opened is closed first.
 */
export async function startWatchDaemon(r: WatchDaemonRequest): Promise<WatchDaemon> {
  let report: (what: string, err: unknown) => void = (what, err) =>
    r.say(`core-agent: closing ${what} failed: ${(err as Error).message}\n`);
  const closer = new Closer((what, err) => report(what, err));
  return closer.closeOnFailure(async () => {
    const w = await buildSystem({
      until: 'watch',
      flags: r.flags,
      env: r.env,
      command: 'watch',
      logLevel: 'info',
      say: r.say,
      fresh: r.fresh,
      maxSteps: r.maxSteps,
      interactive: r.interactive,
    });
    const { cfg, log, logger, dbPath } = w;
    report = (what, err) => logger.error({ err, what }, 'closing failed');
    closer.add('stores', 'the session database', () => log.close());
    if (w.recipe.peers && !w.recipe.attach) {
      throw new UsageError(
        'the recipe has a peers: section but no attach: section; a hub and its peers talk over the attach API, so add attach: {listen, token_env}',
        'watch',
      );
    }
    // An Event older than max_event_age is ignored before the seen-check: remembering them that long (and an hour) is enough.
    const maxAgeMs = (cfg.max_event_age_seconds ?? WATCH_DEFAULTS.max_event_age_seconds) * 1000;
    const store = IncidentStore.open(dbPath, { seenTtlMs: maxAgeMs + 3600_000 });
    closer.add('stores', 'the incident store', () => store.close());
    const metrics = new WatchMetrics();
    const watcher = new Watcher({
      cfg,
      kube: w.kube,
      store,
      log,
      metrics,
      logger,
      say: r.progress,
      startSession: w.startSession,
      alertTarget: w.alertTarget,
      // Up once it has listed what it watches: the compilers start-up ran without are back on.
      onSynced: r.onReady,
    });
    let health;
    try {
      health = await startHealthServer(w.listen, watcher, metrics.registry, r.healthHosts);
    } catch (err) {
      throw new CannotListenError(`cannot listen on ${w.listen.host}:${w.listen.port}: ${(err as Error).message}`);
    }
    closer.add('servers', 'the health server', () => health.close());
    const attach = w.recipe.attach ? await startWatchAttach(w, r.env, closer) : undefined;
    // Listening before the command says it is up: a SIGTERM sent on reading that line must find
    // the listener, not Node's default action (the process killed, no checkpoint, exit by signal).
    const signalled = stopSignal(closer, 'waits');
    return {
      health: health.address,
      attach,
      dbPath,
      run: () => watchUntilStopped(w, watcher, store, r.graceMs, health.address, closer, signalled),
    };
  });
}

/** The recipe's attach: section: the incidents' sessions listed and followed over HTTP; with peers:, this daemon registers with a hub or hosts one. */
async function startWatchAttach(w: WatchSystem, env: NodeJS.ProcessEnv, closer: Closer): Promise<string> {
  const section = w.recipe.attach!;
  const peers = w.recipe.peers ? startPeerFleet(w.recipe, env, stateDir(env), w.logger) : undefined;
  if (peers) closer.add('registration', 'the peer registration', () => peers.close());
  try {
    const api = await startAttachApi({
      listen: section.listen,
      tokenEnv: section.token_env,
      usersFile: usersFileOf(undefined, env, section.users_file, w.recipeDir),
      serviceAccess: incidentAccess(section),
      allowedHosts: section.allowed_hosts ?? [],
      advertised: w.recipe.peers?.register?.endpoint,
      env,
      log: w.log,
      startSession: undefined,
      logger: w.logger,
      promptTimeoutMs: (section.prompt_timeout_seconds ?? PROMPT_TIMEOUT_DEFAULT_S) * 1000,
      command: 'watch',
      extraRoutes: peers?.route ? [peers.route] : [],
    });
    closer.add('servers', 'the attach API', () => api.close());
    return api.server.address;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new CannotListenError(`cannot serve the attach API on ${section.listen}: ${(err as Error).message}`);
  }
}

/** The daemon's life: the watcher runs until a signal or a halt, its sessions stop (with a grace period after a signal), and everything closes. */
async function watchUntilStopped(
  w: WatchSystem,
  watcher: Watcher,
  store: IncidentStore,
  graceMs: number,
  health: string,
  closer: Closer,
  signalled: Promise<string>,
): Promise<WatchStop> {
  let stopped = false;
  // On a path that never reaches the stop below, the sessions still stop before the stores close.
  closer.add('sessions', 'the running sessions', () => (stopped ? undefined : watcher.stop(0)));
  watcher.start();
  w.logger.info({ listen: health, session_db: w.dbPath, model: w.modelSpec }, 'watching events');
  try {
    const why = await Promise.race([signalled.then((signal) => ({ signal })), watcher.halted]);
    stopped = true;
    if ('signal' in why) {
      w.logger.info({ signal: why.signal, grace_ms: graceMs }, 'shutting down');
      const { finished, checkpointed } = await watcher.stop(graceMs);
      return { by: 'signal', signal: why.signal, finished, checkpointed };
    }
    // A full disk: no session could record anything more, so none is given a grace period.
    const { checkpointed } = await watcher.stop(0);
    return { by: 'halt', reason: why.reason, checkpointed, queued: store.counts().queued };
  } finally {
    await closer.closeAll();
  }
}
