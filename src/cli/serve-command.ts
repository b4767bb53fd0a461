import type { StartAttachSession } from '../attach/hub.ts';
import type { Route } from '../attach/route.ts';
import type { AttachServer } from '../attach/server.ts';
import type { Logger } from '../log.ts';
import type { EventLog } from '../store/event-log.ts';
import { buildSystem } from '../runtime/system.ts';
import { agentFlags } from './agent-session.ts';
import { parse } from './common-options.ts';
import { ATTACH_LISTEN_DEFAULT, PROMPT_TIMEOUT_DEFAULT_S } from '../attach/defaults.ts';
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
  const promptTimeoutS = values['prompt-timeout'];
  // Checked before the root starts anything: a bad address or token is a usage error, not a half-started daemon.
  const { prepareServe } = await import('../runtime/attach-step.ts');
  const sys = await prepareServe({
    flags: agent.flags,
    env: io.env,
    command: 'serve',
    say: (text) => io.err(text),
    fresh: agent.fresh,
    maxSteps: agent.maxSteps,
    build: (r) => buildSystem(r),
  });
  const section = sys.recipe.attach;
  let api;
  try {
    api = await startAttachApi({
      listen: values.listen ?? section?.listen ?? ATTACH_LISTEN_DEFAULT,
      tokenEnv: values['token-env'] ?? section?.token_env,
      allowedHosts: [...(section?.allowed_hosts ?? []), ...(values['allowed-host'] ?? [])],
      advertised: sys.recipe.peers?.register?.endpoint,
      env: io.env,
      log: sys.log,
      startSession: sys.startSession,
      logger: sys.logger,
      promptTimeoutMs: (promptTimeoutS ?? section?.prompt_timeout_seconds ?? PROMPT_TIMEOUT_DEFAULT_S) * 1000,
      command: 'serve',
      // peers.hub: the registry's /peers beside the session API.
      extraRoutes: sys.peers.route ? [sys.peers.route] : [],
    });
  } catch (err) {
    await sys.peers.close();
    sys.log.close();
    if (err instanceof UsageError) throw err;
    io.err(`core-agent: cannot serve: ${(err as Error).message}\n`);
    return EXIT.failure;
  }
  // Up: the compilers start-up ran without are back on for the sessions it serves.
  daemonReady();
  const hub = sys.peers.registry ? ', peer hub at /peers' : '';
  const registered = sys.recipe.peers?.register
    ? `, registering as ${sys.recipe.peers.register.name} with ${sys.recipe.peers.register.hub_url}`
    : '';
  // Listening for the stop before saying it is up: a SIGTERM sent on reading the line must
  // find the handler, not the default action that kills the process (exit by signal, not 0).
  const stopped = new Promise<void>((resolve) => {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => resolve());
  });
  io.out(
    `core-agent serve: attach API on http://${api.server.address} (sessions in ${sys.dbPath}, model ${sys.modelSpec}${hub}${registered})\n`,
  );
  await stopped;
  // The registration first: a hub should drop this peer before its API goes away.
  await sys.peers.close();
  await api.close();
  sys.log.close();
  io.out('core-agent serve: stopped\n');
  return EXIT.ok;
}

export interface AttachApiOptions {
  listen: string;
  tokenEnv: string | undefined;
  /** Host names the API answers to besides its own address: the recipe's attach.allowed_hosts, then --allowed-host. */
  allowedHosts?: readonly string[];
  /** peers.register.endpoint: the URL a hub calls this daemon at, whose host it answers to. */
  advertised?: string | undefined;
  env: NodeJS.ProcessEnv;
  log: EventLog;
  /** None: the sessions are run elsewhere (watch), and the API only lists and follows them. */
  startSession: StartAttachSession | undefined;
  logger: Logger;
  promptTimeoutMs: number;
  command: string;
  /** Mounted after the session API (the peer registry). */
  extraRoutes?: readonly Route[];
}

/** HOST:PORT of the URL this daemon registers at (the Host a hub's calls carry), as an allowed-host entry. */
function advertisedHost(endpoint: string | undefined): string[] {
  if (endpoint === undefined) return [];
  const url = new URL(endpoint);
  return [`${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`];
}

/** The attach API on its address: the tokens read and checked, the hub, the server. `serve` and `watch` both start it here. */
export async function startAttachApi(o: AttachApiOptions): Promise<{ server: AttachServer; close(): Promise<void> }> {
  const { parseListen } = await import('../watch/listen.ts');
  const { parseTokens } = await import('../attach/tokens.ts');
  const { SessionHub } = await import('../attach/hub.ts');
  const { sessionRoutes } = await import('../attach/session-routes.ts');
  const { startAttachServer } = await import('../attach/server.ts');
  const { isLoopbackBind } = await import('../net/listener-host.ts');
  const { anyHostProblem, parseAllowedHosts } = await import('../net/allowed-hosts.ts');
  let address;
  try {
    address = parseListen(o.listen);
  } catch (err) {
    throw new UsageError(`--listen ${(err as Error).message}`, o.command);
  }
  let tokens: ReturnType<typeof parseTokens> = [];
  if (o.tokenEnv !== undefined) {
    const value = o.env[o.tokenEnv];
    if (!value) throw new UsageError(`--token-env: ${o.tokenEnv} is not set`, o.command);
    try {
      tokens = parseTokens(value, o.tokenEnv);
    } catch (err) {
      throw new UsageError(`--token-env: ${(err as Error).message}`, o.command);
    }
  }
  let allowedHosts;
  try {
    allowedHosts = parseAllowedHosts([...(o.allowedHosts ?? []), ...advertisedHost(o.advertised)]);
  } catch (err) {
    throw new UsageError(`--allowed-host ${(err as Error).message}`, o.command);
  }
  const anyHost = anyHostProblem(allowedHosts, tokens.length > 0, 'attach.allowed_hosts / --allowed-host');
  if (anyHost) throw new UsageError(anyHost, o.command);
  if (tokens.length === 0 && !isLoopbackBind(address.host)) {
    throw new UsageError(
      `listening on ${address.host} (not loopback) needs --token-env: anyone who can reach it could drive the agent and answer its prompts`,
      o.command,
    );
  }
  if (tokens.length === 0) o.logger.warn({ listen: o.listen }, 'attach API without a token: any local process can drive the agent');
  const hub = new SessionHub({ log: o.log, startSession: o.startSession, logger: o.logger, promptTimeoutMs: o.promptTimeoutMs });
  const marked = o.startSession ? hub.markInterrupted() : [];
  if (marked.length > 0) o.logger.info({ sessions: marked }, 'turns open at the last stop marked interrupted');
  const server = await startAttachServer({
    ...address,
    tokens,
    allowedHosts,
    routes: [sessionRoutes(hub, o.log), ...(o.extraRoutes ?? [])],
    logger: o.logger,
  });
  return {
    server,
    close: async () => {
      await server.close();
      await hub.close();
    },
  };
}
