import type { Logger } from '../log.ts';
import { composeSystem } from './compose.ts';
import type { ToolsRequest, ToolsSystem } from './requests.ts';
import { createRuntime, type Runtime } from './runtime.ts';
import type { Settings } from './settings.ts';
import { stateDir } from './state-dir.ts';
import { openSessionLog, recordingSession } from './store-step.ts';

/**
 * The system `tools list` and `tools call` need: the runtime up to the dispatcher, and the
 * session log when the calls are recorded. buildSystem gives the same for `until: 'dispatcher'`;
 * a command that needs nothing more imports this file instead, and none of the agent's or
 * the watcher's steps (the tools' listing script: docs/startup.md).
 */
export function buildToolsSystem(r: ToolsRequest): Promise<ToolsSystem> {
  return composeSystem(r, (settings, logger) => toolsSystem(r, settings, logger));
}

export async function toolsSystem(r: ToolsRequest, settings: Settings, logger: Logger): Promise<ToolsSystem> {
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
      homesDir: stateDir(r.env),
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
