import path from 'node:path';
import { INCIDENT_VIEWERS_DEFAULT } from '../attach/defaults.ts';
import type { Recipe } from '../config/recipe-schema.ts';
import type { AccessLists, StartAttachSession } from '../attach/hub.ts';
import type { Route } from '../attach/route.ts';
import type { AttachServer } from '../attach/server.ts';
import { UsageError } from '../core/usage-error.ts';
import type { Logger } from '../log.ts';
import type { EventLog } from '../store/event-log.ts';

type AttachSection = NonNullable<Recipe['attach']>;

// The attach API on its address: `serve` serves its own sessions through it, `watch` (with an
// attach: section) the incidents' sessions, to list and follow.

export interface AttachApiOptions {
  listen: string;
  tokenEnv: string | undefined;
  /** A users file (docs/users.md): its principals beside --token-env's. */
  usersFile?: string | undefined;
  /** The ACL of a service principal's sessions (attach.incident_access). */
  serviceAccess?: AccessLists | undefined;
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

/** Who may follow or drive a service principal's sessions (watch's incidents): attach.incident_access over the default. */
export function incidentAccess(section: AttachSection | undefined): AccessLists {
  return {
    viewers: section?.incident_access?.viewers ?? INCIDENT_VIEWERS_DEFAULT,
    contributors: section?.incident_access?.contributors ?? [],
  };
}

/** The users file: the flag, else CORE_AGENT_USERS_FILE, else the recipe's attach.users_file (relative: to the recipe's folder). */
export function usersFileOf(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  recipe: string | undefined,
  recipeDir: string,
): string | undefined {
  if (flag !== undefined) return flag;
  const fromEnv = env.CORE_AGENT_USERS_FILE;
  if (fromEnv) return fromEnv;
  return recipe === undefined ? undefined : path.resolve(recipeDir, recipe);
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
  if (o.usersFile !== undefined) {
    const { loadUsersFile } = await import('../attach/users-file.ts');
    let users;
    try {
      users = loadUsersFile(o.usersFile, { env: o.env, groups: process.getgroups?.() ?? [] });
    } catch (err) {
      throw new UsageError((err as Error).message, o.command);
    }
    const both = tokens.find((t) => users.some((u) => u.principal === t.principal));
    if (both) throw new UsageError(`the principal "${both.principal}" is in both --token-env and the users file: keep one`, o.command);
    tokens = [...tokens, ...users];
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
  const hub = new SessionHub({
    log: o.log,
    startSession: o.startSession,
    logger: o.logger,
    promptTimeoutMs: o.promptTimeoutMs,
    serviceAccess: o.serviceAccess,
  });
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
