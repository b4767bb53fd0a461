import path from 'node:path';
import type { Recipe } from '../config/recipe-schema.ts';
import type { Logger } from '../log.ts';
import { loadMcpConfig } from '../mcp/load-config.ts';
import type { Resolver } from '../net/guarded-fetch.ts';
import { NetworkAccess } from '../net/network-access.ts';
import { proxyCredentials } from '../net/proxy-tunnel.ts';
import { braveProvider, searxngProvider, type SearchProvider } from '../net/search-providers.ts';
import { UrlScope } from '../net/url-scope.ts';
import { PathScope } from '../permissions/path-scope.ts';
import { loadSkills, SkillError } from '../skills/skills.ts';
import type { BuiltinOptions } from '../tools/builtin.ts';
import { DigestWrap, type RawStore } from '../tools/digest-wrap.ts';
import { PendingWrites } from '../tools/files/pending-writes.ts';
import { TMP_SUFFIX } from '../tools/files/safe-fs.ts';
import { PlanRecorder } from '../tools/planning/plan-recorder.ts';
import { SessionState } from '../tools/session.ts';
import { GroupRecords, reapStaleGroups } from '../tools/shell/group-records.ts';
import { alertTargetsStep, clusterStep } from './cluster-step.ts';
import { takeScrubWarning } from './environ-scrub.ts';
import { SettingsError, type Settings } from './settings.ts';

/**
 * What the root hands the layers below it: the environment and home directory
 * (nothing under the root reads them itself), the session's services, the path
 * scope, and what the tool definitions are built from.
 */
export interface Services {
  /** The process environment (bash's pass_env and MCP servers take from it). */
  readonly env: NodeJS.ProcessEnv;
  /** `~` in paths and path_scope entries. */
  readonly home: string;
  /** CORE_AGENT_RIPGREP, checked: the rg grep and glob run (else the recipe's, else the bundled one). */
  readonly ripgrep: string | undefined;
  readonly workspace: string;
  readonly session: SessionState;
  readonly scope: PathScope;
  /** What the built-in definitions are built from, and which of them can run. */
  readonly tools: BuiltinOptions;
  readonly mcpConfig: Awaited<ReturnType<typeof loadMcpConfig>>;
}

export interface ServicesInput {
  settings: Settings;
  recipe: Recipe;
  recipeDir: string;
  workspace: string;
  env: NodeJS.ProcessEnv;
  home: string;
  logger: Logger;
  session?: SessionState | undefined;
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
  if (o.stateDir !== undefined) await recordInStateDir(session, o.stateDir, logger);
  const planMode = recipe.permissions?.plan_mode === 'off' ? undefined : recipe.permissions?.plan_mode;
  if (planMode) session.plans = new PlanRecorder(planMode, workspace);
  // Said in the order they always were: web_search's key, then dropped alert targets.
  const network = { ...searchProviderOf(recipe, env, logger), alertTargets: liveAlertTargets(recipe, env, logger) };
  const urlScope = recipe.permissions?.url_scope;
  if (urlScope?.allow && urlScope.allow.length > 0) {
    session.network = new NetworkAccess(UrlScope.parse(urlScope.allow, urlScope.deny ?? []), o.resolver, fetchProxy(urlScope, env));
  }
  const mcpConfig = await loadMcpConfig(workspace, recipe.mcp, s.trustWorkspace === true);
  if (mcpConfig.untrusted) {
    logger.warn(
      { servers: mcpConfig.untrusted, file: path.join(workspace, '.agents', 'mcp.json') },
      'MCP servers declared by the workspace were not started: pass --trust-workspace (or CORE_AGENT_TRUST_WORKSPACE=1) if you trust this repository, or declare them in a recipe',
    );
  }
  if (o.rawStore && s.noDigest !== true && mcpConfig.digest !== false) session.digests = new DigestWrap(o.rawStore);
  const cluster = clusterStep(recipe, env);
  if ('kube' in cluster) session.kube = cluster.kube;
  const scope = await PathScope.create(workspace, recipe.permissions?.path_scope ?? {}, { home: o.home });
  const tools: BuiltinOptions = {
    planMode,
    skills: await skillsOf(recipe, workspace, o.recipeDir, scope),
    searchGate: s.bashSearchGate ?? recipe.safety?.bash_search_gate ?? 'enforce',
    urlScope: session.network?.scope,
    ...network,
    kubeUnavailable: 'unavailable' in cluster ? cluster.unavailable : undefined,
  };
  return { env, home: o.home, ripgrep: s.ripgrep, workspace, session, scope, tools, mcpConfig };
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
async function recordInStateDir(session: SessionState, dir: string, logger: Logger): Promise<void> {
  const groups = path.join(dir, 'process-groups');
  await reapStaleGroups(groups, logger);
  session.groupRecords = new GroupRecords(groups, logger);
  session.pendingWrites = new PendingWrites(path.join(dir, 'pending-writes'));
  const removed = await session.pendingWrites.reapStale(TMP_SUFFIX);
  if (removed.length > 0) logger.info({ removed }, 'removed temporary files an earlier run left behind');
}

/** Skills: the workspace's .agents/skills, and the recipe's dirs (relative to the recipe). */
async function skillsOf(recipe: Recipe, workspace: string, recipeDir: string, scope: PathScope) {
  const dirs = [path.join(workspace, '.agents', 'skills'), ...(recipe.skills?.dirs ?? []).map((d) => path.resolve(recipeDir, d))];
  try {
    return await loadSkills(dirs, { denies: (p) => scope.denies(p) });
  } catch (err) {
    if (err instanceof SkillError) throw new SettingsError(err.message);
    throw err;
  }
}

/** web_search's provider: what the recipe names and the environment completes. */
function searchProviderOf(
  recipe: Recipe,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Pick<BuiltinOptions, 'searchProvider' | 'searchResults'> {
  const ws = recipe.web_search;
  if (!ws) return {};
  const key = ws.api_key_env ? env[ws.api_key_env] : undefined;
  let provider: SearchProvider | undefined;
  if (ws.api_key_env && !key)
    logger.warn({ provider: ws.provider, api_key_env: ws.api_key_env }, 'web_search not registered: its API key variable is not set');
  else if (ws.provider === 'brave') provider = braveProvider(ws.url ?? 'https://api.search.brave.com', key!);
  else provider = searxngProvider(ws.url!, key);
  return { searchProvider: provider, searchResults: ws.max_results };
}

/** alert's live targets; the others said at startup, loudly: an operator who configured a pager expects it to work. */
function liveAlertTargets(recipe: Recipe, env: NodeJS.ProcessEnv, logger: Logger): BuiltinOptions['alertTargets'] {
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
