import type { Recipe } from '../config/recipe-schema.ts';
import type { WatchConfig } from '../config/watch-schema.ts';
import { UsageError } from '../core/usage-error.ts';
import type { Kube } from '../k8s/cluster.ts';
import type { Logger } from '../log.ts';
import type { AlertTarget } from '../net/alert-targets.ts';
import type { EventLog } from '../store/event-log.ts';
import type { StartIncidentSession } from '../watch/incident-session.ts';
import { parseListen, WATCH_LISTEN_DEFAULT } from '../watch/listen.ts';
import { clusterStep } from '../tools/k8s/services.ts';
import { alertTargetsStep } from '../tools/web/services.ts';
import { modelSpecOf, modelStep } from './model-step.ts';
import { loadRecipeStep, recipeDirOf } from './recipe-step.ts';
import { processSecrets, registerConfiguredSecrets } from './secrets.ts';
import type { Settings } from './settings.ts';
import { homeOf } from './state-dir.ts';
import { DEFAULT_SERVICE_PRINCIPAL, principal } from '../core/principal.ts';
import { openSessionLog, sessionDbPath } from './store-step.ts';
import type { AgentRequest, AgentSystem, WatchRequest, WatchSystem } from './requests.ts';

/**
 * The steps watch needs before its first event — recipe, settings, model,
 * cluster, alert target, store — each the same step `run` takes, so a
 * watch that starts is one whose sessions can.
 */
export async function prepareWatch(
  r: WatchRequest,
  settings: Settings,
  logger: Logger,
  build: (req: AgentRequest) => Promise<AgentSystem>,
): Promise<WatchSystem> {
  const recipe = await loadRecipeStep(settings);
  registerConfiguredSecrets(processSecrets, r.env, recipe);
  const cfg = recipe.watch;
  if (!cfg) throw new UsageError(`${settings.recipe} has no watch: section (core-agent recipe schema shows its keys)`, r.command);
  const modelSpec = modelSpecOf(settings, recipe, r.command);
  await modelStep(modelSpec, r.env, r.command); // a missing key fails now, not in every session
  const cluster = clusterStep(recipe, r.env, homeOf(r.env));
  if ('unavailable' in cluster) throw new UsageError(`no cluster to watch: ${cluster.unavailable}`, r.command);
  // The configuration read and checked now (no request is made): one that cannot be is exit 2
  // with its reason, not a watcher that starts and retries it forever.
  const unusable = await cluster.kube.conn().then(
    () => undefined,
    (err: unknown) => (err as Error).message,
  );
  if (unusable !== undefined) throw new UsageError(`no cluster to watch: ${unusable}`, r.command);

  let alertTarget: AlertTarget | undefined;
  // Every target, not only watch.alert_target: a required one that cannot deliver stops the start
  // here, not in each incident's session later.
  const targets = alertTargetsStep(recipe, r.env);
  if (cfg.alert_target) {
    alertTarget = targets?.live.find((t) => t.name === cfg.alert_target);
    const why = targets?.dropped.find((d) => d.target === cfg.alert_target)?.reason;
    if (!alertTarget) logger.warn({ target: cfg.alert_target, reason: why }, 'outcomes will not be sent: the alert target is not live');
  }
  const dbPath = sessionDbPath(settings, r.env);
  const log = openSessionLog({ location: dbPath, fresh: r.fresh, say: r.say });
  const sessionSettings: Settings = { ...settings, model: modelSpec };
  // Unattended: an incident's session acts for a named service principal, never an admin, never a person.
  const service = principal(cfg.service_principal ?? DEFAULT_SERVICE_PRINCIPAL, { service: true });
  const startSession: StartIncidentSession = async ({ title, resume }) => {
    const s = await build({
      until: 'agent',
      flags: {},
      settings: sessionSettings,
      env: r.env,
      command: r.command,
      // A session's own log level defaults lower than watch's progress.
      logLevel: 'warn',
      say: r.say,
      defaults: { watchdog: 'enforce', ask: 'off' },
      checkpoint: 'auto',
      maxSteps: r.maxSteps,
      resume,
      interactive: r.interactive,
      title,
      onEvent: () => undefined,
      log,
      principal: service,
    });
    return { sessionId: s.sessionId, agent: s.agent, resumed: s.resumed, close: () => s.session.close() };
  };
  return {
    recipe,
    cfg,
    kube: cluster.kube,
    alertTarget,
    log,
    dbPath,
    modelSpec,
    logger,
    listen: settings.listen ?? parseListen(WATCH_LISTEN_DEFAULT),
    startSession,
    recipeDir: recipeDirOf(settings, process.cwd()),
  };
}
