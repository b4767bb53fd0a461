import path from 'node:path';
import type { Recipe } from '../config/recipe-schema.ts';
import type { Logger } from '../log.ts';
import { loadMcpConfig } from '../mcp/load-config.ts';
import type { Resolver } from '../net/guarded-fetch.ts';
import { PathScope } from '../permissions/path-scope.ts';
import { DigestWrap, type RawStore } from '../tools/framework/digest-wrap.ts';
import {
  toolServices,
  type Asker,
  type Delegator,
  type Checkpointer,
  type ToolServices,
  type TurnScheduler,
  type WriteJournal,
} from '../tools/framework/services.ts';
import { SessionState } from '../tools/framework/session.ts';
import { FAMILIES } from '../tools/index.ts';
import type { PeerRoster } from '../tools/peers/peer-directory.ts';
import { PendingWrites } from '../tools/shared/pending-writes.ts';
import { TMP_SUFFIX } from '../tools/shared/safe-fs.ts';
import { joinUnder } from '../startup/join-path.ts';
import { takeScrubWarning } from './environ-scrub.ts';
import { takeDumpableWarning } from './non-dumpable.ts';
import type { Settings } from './settings.ts';
import type { AgentsConfig } from '../config/agents-schema.ts';
import type { Dialect } from '../core/dialects.ts';
import { userHome, type Principal, type UserHome } from '../core/principal.ts';

/**
 * What the root hands the layers below it: the environment and home directory
 * (nothing under the root reads them itself), the session, the path scope, and
 * the tools' services (which also decide which tools are registered).
 */
export interface Services {
  /** The process environment (MCP servers take from it). */
  readonly env: NodeJS.ProcessEnv;
  /** `~` in paths and path_scope entries. */
  readonly home: string;
  readonly workspace: string;
  readonly session: SessionState;
  readonly scope: PathScope;
  /** What the tools read as `ctx.services`: the cluster, the network, the plan recorder, … */
  readonly tools: ToolServices;
  readonly mcpConfig: Awaited<ReturnType<typeof loadMcpConfig>>;
  /** Who the run acts for, and their home (absent without a state directory). */
  readonly principal: Principal;
  readonly userHome?: UserHome | undefined;
}

/** The services only an agent session has: they decide the session tools (ask_user, mark_task_done, schedule_next_turn). */
export interface SessionServices {
  readonly asker?: Asker | undefined;
  readonly checkpointer?: Checkpointer | undefined;
  readonly scheduler?: TurnScheduler | undefined;
  /** The peer hub's registry (serve with peers.hub: true): what call_peer resolves names against. */
  readonly peerRoster?: PeerRoster | undefined;
  /** The delegation engine (child-agents.ts), in an agent session; configured from the recipe's agents: before the catalog is built. */
  readonly delegator?: (Delegator & { configure(agents: AgentsConfig | undefined, dialect?: Dialect): void }) | undefined;
}

export interface ServicesInput {
  settings: Settings;
  recipe: Recipe;
  recipeDir: string;
  workspace: string;
  env: NodeJS.ProcessEnv;
  /** The environment commands (bash) start from; default `env`. */
  commandEnv?: NodeJS.ProcessEnv | undefined;
  home: string;
  logger: Logger;
  session?: SessionState | undefined;
  sessionServices?: SessionServices | undefined;
  rawStore?: RawStore | undefined;
  /** Record (and first reap) process groups and writes in flight here; absent: nothing is recorded. */
  stateDir?: string | undefined;
  /** The state directory the users' homes are in, where stateDir is not given (tools list records nothing). */
  homesDir?: string | undefined;
  /** Who the run acts for; its home is under stateDir. */
  principal: Principal;
  resolver?: Resolver | undefined;
  /** Built-in tools this run turns off (toggles, --allow-tool / --deny-tool): a family with none left builds no services. */
  disabled?: readonly string[] | undefined;
  /** false: the recipe only (recipe validate): no cluster looked for, nothing required checked (RuntimeOptions.checkWorld). */
  checkWorld?: boolean | undefined;
}

/** The services step: the root's own services, then each family's whose tools this run may register. */
export async function buildServices(o: ServicesInput): Promise<Services> {
  const { recipe, settings: s, workspace, env, logger } = o;
  const session = o.session ?? new SessionState();
  warnScrub(logger);
  warnDumpable(logger);
  const pendingWrites = o.stateDir !== undefined ? await recordInStateDir(o.stateDir, logger) : undefined;
  const mcpConfig = await loadMcpConfig(workspace, recipe.mcp, s.trustWorkspace === true, env);
  for (const notice of mcpConfig.notices ?? []) logger.warn(notice);
  if (mcpConfig.untrusted) {
    logger.warn(
      { servers: mcpConfig.untrusted, files: [joinUnder(workspace, '.agents/mcp.json'), joinUnder(workspace, '.mcp.json')] },
      'MCP servers declared by the workspace were not started: pass --trust-workspace (or CORE_AGENT_TRUST_WORKSPACE=1) if you trust this repository, or declare them in a recipe',
    );
  }
  const digests = o.rawStore && s.noDigest !== true && mcpConfig.digest !== false ? new DigestWrap(o.rawStore) : undefined;
  const scope = await PathScope.create(workspace, recipe.permissions?.path_scope ?? {}, { home: o.home });
  const commandEnv = o.commandEnv ?? env;
  const homes = o.stateDir ?? o.homesDir;
  const home = homes === undefined ? undefined : userHome(homes, o.principal);
  let tools = toolServices({
    env: commandEnv,
    home: o.home,
    // The same precedence as the gate step's (flag/environment, then the recipe).
    permissionMode: s.mode ?? recipe.permissions?.mode ?? 'ask',
    digests,
    pendingWrites,
    ripgrepPath: s.ripgrep,
    ...o.sessionServices,
  });
  const disabled = new Set(o.disabled ?? []);
  for (const family of FAMILIES) {
    // Only what a tool this run may register needs: a family whose every tool is turned off builds nothing.
    if (!family.services || family.tools.every((t) => disabled.has(t.name))) continue;
    const given = await family.services({
      recipe,
      recipeDir: o.recipeDir,
      workspace,
      settings: s,
      env,
      commandEnv,
      home: o.home,
      logger,
      scope,
      session,
      stateDir: o.stateDir,
      principal: o.principal,
      userHome: home,
      resolver: o.resolver,
      services: tools,
      world: o.checkWorld !== false,
    });
    tools = { ...tools, ...given };
  }
  return { env, home: o.home, workspace, session, scope, tools, mcpConfig, principal: o.principal, userHome: home };
}

function warnScrub(logger: Logger): void {
  const scrubWarning = takeScrubWarning();
  if (!scrubWarning) return;
  logger.warn(
    { variables: scrubWarning.names, reason: scrubWarning.reason },
    "could not blank credentials in core-agent's /proc environment block: a command run by bash can read them with cat /proc/$PPID/environ",
  );
}

function warnDumpable(logger: Logger): void {
  const reason = takeDumpableWarning();
  if (reason === undefined) return;
  logger.warn(
    { reason },
    'core-agent could not make itself non-dumpable: a command run by bash can read its memory, credentials included, through /proc/$PPID/mem (set CORE_AGENT_DUMPABLE=1 to say that is meant)',
  );
}

/** Before this run starts anything: stop the commands a killed run left behind, and remove its half-written files. */
async function recordInStateDir(dir: string, logger: Logger): Promise<WriteJournal> {
  const { reapStaleGroups } = await import('../tools/shell/group-records.ts');
  await reapStaleGroups(path.join(dir, 'process-groups'), logger);
  const pendingWrites = new PendingWrites(path.join(dir, 'pending-writes'));
  const removed = await pendingWrites.reapStale(TMP_SUFFIX);
  if (removed.length > 0) logger.info({ removed }, 'removed temporary files an earlier run left behind');
  return pendingWrites;
}
