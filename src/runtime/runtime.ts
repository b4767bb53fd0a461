import { realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { loadRecipe } from '../config/load-recipe.ts';
import type { Recipe } from '../config/recipe-schema.ts';
import { silentLogger, type Logger } from '../log.ts';
import { Gate, type Prompter } from '../permissions/gate.ts';
import { PathScope } from '../permissions/path-scope.ts';
import { liveTargets } from '../net/alert-targets.ts';
import type { Resolver } from '../net/guarded-fetch.ts';
import { NetworkAccess } from '../net/network-access.ts';
import { proxyCredentials } from '../net/proxy-tunnel.ts';
import { braveProvider, searxngProvider, type SearchProvider } from '../net/search-providers.ts';
import { UrlScope } from '../net/url-scope.ts';
import { BUILTIN_TOOLS } from '../tools/index.ts';
import { toolServices, type Asker, type Checkpointer, type ToolServices, type TurnScheduler } from '../tools/services.ts';
import { shellAvailable } from '../tools/shell/run-shell.ts';
import { searchTargets } from '../tools/shell/bash.ts';
import { GroupRecords, reapStaleGroups } from '../tools/shell/group-records.ts';
import { takeScrubWarning } from './environ-scrub.ts';
import { parseRule, ruleMatches, type Rule } from '../permissions/rules.ts';
import { searchGatePosture } from '../tools/shell/search-gate.ts';
import { PlanRecorder } from '../tools/planning/plan-recorder.ts';
import { planGated } from '../tools/planning/record-plan.ts';
import { SessionState } from '../tools/session.ts';
import { Catalog, CatalogError } from '../tools/catalog.ts';
import { Dispatcher } from '../tools/dispatch.ts';
import { unknownName } from '../config/did-you-mean.ts';
import { findCluster, Kube } from '../k8s/cluster.ts';
import { loadSkills, SkillError } from '../skills/skills.ts';
import { loadMcpConfig } from '../mcp/load-config.ts';
import { McpManager } from '../mcp/manager.ts';
import { DigestWrap, type RawStore } from '../tools/digest-wrap.ts';
import { PendingWrites } from '../tools/files/pending-writes.ts';
import { TMP_SUFFIX } from '../tools/files/safe-fs.ts';
import { ENV, foldToolToggles, mergeFlagsWithEnv, readEnv, SettingsError, type FlagSettings } from './settings.ts';

/** Everything one run needs, wired once: the composition root. */
export interface Runtime {
  readonly workspace: string;
  readonly session: SessionState;
  /** What the tools were handed (the cluster, the network, the plan recorder, …). */
  readonly services: ToolServices;
  readonly recipe: Recipe;
  readonly catalog: Catalog;
  readonly gate: Gate;
  readonly dispatcher: Dispatcher;
  /** The MCP servers, when the recipe or .agents/mcp.json declares any (closed with the session). */
  readonly mcp: McpManager | undefined;
}

export interface RuntimeOptions {
  flags: FlagSettings;
  env?: NodeJS.ProcessEnv;
  /** Present when a person can answer permission prompts (a TTY). */
  prompter?: Prompter | undefined;
  logger?: Logger;
  /** Test seam, passed to the dispatcher. */
  afterGate?: (tool: string) => void | Promise<void>;
  /** Test seam: the DNS resolver the SSRF guard uses (default: the system's). */
  resolver?: Resolver;
  /**
   * The session the tools serve. Its services decide which session tools exist:
   * a checkpointer (mark_task_done), a scheduler (schedule_next_turn), an asker
   * (ask_user). The plan recorder is added here from permissions.plan_mode.
   */
  session?: SessionState;
  /** The agent's services, which decide the session tools: a checkpointer, a scheduler, an asker. */
  services?: { checkpointer?: Checkpointer | undefined; scheduler?: TurnScheduler | undefined; asker?: Asker | undefined };
  /**
   * Where digested results keep their raw payload (the session's event log).
   * Without one there is no digest layer and no retrieve_raw: a digest is only
   * safe while retrieve_raw can undo it.
   */
  rawStore?: RawStore | undefined;
  /** false: declare but do not start MCP servers (recipe validate). */
  startMcp?: boolean;
  /**
   * core-agent's state directory (stateDir): the shells' process groups and the
   * atomic writes in flight are recorded under it, and what a killed core-agent
   * left behind there is cleaned up first. Absent: nothing is recorded or
   * reaped (tests, recipe validate).
   */
  stateDir?: string;
}

/**
 * Precedence, highest first: flags, environment (CORE_AGENT_*), the recipe,
 * built-in defaults. Throws SettingsError / RecipeError for anything unusable,
 * before a single tool exists.
 */
export async function createRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const env = opts.env ?? process.env;
  const logger = opts.logger ?? silentLogger;
  const s = mergeFlagsWithEnv(opts.flags, env);
  const recipe: Recipe = s.recipe ? await loadRecipe(s.recipe, BUILTIN_TOOLS) : {};

  const workspace = await resolveWorkspace(s.workspace ?? process.cwd());
  const layer = (disableFrom: string, disable: readonly string[], enableFrom: string, enable: readonly string[]) => ({
    disable: { from: disableFrom, names: disable },
    enable: { from: enableFrom, names: enable },
  });
  const disable = foldToolToggles([
    layer('recipe tools.disable', recipe.tools?.disable ?? [], 'tools.enable', recipe.tools?.enable ?? []),
    layer(ENV.disableTools.name, s.envDisable, ENV.enableTools.name, s.envEnable),
    // An investigation task leaves the shell out; --enable-tools bash puts it back.
    layer('--task', s.task ? ['bash'] : [], '--task', []),
    layer('--disable-tools', s.disableTools ?? [], '--enable-tools', s.enableTools ?? []),
  ]);
  const session = opts.session ?? new SessionState();
  const scrubWarning = takeScrubWarning();
  if (scrubWarning) {
    logger.warn(
      { variables: scrubWarning.names, reason: scrubWarning.reason },
      "could not blank credentials in core-agent's /proc environment block: a command run by bash can read them with cat /proc/$PPID/environ",
    );
  }
  let groupRecords: GroupRecords | undefined;
  let pendingWrites: PendingWrites | undefined;
  if (opts.stateDir !== undefined) {
    // Before this run starts anything: stop the commands a killed run left behind, and remove its half-written files.
    const groups = path.join(opts.stateDir, 'process-groups');
    await reapStaleGroups(groups, logger);
    groupRecords = new GroupRecords(groups, logger);
    pendingWrites = new PendingWrites(path.join(opts.stateDir, 'pending-writes'));
    const removed = await pendingWrites.reapStale(TMP_SUFFIX);
    if (removed.length > 0) logger.info({ removed }, 'removed temporary files an earlier run left behind');
  }
  const planMode = recipe.permissions?.plan_mode === 'off' ? undefined : recipe.permissions?.plan_mode;
  const plans = planMode ? new PlanRecorder(planMode, workspace) : undefined;
  const searchGate = s.bashSearchGate ?? recipe.safety?.bash_search_gate ?? 'enforce';
  const network = networkOptions(recipe, env, logger);
  const urlScope = recipe.permissions?.url_scope;
  const networkAccess =
    urlScope?.allow && urlScope.allow.length > 0
      ? new NetworkAccess(UrlScope.parse(urlScope.allow, urlScope.deny ?? []), opts.resolver, fetchProxy(urlScope, env))
      : undefined;
  const mcpConfig = await loadMcpConfig(workspace, recipe.mcp, s.trustWorkspace === true);
  if (mcpConfig.untrusted) {
    logger.warn(
      { servers: mcpConfig.untrusted, file: path.join(workspace, '.agents', 'mcp.json') },
      'MCP servers declared by the workspace were not started: pass --trust-workspace (or CORE_AGENT_TRUST_WORKSPACE=1) if you trust this repository, or declare them in a recipe',
    );
  }
  const digests = opts.rawStore && s.noDigest !== true && mcpConfig.digest !== false ? new DigestWrap(opts.rawStore) : undefined;
  const cluster =
    recipe.kubernetes?.enabled === false ? { unavailable: 'kubernetes.enabled is false' } : findCluster(env, recipe.kubernetes);
  // Skills: the workspace's .agents/skills, and the recipe's dirs (relative to the recipe).
  const recipeDir = s.recipe ? path.dirname(path.resolve(s.recipe)) : workspace;
  const perms = recipe.permissions ?? {};
  const scope = await PathScope.create(workspace, perms.path_scope ?? {});
  const skillDirs = [path.join(workspace, '.agents', 'skills'), ...(recipe.skills?.dirs ?? []).map((d) => path.resolve(recipeDir, d))];
  let skills;
  try {
    skills = await loadSkills(skillDirs, { denies: (p) => scope.denies(p) });
  } catch (err) {
    if (err instanceof SkillError) throw new SettingsError(err.message);
    throw err;
  }
  const services = toolServices({
    // Commands get the process's own environment (credential-looking variables withheld by bash), as before.
    env: process.env,
    home: env.HOME ?? homedir(),
    shell: shellAvailable(),
    network: networkAccess,
    kube: 'unavailable' in cluster ? undefined : new Kube(cluster, recipe.kubernetes),
    kubeUnavailable: 'unavailable' in cluster ? cluster.unavailable : undefined,
    digests,
    plans,
    planMode: planMode ?? 'advisory',
    searchGate,
    ...network,
    skills,
    ...opts.services,
    pendingWrites,
    groupRecords,
    ripgrepPath: readEnv(env).ripgrep,
  });
  const defs = BUILTIN_TOOLS;

  let catalog: Catalog;
  try {
    // --allow-tool / --deny-tool only ever remove tools (filtering never grants a permission).
    // MCP names (mcp.<server>.<tool>, mcp.<server>, mcp.*) filter each server's tools as they arrive.
    const known = defs.map((t) => t.name);
    const builtin = (n: string) => !n.startsWith('mcp.');
    for (const [flag, names] of [
      ['--allow-tool', s.allowTools],
      ['--deny-tool', s.denyTools],
    ] as const) {
      for (const n of names ?? []) {
        if (builtin(n)) {
          if (!known.includes(n)) throw new SettingsError(`${flag}: ${unknownName('tool', n, known)}`);
          continue;
        }
        try {
          parseRule(n);
        } catch (err) {
          throw new SettingsError(`${flag}: ${(err as Error).message}`);
        }
      }
    }
    if (s.allowTools && s.allowTools.length > 0) disable.push(...known.filter((n) => !s.allowTools!.includes(n)));
    disable.push(...(s.denyTools ?? []).filter(builtin));
    catalog = Catalog.build(defs, { services, disable, settings: recipe.tools ?? {} });
  } catch (err) {
    if (err instanceof CatalogError) throw new SettingsError(err.message);
    throw err;
  }
  for (const skipped of catalog.skipped) logger.info({ tool: skipped.name, reason: skipped.reason }, 'tool not registered');
  if (catalog.has('bash')) {
    // Every boot says what the search gate does — and says so loudly when it can do nothing.
    const targets = searchTargets((n) => catalog.has(n));
    const posture = searchGatePosture(searchGate, targets);
    if (searchGate !== 'allow' && targets.size === 0) logger.warn({ search_gate: searchGate }, posture);
    else logger.info({ search_gate: searchGate }, posture);
  }
  const reportGated = () =>
    plans?.setGatedTools(
      catalog
        .list()
        .filter((t) => planGated(t.def))
        .map((t) => t.name),
    );
  reportGated();
  catalog.onChange(reportGated);

  const gate = new Gate({
    mode: s.mode ?? perms.mode ?? 'ask',
    allow: perms.allow ?? [],
    deny: perms.deny ?? [],
    scope,
    prompter: opts.prompter,
    logger,
    planCheck: plans
      ? (req) =>
          plans.blocks(session.sessionId) &&
          planGated({ name: req.tool, readOnly: req.readOnly, lifecycle: req.lifecycle, openWorld: req.openWorld })
            ? `${req.tool} denied: plan-first mode requires record_plan to be called before any tool that changes state or reaches outside the machine. Call record_plan(plan: <your markdown plan>) first, then retry.`
            : null
      : undefined,
  });
  const dispatcher = new Dispatcher({
    catalog,
    gate,
    workspace,
    toolOutput: recipe.tool_output ?? {},
    logger,
    afterGate: opts.afterGate,
    session,
  });
  // ${CORE_AGENT_RECIPE_DIR} in a server's args and env finds files shipped beside the recipe.
  const mcpEnv = s.recipe ? { ...env, CORE_AGENT_RECIPE_DIR: path.dirname(path.resolve(s.recipe)) } : env;
  const mcp = opts.startMcp === false ? undefined : await startMcp(mcpConfig.servers ?? {}, catalog, workspace, mcpEnv, logger, s);
  if (mcp) session.onClose(() => mcp.close());
  logger.info(
    {
      workspace,
      mode: gate.mode,
      tools: catalog.names(),
      ...(mcp ? { mcp_servers: mcp.status() } : {}),
      digest: digests ? 'on' : 'off',
      path_scope: scope.describe(),
      ...(networkAccess ? { url_scope: networkAccess.scope.describe() } : {}),
      // The proxy's host only: its URL may carry credentials.
      ...(networkAccess?.proxy ? { fetch_proxy: networkAccess.proxy.host } : {}),
      ...(services.alertTargets.length ? { alert_targets: services.alertTargets.map((t) => t.name) } : {}),
    },
    'runtime ready',
  );
  return { workspace, session, services, recipe, catalog, gate, dispatcher, mcp };
}

/** Connect the declared MCP servers; a server that fails is reported and retried, never fatal. */
async function startMcp(
  servers: Readonly<Record<string, import('../config/mcp-schema.ts').McpServerConfig>>,
  catalog: Catalog,
  workspace: string,
  env: NodeJS.ProcessEnv,
  logger: Logger,
  s: { allowTools?: readonly string[] | undefined; denyTools?: readonly string[] | undefined },
): Promise<McpManager | undefined> {
  if (Object.values(servers).every((c) => c.disabled)) return undefined;
  // The same grammar as permission rules: mcp.<server>, mcp.<server>.<tool>, * anywhere.
  const parsed = (names: readonly string[]) => names.filter((n) => n.startsWith('mcp.')).map((n) => parseRule(n));
  const allowRules = parsed(s.allowTools ?? []);
  const denyRules = parsed(s.denyTools ?? []);
  const matches = (rules: readonly Rule[], name: string) => rules.some((r) => ruleMatches(r, name, [], 'any'));
  const allow = s.allowTools && s.allowTools.length > 0 ? allowRules : null;
  const deny = denyRules;
  const manager = new McpManager({
    servers,
    catalog,
    workspace,
    env,
    logger,
    keep: (name) => (allow === null || matches(allow, name)) && !matches(deny, name),
  });
  await manager.start();
  return manager;
}

/** web_search's provider and alert's live targets: what the recipe names and the environment completes. */
function networkOptions(
  recipe: Recipe,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Partial<Pick<ToolServices, 'searchProvider' | 'searchResults' | 'alertTargets'>> {
  const out: { searchProvider?: SearchProvider; searchResults?: number; alertTargets?: ToolServices['alertTargets'] } = {};
  const ws = recipe.web_search;
  if (ws) {
    const key = ws.api_key_env ? env[ws.api_key_env] : undefined;
    let provider: SearchProvider | undefined;
    if (ws.api_key_env && !key)
      logger.warn({ provider: ws.provider, api_key_env: ws.api_key_env }, 'web_search not registered: its API key variable is not set');
    else if (ws.provider === 'brave') provider = braveProvider(ws.url ?? 'https://api.search.brave.com', key!);
    else provider = searxngProvider(ws.url!, key);
    if (provider) out.searchProvider = provider;
    if (ws.max_results !== undefined) out.searchResults = ws.max_results;
  }
  const targets = recipe.alerts?.targets;
  if (targets) {
    const { live, dropped } = liveTargets(targets, env);
    // Said at startup, loudly: an operator who configured a pager expects it to work.
    for (const d of dropped) logger.warn({ target: d.target, reason: d.reason }, 'alert target dropped: it could never deliver');
    out.alertTargets = live;
  }
  return out;
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

async function resolveWorkspace(dir: string): Promise<string> {
  const abs = path.resolve(dir);
  try {
    if (!(await stat(abs)).isDirectory()) throw new SettingsError(`workspace ${abs} is not a directory`);
    return await realpath(abs);
  } catch (err) {
    if (err instanceof SettingsError) throw err;
    throw new SettingsError(`workspace ${abs} does not exist`);
  }
}
