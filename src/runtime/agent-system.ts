// The composition root's agent path (src/runtime/system.ts): run, repl and each of watch's
// incident sessions build every step, to a running agent. A module of its own so that the
// commands that stop at the dispatcher (tools list, tools call, mcp serve) never evaluate the
// loop, the model step or the session store's resume.
import { ScheduleRequests } from '../agent/autonomous.ts';
import { PendingCheckpoint } from '../agent/checkpoint.ts';
import type { Logger } from '../log.ts';
import { SessionDbError } from '../store/session-db.ts';
import { SessionState } from '../tools/framework/session.ts';
import { startAgent } from './agent-step.ts';
import { ChildAgents } from './child-agents.ts';
import { modelInfo } from '../model/registry.ts';
import { askerFor } from './askers.ts';
import { modelSpecOf, modelStep } from './model-step.ts';
import { createRuntime } from './runtime.ts';
import { resumeStep } from './resume-step.ts';
import type { Settings } from './settings.ts';
import { stateDir, terminalPrincipal } from './state-dir.ts';
import { openSessionLog, sessionDbPath } from './store-step.ts';
import type { AgentRequest, AgentSystem } from './requests.ts';

export async function agentSystem(r: AgentRequest, flagSettings: Settings, logger: Logger): Promise<AgentSystem> {
  // Session services decide which session tools the catalog registers.
  const session = new SessionState();
  const checkpoints = r.checkpoint === 'auto' ? new PendingCheckpoint() : undefined;
  const schedule = r.maxDeferMs !== undefined ? new ScheduleRequests(r.maxDeferMs) : undefined;
  const askMode = flagSettings.ask ?? r.defaults.ask;
  // The delegation engine exists before the catalog (spawn_agent needs it): the runtime step
  // configures it from the recipe's agents: section, and it is handed the run once built.
  const children = new ChildAgents();
  const services = {
    checkpointer: checkpoints,
    scheduler: schedule,
    asker: askMode === 'off' ? undefined : (r.asker ?? askerFor(askMode, r.interactive)),
    peerRoster: r.peerRoster,
    delegator: children,
    answersLater: r.answersLater,
  };

  // Who the session acts for: the caller's choice (the attach daemon's owner, watch's service principal), else the terminal's user.
  const actsFor = r.principal ?? terminalPrincipal(r.env);
  const log =
    r.log ?? openSessionLog({ location: sessionDbPath(flagSettings, r.env), fresh: r.fresh === true, resume: r.resume, say: r.say });
  let resume = r.resume;
  try {
    // A resumed session runs where it ran, on its model, unless flags or env say otherwise.
    const target = await resumeStep(log, flagSettings, r.resume, r.command);
    const settings = target.settings;
    resume = target.resume;
    // The event log keeps the raw payloads behind digests, under this session's id.
    const rawStore = {
      put: (tool: string, rawJson: string) => log.putRaw(session.sessionId!, tool, rawJson),
      get: (callId: string) => log.getRaw(session.sessionId!, callId),
    };
    const runtime = await createRuntime({
      flags: r.flags,
      settings,
      env: r.env,
      logger,
      session,
      services,
      prompter: r.prompter,
      say: r.say,
      rawStore,
      stateDir: stateDir(r.env),
      principal: actsFor,
    });
    const modelSpec = modelSpecOf(settings, runtime.recipe, r.command);
    const model = await modelStep(modelSpec, r.env, r.command);
    const priceOf = (spec: string) => modelInfo(spec, runtime.recipe.context ?? {}).price;
    if (settings.maxSessionCostUsd !== undefined && priceOf(modelSpec) === null)
      r.say(
        `core-agent: --max-session-cost-usd cannot be enforced: the price of ${modelSpec} is unknown (give it in the recipe's context.price)\n`,
      );
    children.attach({
      catalog: runtime.catalog,
      dispatcher: runtime.dispatcher,
      log,
      workspace: runtime.workspace,
      model: { model, spec: modelSpec, price: priceOf(modelSpec) },
      modelFor: async (spec) => ({ model: await modelStep(spec, r.env, r.command), spec, price: priceOf(spec) }),
      logger,
    });
    // A child never outlives its run: the session's close stops what still runs.
    session.onClose(() => children.stopAll());
    const { agent, sessionId, resumed } = await startAgent({
      runtime,
      model,
      modelSpec,
      log,
      command: r.command,
      title: r.title,
      resume,
      resetWatchdog: r.resetWatchdog,
      maxSteps: r.maxSteps,
      maxSessionCostUsd: settings.maxSessionCostUsd,
      watchdog: settings.watchdog ?? r.defaults.watchdog,
      checkpoints,
      onEvent: r.onEvent,
      inbox: (sessionId) => children.takeReports(sessionId),
      principal: actsFor,
    });
    // Its children's spend rolls up into it; their starts and ends show in its output.
    children.adopt(sessionId, agent);
    return { agent, runtime, log, sessionId, modelSpec, session, resumed, schedule, children };
  } catch (err) {
    await session.close();
    if (!r.log) log.close();
    // A damaged page found while reading the session back: the advice must know it was a --resume.
    if (err instanceof SessionDbError) err.resume ??= resume;
    throw err;
  }
}
