import { createLogger, type Logger } from '../log.ts';
import { processSecrets, registerEnvironmentSecrets } from './secrets.ts';
import { startUpIsOver } from '../startup/fs-callbacks.ts';
import type { AgentRequest, AgentSystem, RequestBase, ToolsRequest, ToolsSystem, WatchRequest, WatchSystem } from './requests.ts';
import { createRuntime, type Runtime } from './runtime.ts';
import { ENV, resolveSettings, type Settings } from './settings.ts';
import { stateDir } from './state-dir.ts';
import { openSessionLog, recordingSession } from './store-step.ts';

export type { AgentRequest, AgentSystem, RequestBase, ToolsRequest, ToolsSystem, WatchRequest, WatchSystem };

/**
 * The composition root: every command builds the system here, in named steps —
 * recipe → settings → services → catalog → gate → dispatcher → store → model →
 * agent — asking only for the steps it needs (`until`).
 */
export function buildSystem(r: ToolsRequest): Promise<ToolsSystem>;
export function buildSystem(r: AgentRequest): Promise<AgentSystem>;
export function buildSystem(r: WatchRequest): Promise<WatchSystem>;
export function buildSystem(r: ToolsRequest | AgentRequest | WatchRequest): Promise<ToolsSystem | AgentSystem | WatchSystem> {
  holdStartUp(r.env);
  // The start-up's file calls are synchronous until the first system is built (src/startup/fs-callbacks.ts).
  return buildSystemSteps(r).finally(startUpIsOver);
}

let held = false;

/**
 * CORE_AGENT_DEBUG_START_DELAY_MS: the first build holds the thread that long, as a loaded
 * machine holds a start-up that is synchronous — no timer, no signal handler, no reader runs
 * meanwhile. For reproducing start-up races (a wait that ran out during start-up, Ctrl-C while
 * it starts: test/cli/prompt-input.cases.ts, test/cli/startup-failures.test.ts).
 */
function holdStartUp(env: NodeJS.ProcessEnv): void {
  const raw = env[ENV.debugStartDelayMs.name];
  if (held || !raw) return;
  held = true;
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ENV.debugStartDelayMs.parse(raw));
}

function buildSystemSteps(r: ToolsRequest | AgentRequest | WatchRequest): Promise<ToolsSystem | AgentSystem | WatchSystem> {
  const settings = r.settings ?? resolveSettings(r.flags, r.env);
  // Credentials are masked in every log line from the first (the recipe's, once it is read, join them).
  registerEnvironmentSecrets(processSecrets, r.env);
  const logger = createLogger(settings.logLevel ?? r.logLevel, r.logSink, processSecrets);
  if (r.until === 'dispatcher') return toolsSystem(r, settings, logger);
  // The agent's and the watcher's steps are modules of their own: listing the catalog or
  // calling one tool evaluates neither the loop, the model step nor the informer.
  if (r.until === 'agent') return import('./agent-system.ts').then((m) => m.agentSystem(r, settings, logger));
  return import('./watch-step.ts').then((m) => m.prepareWatch(r, settings, logger, (req) => buildSystem(req)));
}

async function toolsSystem(r: ToolsRequest, settings: Settings, logger: Logger): Promise<ToolsSystem> {
  // Only a database the user named: a one-off call does not fill the default one.
  const log =
    r.recordAs !== undefined && settings.sessionDb !== undefined
      ? openSessionLog({ location: settings.sessionDb, fresh: r.fresh === true, say: r.say })
      : undefined;
  let runtime: Runtime;
  try {
    runtime = await createRuntime({
      flags: r.flags,
      settings,
      env: r.env,
      logger,
      prompter: r.prompter,
      say: r.say,
      startMcp: r.startMcp,
      checkWorld: r.checkWorld,
      stateDir: r.stateDir ? stateDir(r.env) : undefined,
    });
  } catch (err) {
    log?.close();
    throw err;
  }
  // The session exists once the catalog does (session_start lists the tools); every call from here on is recorded in it.
  if (log) runtime.dispatcher.recordTo(recordingSession(log, runtime, r.recordAs!));
  return {
    runtime,
    logger,
    log,
    close: async () => {
      await runtime.session.close();
      log?.close();
    },
  };
}
