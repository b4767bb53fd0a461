import path from 'node:path';
import { userConfigPath } from '../config/config-layers.ts';
import type { Recipe } from '../config/recipe-schema.ts';
import { silentLogger, type Logger } from '../log.ts';
import type { McpManager } from '../mcp/manager.ts';
import type { Resolver } from '../net/guarded-fetch.ts';
import type { Gate, Prompter } from '../permissions/gate.ts';
import type { Catalog } from '../tools/framework/catalog.ts';
import type { RawStore } from '../tools/framework/digest-wrap.ts';
import type { Dispatcher } from '../tools/framework/dispatch.ts';
import type { SessionState } from '../tools/framework/session.ts';
import { buildCatalog, turnedOff } from './catalog-step.ts';
import { buildDispatcher } from './dispatcher-step.ts';
import { buildGate } from './gate-step.ts';
import { buildHooks, notifyingAsker, notifyingPrompter } from './hooks-step.ts';
import { HookRelay, type HookSink } from '../tools/framework/hooks.ts';
import { startMcp } from './mcp-step.ts';
import { checkProfileSkills, offerProfileTools } from './profiles-step.ts';
import { clusterNotice } from '../tools/k8s/services.ts';
import { loadConfigStep, recipeDirOf, resolveWorkspace } from './recipe-step.ts';
import { buildServices, type SessionServices } from './services.ts';
import type { ToolServices } from '../tools/framework/services.ts';
import { resolveSettings, type FlagSettings, type Settings } from './settings.ts';
import { homeOf, terminalPrincipal } from './state-dir.ts';
import type { Principal } from '../core/principal.ts';
import { processSecrets, registerConfiguredSecrets, registerEnvironmentSecrets } from './secrets.ts';
import type { SecretValues } from '../util/secret-values.ts';

/** Everything the tools need, wired once: the composition root's steps up to the dispatcher (and MCP). */
export interface Runtime {
  readonly workspace: string;
  readonly session: SessionState;
  readonly recipe: Recipe;
  readonly settings: Settings;
  /** What the tools were handed (the cluster, the network, the plan recorder, …). */
  readonly services: ToolServices;
  readonly catalog: Catalog;
  readonly gate: Gate;
  readonly dispatcher: Dispatcher;
  /** The MCP servers, when the recipe or .agents/mcp.json declares any (closed with the session). */
  readonly mcp: McpManager | undefined;
  /** core-agent's user directory ($XDG_CONFIG_HOME/core-agent, else ~/.config/core-agent): the user file and the user's AGENTS.md. */
  readonly userDir: string;
  /** The recipe's hooks, approved at start-up (the dispatcher and the agent fire them); absent without any. */
  readonly hooks: HookSink | undefined;
}

export interface RuntimeOptions {
  flags: FlagSettings;
  /** The settings step's result, when the caller has run it already (it is not run twice). */
  settings?: Settings | undefined;
  /** The process environment; every CORE_AGENT_* variable in it is read by the settings step. */
  env: NodeJS.ProcessEnv;
  /** Present when a person can answer permission prompts (a TTY). */
  prompter?: Prompter | undefined;
  logger?: Logger;
  /** Test seam, passed to the dispatcher. */
  afterGate?: (tool: string) => void | Promise<void>;
  /** Test seam: the DNS resolver the SSRF guard uses (default: the system's). */
  resolver?: Resolver;
  /** The session the tools serve: its turn, todo list, terminals and identity. */
  session?: SessionState;
  /**
   * The agent session's own services, which decide the session tools: an asker
   * (ask_user), a checkpointer (mark_task_done), a scheduler (schedule_next_turn).
   * The plan recorder (record_plan) comes from permissions.plan_mode.
   */
  services?: SessionServices | undefined;
  /** The environment commands (bash) start from; default `env`. */
  commandEnv?: NodeJS.ProcessEnv | undefined;
  /**
   * Where digested results keep their raw payload (the session's event log).
   * Without one there is no digest layer and no retrieve_raw: a digest is only
   * safe while retrieve_raw can undo it.
   */
  rawStore?: RawStore | undefined;
  /** false: declare but do not start MCP servers (recipe validate). */
  startMcp?: boolean;
  /**
   * false: build from the recipe alone, never the world it names (recipe validate: a CI job that
   * checks recipes has no cluster and none of their secrets). No cluster is looked for, and what
   * only start-up can know — a required cluster, MCP server or alert target, a variable the
   * recipe names — is left to start-up and `doctor`. Default true.
   */
  checkWorld?: boolean;
  /** Where lines for the user go (ignored project keys, absent Kubernetes tools); default: the logger's warn. */
  say?: ((text: string) => void) | undefined;
  /**
   * core-agent's state directory (stateDir): the shells' process groups and the
   * atomic writes in flight are recorded under it, and what a killed core-agent
   * left behind there is cleaned up first. Absent: nothing is recorded or
   * reaped (tests, recipe validate).
   */
  stateDir?: string | undefined;
  /**
   * Where the users' homes are when nothing is recorded (tools list): the per-user families
   * (memory) are then listed as a run would offer them, without touching the state directory.
   */
  homesDir?: string | undefined;
  /** The registry of secret values the dispatcher masks in every result (default: the process's one). */
  secrets?: SecretValues | undefined;
  /** Who the run acts for (the attach daemon's caller, a service principal); default: the terminal's user. */
  principal?: Principal | undefined;
}

/**
 * recipe → settings → services → catalog → gate → dispatcher (→ MCP servers).
 * Precedence, highest first: flags, environment (CORE_AGENT_*), the recipe, the
 * project file, the user file, built-in defaults. Throws SettingsError / RecipeError for anything unusable,
 * before a single tool exists.
 */
export async function createRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const { env } = opts;
  const logger = opts.logger ?? silentLogger;
  const settings = opts.settings ?? resolveSettings(opts.flags, env);
  const workspace = await resolveWorkspace(settings.workspace ?? process.cwd());
  const home = homeOf(env);
  // The user and project files under the recipe (src/config/config-layers.ts).
  const { recipe, notices } = await loadConfigStep(settings, { workspace, env, home });
  const say = opts.say ?? ((line: string) => logger.warn(line.trimEnd()));
  for (const line of notices) say(`core-agent: ${line}\n`);
  const disabled = turnedOff(recipe, settings);
  // Delegation's profiles and limits, before the catalog: spawn_agent's description names the profiles.
  // The dialect (as the catalog step reads it) picks the concurrency default: Cagent's is 10.
  opts.services?.delegator?.configure(recipe.agents, settings.dialect ?? recipe.tools?.dialect);
  // The asker and the prompter exist before the hooks: they fire notification through this relay.
  const relay = new HookRelay();
  const asker = opts.services?.asker;
  const services = await buildServices({
    settings,
    recipe,
    recipeDir: recipeDirOf(settings, workspace),
    workspace,
    env,
    home,
    logger,
    session: opts.session,
    sessionServices: asker ? { ...opts.services, asker: notifyingAsker(asker, relay) } : opts.services,
    commandEnv: opts.commandEnv,
    rawStore: opts.rawStore,
    stateDir: opts.stateDir,
    homesDir: opts.homesDir,
    principal: opts.principal ?? terminalPrincipal(env),
    resolver: opts.resolver,
    disabled,
    checkWorld: opts.checkWorld !== false,
  });
  const { session, tools } = services;
  await checkProfileSkills(recipe.agents, tools, settings.recipe);
  // Before any tool runs: what the environment and the configuration mark as credentials.
  const secrets = opts.secrets ?? processSecrets;
  registerEnvironmentSecrets(secrets, env);
  registerConfiguredSecrets(secrets, env, { recipe, mcp: services.mcpConfig });
  const noCluster = opts.checkWorld === false ? undefined : clusterNotice(recipe, tools.kubeUnavailable);
  if (noCluster) say(noCluster);
  const catalog = buildCatalog({ settings, recipe, services, disabled, logger });
  await offerProfileTools(catalog, opts.services?.delegator, recipe.tools?.kinds);
  const prompter = opts.prompter && notifyingPrompter(opts.prompter, relay);
  const gate = buildGate({ settings, recipe, services, prompter, logger });
  const hooks = await buildHooks({ recipe, recipeFile: settings.recipe, settings, services, logger });
  if (hooks) relay.target = hooks;
  const dispatcher = buildDispatcher({ catalog, gate, recipe, services, logger, afterGate: opts.afterGate, hooks, secrets });
  const mcp =
    opts.startMcp === false
      ? undefined
      : await startMcp({
          servers: services.mcpConfig.servers ?? {},
          catalog,
          workspace,
          env,
          logger,
          settings,
          resolver: opts.resolver,
          secrets,
        });
  if (mcp) session.onClose(() => mcp.close());
  logger.info(
    {
      workspace,
      mode: gate.mode,
      tools: catalog.names(),
      ...(mcp ? { mcp_servers: mcp.status() } : {}),
      digest: tools.digests ? 'on' : 'off',
      path_scope: services.scope.describe(),
      ...(tools.network ? { url_scope: tools.network.scope.describe() } : {}),
      // The proxy's host only: its URL may carry credentials.
      ...(tools.network?.proxy ? { fetch_proxy: tools.network.proxy.host } : {}),
      ...(tools.alertTargets?.length ? { alert_targets: tools.alertTargets.map((t) => t.name) } : {}),
    },
    'runtime ready',
  );
  const userDir = path.dirname(userConfigPath(env, home));
  return { workspace, session, recipe, settings, services: tools, catalog, gate, dispatcher, mcp, hooks, userDir };
}
