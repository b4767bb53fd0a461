import path from 'node:path';
import type { Recipe } from '../config/recipe-schema.ts';
import type { Logger } from '../log.ts';
import { loadMcpConfig } from '../mcp/load-config.ts';
import type { Resolver } from '../net/guarded-fetch.ts';
import type { NetworkAccess } from '../net/network-access.ts';
import { proxyCredentials } from '../net/proxy-tunnel.ts';
import type { SearchProvider } from '../net/search-providers.ts';
import { UrlScope } from '../net/url-scope.ts';
import { PathScope } from '../permissions/path-scope.ts';
import { loadSkills, SkillError } from '../skills/skills.ts';
import { DigestWrap, type RawStore } from '../tools/digest-wrap.ts';
import { PendingWrites } from '../tools/files/pending-writes.ts';
import { TMP_SUFFIX } from '../tools/files/safe-fs.ts';
import { PlanRecorder } from '../tools/planning/plan-recorder.ts';
import { toolServices, type Asker, type Checkpointer, type ToolServices, type TurnScheduler } from '../tools/services.ts';
import { SessionState } from '../tools/session.ts';
import { shellAvailable } from '../tools/shell/run-shell.ts';
import { findOnPath } from '../tools/workspace/vcs.ts';
import { alertTargetsStep, clusterStep } from './cluster-step.ts';
import { peerDirectoryStep } from './peer-directory-step.ts';
import type { PeerRoster } from '../tools/peers/peer-directory.ts';
import { takeScrubWarning } from './environ-scrub.ts';
import { joinUnder } from '../util/join-path.ts';
import { SettingsError, type Settings } from './settings.ts';

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
}

/** The services only an agent session has: they decide the session tools (ask_user, mark_task_done, schedule_next_turn). */
export interface SessionServices {
  readonly asker?: Asker | undefined;
  readonly checkpointer?: Checkpointer | undefined;
  readonly scheduler?: TurnScheduler | undefined;
  /** The peer hub's registry (serve with peers.hub: true): what call_peer resolves names against. */
  readonly peerRoster?: PeerRoster | undefined;
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
  resolver?: Resolver | undefined;
}

/** The services step: everything the tools use that exists outside them, each made once here. */
export async function buildServices(o: ServicesInput): Promise<Services> {
  const { recipe, settings: s, workspace, env, logger } = o;
  const session = o.session ?? new SessionState();
  warnScrub(logger);
  const recorded = o.stateDir !== undefined ? await recordInStateDir(o.stateDir, logger) : {};
  const planMode = recipe.permissions?.plan_mode === 'off' ? undefined : recipe.permissions?.plan_mode;
  // Said in the order they always were: web_search's key, then dropped alert targets.
  const search = await searchProviderOf(recipe, env, logger);
  const alertTargets = liveAlertTargets(recipe, env, logger);
  const urlScope = recipe.permissions?.url_scope;
  // The modules behind a configured service (the fetch stack, a search provider's schemas, the
  // process-group records) are imported only when it is configured: a run without them never
  // evaluates them.
  const network =
    urlScope?.allow && urlScope.allow.length > 0
      ? new (await import('../net/network-access.ts')).NetworkAccess(
          UrlScope.parse(urlScope.allow, urlScope.deny ?? []),
          o.resolver,
          fetchProxy(urlScope, env),
        )
      : undefined;
  const mcpConfig = await loadMcpConfig(workspace, recipe.mcp, s.trustWorkspace === true);
  if (mcpConfig.untrusted) {
    logger.warn(
      { servers: mcpConfig.untrusted, file: joinUnder(workspace, '.agents/mcp.json') },
      'MCP servers declared by the workspace were not started: pass --trust-workspace (or CORE_AGENT_TRUST_WORKSPACE=1) if you trust this repository, or declare them in a recipe',
    );
  }
  const digests = o.rawStore && s.noDigest !== true && mcpConfig.digest !== false ? new DigestWrap(o.rawStore) : undefined;
  const cluster = clusterStep(recipe, env, o.home);
  const scope = await PathScope.create(workspace, recipe.permissions?.path_scope ?? {}, { home: o.home });
  const { peerRoster, ...sessionServices } = o.sessionServices ?? {};
  const peers = peerDirectoryStep(recipe, env, peerRoster);
  const tools = toolServices({
    env: o.commandEnv ?? env,
    home: o.home,
    shell: shellAvailable(),
    network,
    kube: 'kube' in cluster ? cluster.kube : undefined,
    kubeUnavailable: 'unavailable' in cluster ? cluster.unavailable : undefined,
    digests,
    plans: planMode ? new PlanRecorder(planMode, workspace) : undefined,
    planMode: planMode ?? 'advisory',
    // The same precedence as the gate step's (flag/environment, then the recipe).
    permissionMode: s.mode ?? recipe.permissions?.mode ?? 'ask',
    searchGate: s.bashSearchGate ?? recipe.safety?.bash_search_gate ?? 'enforce',
    ...search,
    ...(alertTargets ? { alertTargets } : {}),
    skills: await skillsOf(recipe, workspace, o.recipeDir, scope),
    ...sessionServices,
    peers,
    ...recorded,
    ripgrepPath: s.ripgrep,
    // Looked up once, on the PATH bash's commands get: enter_worktree runs exactly these binaries.
    git: findOnPath('git', o.commandEnv ?? env),
    jj: findOnPath('jj', o.commandEnv ?? env),
    sciontool: findOnPath('sciontool', o.commandEnv ?? env),
  });
  return { env, home: o.home, workspace, session, scope, tools, mcpConfig };
}

function warnScrub(logger: Logger): void {
  const scrubWarning = takeScrubWarning();
  if (!scrubWarning) return;
  logger.warn(
    { variables: scrubWarning.names, reason: scrubWarning.reason },
    "could not blank credentials in core-agent's /proc environment block: a command run by bash can read them with cat /proc/$PPID/environ",
  );
}

/** Before this run starts anything: stop the commands a killed run left behind, and remove its half-written files. */
async function recordInStateDir(dir: string, logger: Logger): Promise<Pick<ToolServices, 'groupRecords' | 'pendingWrites'>> {
  const groups = path.join(dir, 'process-groups');
  const { GroupRecords, reapStaleGroups } = await import('../tools/shell/group-records.ts');
  await reapStaleGroups(groups, logger);
  const pendingWrites = new PendingWrites(path.join(dir, 'pending-writes'));
  const removed = await pendingWrites.reapStale(TMP_SUFFIX);
  if (removed.length > 0) logger.info({ removed }, 'removed temporary files an earlier run left behind');
  return { groupRecords: new GroupRecords(groups, logger), pendingWrites };
}

/** Skills: the workspace's .agents/skills, and the recipe's dirs (relative to the recipe). */
async function skillsOf(recipe: Recipe, workspace: string, recipeDir: string, scope: PathScope) {
  const dirs = [joinUnder(workspace, '.agents/skills'), ...(recipe.skills?.dirs ?? []).map((d) => path.resolve(recipeDir, d))];
  try {
    return await loadSkills(dirs, { denies: (p) => scope.denies(p) });
  } catch (err) {
    if (err instanceof SkillError) throw new SettingsError(err.message);
    throw err;
  }
}

/** web_search's provider: what the recipe names and the environment completes. */
async function searchProviderOf(
  recipe: Recipe,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<Pick<ToolServices, 'searchProvider'> & Partial<Pick<ToolServices, 'searchResults'>>> {
  const ws = recipe.web_search;
  if (!ws) return {};
  const key = ws.api_key_env ? env[ws.api_key_env] : undefined;
  let provider: SearchProvider | undefined;
  if (ws.api_key_env && !key)
    logger.warn({ provider: ws.provider, api_key_env: ws.api_key_env }, 'web_search not registered: its API key variable is not set');
  else if (ws.provider === 'brave')
    provider = (await import('../net/search-providers.ts')).braveProvider(ws.url ?? 'https://api.search.brave.com', key!);
  else provider = (await import('../net/search-providers.ts')).searxngProvider(ws.url!, key);
  return { searchProvider: provider, ...(ws.max_results !== undefined ? { searchResults: ws.max_results } : {}) };
}

/** alert's live targets; the others said at startup, loudly: an operator who configured a pager expects it to work. */
function liveAlertTargets(recipe: Recipe, env: NodeJS.ProcessEnv, logger: Logger): ToolServices['alertTargets'] | undefined {
  const targets = alertTargetsStep(recipe, env);
  if (!targets) return undefined;
  for (const d of targets.dropped) logger.warn({ target: d.target, reason: d.reason }, 'alert target dropped: it could never deliver');
  return targets.live;
}

/** url_scope.proxy, or the URL in url_scope.proxy_env; nothing else (no HTTP_PROXY). */
function fetchProxy(scope: { proxy?: string | undefined; proxy_env?: string | undefined }, env: NodeJS.ProcessEnv): URL | undefined {
  const text = scope.proxy ?? (scope.proxy_env ? env[scope.proxy_env] : undefined);
  if (!text) {
    if (scope.proxy_env) throw new SettingsError(`permissions.url_scope.proxy_env: ${scope.proxy_env} is not set`);
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SettingsError(`permissions.url_scope: the proxy is not a URL (write http://host:port)`);
  }
  if (url.protocol !== 'http:') throw new SettingsError(`permissions.url_scope: the proxy must be an http:// URL, not ${url.protocol}`);
  try {
    proxyCredentials(url);
  } catch {
    throw new SettingsError('permissions.url_scope: the proxy URL has a malformed %-escape in its user or password (write % as %25)');
  }
  return url;
}
