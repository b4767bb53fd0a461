import type { StartAttachSession } from '../attach/hub.ts';
import type { Route } from '../attach/route.ts';
import type { AttachServer } from '../attach/server.ts';
import type { Logger } from '../log.ts';
import type { EventLog } from '../store/event-log.ts';
import { buildSystem } from '../runtime/system.ts';
import { agentFlags, positiveInt } from './agent-session.ts';
import { parse } from './common-options.ts';
import { SERVE_OPTIONS } from './command-table.ts';
import { FRESH_SESSION_DB_HELP } from './session-db-option.ts';
import { COMMON_OPTIONS_HELP, EXIT, UsageError, type Io } from './usage.ts';
import { daemonReady } from '../startup/daemon-start.ts';

export const DEFAULT_ATTACH_LISTEN = '127.0.0.1:7777';
const DEFAULT_PROMPT_TIMEOUT_S = 300;

export const SERVE_HELP = `Usage: core-agent serve [--listen HOST:PORT] [--token-env NAME] [options]

The attach daemon: agent sessions over HTTP. Clients create sessions, send them
messages (a turn starts, or the message queues behind the running one), follow
their events live (Server-Sent Events, replayed losslessly from a cursor),
interrupt a turn, and answer its permission prompts — the approver is recorded
in the session's log. Sessions live in the session database and survive a
restart. core-agent attach URL is a terminal client. The API: docs/attach.md.

      --listen HOST:PORT      where the API listens (default ${DEFAULT_ATTACH_LISTEN}; the
                              recipe's attach.listen); port 0 picks a free one
      --token-env NAME        the variable holding the bearer token, or
                              NAME=TOKEN,NAME2=TOKEN2 (each NAME a principal);
                              required off loopback       [recipe attach.token_env]
      --allowed-host HOST[:PORT]
                              a Host name the API answers to besides its own
                              address and loopback (a Service, an ingress); "*" any
                              (needs --token-env); repeatable [recipe attach.allowed_hosts]
      --prompt-timeout SECONDS
                              a permission prompt nobody answers is denied after
                              this long (default ${DEFAULT_PROMPT_TIMEOUT_S})
  -m, --model PROVIDER:MODEL  every session's model             [env CORE_AGENT_MODEL]
      --session-db PATH       the SQLite event log              [env CORE_AGENT_SESSION_DB]
${FRESH_SESSION_DB_HELP}
      --max-steps N           model calls with tools per turn
      --allow-tool a,b        register only these tools (repeatable)
      --deny-tool a,b         never register these (repeatable; wins)
      --mode MODE | --yolo    permission mode (default ask: a call that needs approval
                              waits for a remote answer)
      --watchdog MODE         off | warn | feedback | enforce (default enforce)

Exit status: 0 stopped by SIGTERM/SIGINT, 1 cannot listen, 2 a usage or recipe error.

${COMMON_OPTIONS_HELP}`;

export async function serveCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, SERVE_OPTIONS, 'serve');
  if (values.help) {
    io.out(`${SERVE_HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]!.slice(0, 60)}"`, 'serve');
  for (const flag of ['resume', 'continue', 'reset-watchdog', 'ask', 'checkpoint'] as const) {
    if (values[flag] !== undefined) throw new UsageError(`--${flag} does not apply to serve (clients choose their sessions)`, 'serve');
  }
  const agent = agentFlags(values, 'serve');
  const promptTimeoutS =
    values['prompt-timeout'] === undefined ? undefined : positiveInt(values['prompt-timeout'], 0, '--prompt-timeout', 'serve');
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
      listen: values.listen ?? section?.listen ?? DEFAULT_ATTACH_LISTEN,
      tokenEnv: values['token-env'] ?? section?.token_env,
      allowedHosts: [...(section?.allowed_hosts ?? []), ...(values['allowed-host'] ?? [])],
      advertised: sys.recipe.peers?.register?.endpoint,
      env: io.env,
      log: sys.log,
      startSession: sys.startSession,
      logger: sys.logger,
      promptTimeoutMs: (promptTimeoutS ?? section?.prompt_timeout_seconds ?? DEFAULT_PROMPT_TIMEOUT_S) * 1000,
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
