import { WATCH_DEFAULTS } from '../config/watch-schema.ts';
import { buildSystem } from '../runtime/system.ts';
import { agentFlags } from './agent-session.ts';
import { parse } from './common-options.ts';
import { WATCH } from './command-table.ts';
import { commandHelp } from './help-text.ts';
import { EXIT, UsageError, type Io } from './usage.ts';
import { daemonReady, daemonReadyAtTheLatest } from '../startup/daemon-start.ts';

/** watch's --help: the prose around the options its table lists (command-table.ts WATCH). */
export const watchHelp = (): string =>
  commandHelp(WATCH, {
    about: `Watches the cluster's Events and runs one agent session per incident, as the
recipe's watch: section says: which events count (types, reasons, namespaces,
labels), the cooldown that folds repeats into one incident, how many sessions
run at once. Incidents and their sessions are kept in the session database, so a
restart resumes interrupted sessions and never runs a finished incident again.
Each outcome (RESOLVED, or UNRESOLVED with a proposal) is recorded in the
session's event log and sent to watch.alert_target when the recipe names one.
With an attach: section (listen, token_env), the attach API serves the incidents'
sessions too: list them and follow their events live (docs/attach.md).

The cluster: kubernetes.kubeconfig in the recipe, $KUBECONFIG, ~/.kube/config, or
the pod's service account. Progress lines go to stdout, JSON logs to stderr.`,
    after: `Exit status: 0 stopped by SIGTERM/SIGINT, 1 a runtime failure (a full disk under the
session database: it stops, keeping its queue), 2 a usage or recipe error.`,
  });

export async function watchCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, WATCH);
  if (values.help) {
    io.out(`${watchHelp()}\n`);
    return EXIT.ok;
  }
  if (!values.recipe) throw new UsageError('watch needs a recipe with a watch: section (-c RECIPE)', 'watch');
  const graceMs = values['shutdown-grace'] * 1000;
  daemonReadyAtTheLatest();
  const { parseListen, startHealthServer } = await import('../watch/health-server.ts');
  let listen;
  try {
    listen = values.listen === undefined ? undefined : parseListen(values.listen);
  } catch (err) {
    throw new UsageError(`--listen ${(err as Error).message}`, 'watch');
  }
  let healthHosts;
  try {
    const { parseAllowedHosts } = await import('../net/allowed-hosts.ts');
    healthHosts = parseAllowedHosts(values['allowed-host'] ?? []);
  } catch (err) {
    throw new UsageError(`--allowed-host ${(err as Error).message}`, 'watch');
  }
  const agent = agentFlags(values, 'watch');
  const w = await buildSystem({
    until: 'watch',
    flags: { ...agent.flags, listen },
    env: io.env,
    command: 'watch',
    logLevel: 'info',
    say: (text) => io.err(text),
    fresh: agent.fresh,
    maxSteps: agent.maxSteps,
    interactive: io.isTty,
  });
  const { cfg, log, logger, dbPath } = w;

  const { IncidentStore } = await import('../watch/incident-store.ts');
  const { WatchMetrics } = await import('../watch/metrics.ts');
  const { Watcher } = await import('../watch/watcher.ts');
  // An Event older than max_event_age is ignored before the seen-check: remembering them that long (and an hour) is enough.
  const maxAgeMs = (cfg.max_event_age_seconds ?? WATCH_DEFAULTS.max_event_age_seconds) * 1000;
  let store;
  try {
    store = IncidentStore.open(dbPath, { seenTtlMs: maxAgeMs + 3600_000 });
  } catch (err) {
    log.close();
    throw err;
  }
  const metrics = new WatchMetrics();
  const watcher = new Watcher({
    cfg,
    kube: w.kube,
    store,
    log,
    metrics,
    logger,
    say: (text) => io.out(text),
    startSession: w.startSession,
    alertTarget: w.alertTarget,
    // Up once it has listed what it watches: the compilers start-up ran without are back on.
    onSynced: daemonReady,
  });
  let server;
  try {
    server = await startHealthServer(w.listen, watcher, metrics.registry, healthHosts);
  } catch (err) {
    store.close();
    log.close();
    io.err(`core-agent: cannot listen on ${w.listen.host}:${w.listen.port}: ${(err as Error).message}\n`);
    return EXIT.failure;
  }
  // The recipe's attach: section: the incidents' sessions can be listed and followed live over HTTP.
  let attach;
  let peers: import('../runtime/peers-step.ts').PeerFleet | undefined;
  if (w.recipe.peers && !w.recipe.attach) {
    await server.close();
    store.close();
    log.close();
    throw new UsageError(
      'the recipe has a peers: section but no attach: section; a hub and its peers talk over the attach API, so add attach: {listen, token_env}',
      'watch',
    );
  }
  if (w.recipe.attach) {
    try {
      const { startAttachApi } = await import('./serve-command.ts');
      // peers.register: the operator announces itself to a hub (its incidents' sessions are followed there); peers.hub: it hosts /peers.
      if (w.recipe.peers) {
        const { startPeerFleet } = await import('../runtime/peers-step.ts');
        const { stateDir } = await import('../runtime/state-dir.ts');
        peers = startPeerFleet(w.recipe, io.env, stateDir(io.env), logger);
      }
      attach = await startAttachApi({
        listen: w.recipe.attach.listen,
        tokenEnv: w.recipe.attach.token_env,
        allowedHosts: w.recipe.attach.allowed_hosts ?? [],
        advertised: w.recipe.peers?.register?.endpoint,
        env: io.env,
        log,
        startSession: undefined,
        logger,
        promptTimeoutMs: (w.recipe.attach.prompt_timeout_seconds ?? 300) * 1000,
        command: 'watch',
        extraRoutes: peers?.route ? [peers.route] : [],
      });
    } catch (err) {
      await peers?.close();
      await server.close();
      store.close();
      log.close();
      if (err instanceof UsageError) throw err;
      io.err(`core-agent: cannot serve the attach API on ${w.recipe.attach.listen}: ${(err as Error).message}\n`);
      return EXIT.failure;
    }
    io.out(`core-agent watch: attach API on http://${attach.server.address}\n`);
  }
  // Kept (not `once`) for the whole shutdown: a second signal, or one re-raised by a
  // session's terminal manager after it killed its terminals, must not end the process
  // before the running sessions are checkpointed.
  const signalled = new Promise<string>((resolve) => {
    for (const sig of ['SIGTERM', 'SIGINT'] as const) process.on(sig, () => resolve(sig));
  });
  watcher.start();
  logger.info({ listen: server.address, session_db: dbPath, model: w.modelSpec }, 'watching events');
  io.out(`core-agent watch: health and metrics on http://${server.address} (sessions in ${dbPath})\n`);

  const why = await Promise.race([signalled.then((signal) => ({ signal })), watcher.halted]);
  let status: number = EXIT.ok;
  if ('signal' in why) {
    logger.info({ signal: why.signal, grace_ms: graceMs }, 'shutting down');
    const { finished, checkpointed } = await watcher.stop(graceMs);
    io.out(`core-agent watch: stopped (${finished} session(s) finished, ${checkpointed} left to resume)\n`);
  } else {
    // A full disk: no session could record anything more, so none is given a grace period.
    const { checkpointed } = await watcher.stop(0);
    const { queued } = store.counts();
    io.out(
      `core-agent watch: stopped: ${why.reason}; the queue is kept: free space and start watch again (${checkpointed} session(s) left to resume, ${queued} incident(s) queued)\n`,
    );
    status = EXIT.failure;
  }
  await peers?.close();
  await attach?.close();
  await server.close();
  store.close();
  log.close();
  return status;
}
