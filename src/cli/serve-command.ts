import { CannotListenError } from '../runtime/closer.ts';
import { agentFlags } from './agent-session.ts';
import { parse } from './common-options.ts';
import { SERVE } from './command-table.ts';
import { commandHelp } from './help-text.ts';
import { EXIT, UsageError, type Io } from './usage.ts';
import { daemonReady } from '../startup/daemon-start.ts';

/** serve's --help: the prose around the options its table lists (command-table.ts SERVE). */
export const serveHelp = (): string =>
  commandHelp(SERVE, {
    about: `The attach daemon: agent sessions over HTTP. Clients create sessions, send them
messages (a turn starts, or the message queues behind the running one), follow
their events live (Server-Sent Events, replayed losslessly from a cursor),
interrupt a turn, and answer its permission prompts — the approver is recorded
in the session's log. Sessions live in the session database and survive a
restart. core-agent attach URL is a terminal client. The API: docs/attach.md.`,
    after: 'Exit status: 0 stopped by SIGTERM/SIGINT, 1 cannot listen, 2 a usage or recipe error.',
  });

export async function serveCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, SERVE);
  if (values.help) {
    io.out(`${serveHelp()}\n`);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]!.slice(0, 60)}"`, 'serve');
  const agent = agentFlags(values, 'serve');
  // The daemon, assembled and closed by the composition root (src/runtime/attach-daemon.ts).
  const { startAttachDaemon } = await import('../runtime/attach-daemon.ts');
  let daemon;
  try {
    daemon = await startAttachDaemon({
      flags: agent.flags,
      env: io.env,
      say: (text) => io.err(text),
      fresh: agent.fresh,
      maxSteps: agent.maxSteps,
      listen: values.listen,
      tokenEnv: values['token-env'],
      usersFile: values['users-file'],
      allowedHosts: values['allowed-host'] ?? [],
      promptTimeoutS: values['prompt-timeout'],
      // Up: the compilers start-up ran without are back on for the sessions it serves.
      onReady: daemonReady,
    });
  } catch (err) {
    if (!(err instanceof CannotListenError)) throw err;
    io.err(`core-agent: ${err.message}\n`);
    return EXIT.failure;
  }
  const hub = daemon.hub ? ', peer hub at /peers' : '';
  const registered = daemon.registered ? `, registering as ${daemon.registered.name} with ${daemon.registered.hub}` : '';
  io.out(
    `core-agent serve: attach API on http://${daemon.address} (sessions in ${daemon.dbPath}, model ${daemon.modelSpec}${hub}${registered})\n`,
  );
  await daemon.run();
  io.out('core-agent serve: stopped\n');
  return EXIT.ok;
}
