import { CannotListenError } from '../runtime/closer.ts';
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
  daemonReadyAtTheLatest();
  const { parseListen } = await import('../watch/listen.ts');
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
  // The daemon, assembled and closed by the composition root (src/runtime/watch-daemon.ts).
  const { startWatchDaemon } = await import('../runtime/watch-daemon.ts');
  let daemon;
  try {
    daemon = await startWatchDaemon({
      flags: { ...agent.flags, listen },
      healthHosts,
      graceMs: values['shutdown-grace'] * 1000,
      fresh: agent.fresh,
      maxSteps: agent.maxSteps,
      interactive: io.isTty,
      env: io.env,
      progress: (text) => io.out(text),
      say: (text) => io.err(text),
      onReady: daemonReady,
    });
  } catch (err) {
    if (!(err instanceof CannotListenError)) throw err;
    io.err(`core-agent: ${err.message}\n`);
    return EXIT.failure;
  }
  if (daemon.attach !== undefined) io.out(`core-agent watch: attach API on http://${daemon.attach}\n`);
  io.out(`core-agent watch: health and metrics on http://${daemon.health} (sessions in ${daemon.dbPath})\n`);
  const stop = await daemon.run();
  if (stop.by === 'signal') {
    io.out(`core-agent watch: stopped (${stop.finished} session(s) finished, ${stop.checkpointed} left to resume)\n`);
    return EXIT.ok;
  }
  io.out(
    `core-agent watch: stopped: ${stop.reason}; the queue is kept: free space and start watch again (${stop.checkpointed} session(s) left to resume, ${stop.queued} incident(s) queued)\n`,
  );
  return EXIT.failure;
}
