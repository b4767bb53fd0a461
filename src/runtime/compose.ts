import { createLogger, type Logger } from '../log.ts';
import { startUpIsOver } from '../startup/fs-callbacks.ts';
import type { RequestBase } from './requests.ts';
import { processSecrets, registerEnvironmentSecrets } from './secrets.ts';
import { ENV, resolveSettings, type Settings } from './settings.ts';

/**
 * The first steps every system is built from — settings, the environment's secrets, the
 * logger — then `build`, the command's own steps; start-up is over when it settles. Apart from
 * system.ts so that a command needing one kind of system imports only its steps (the tools'
 * listing script holds no agent and no watcher: tools-system.ts).
 */
export function composeSystem<T>(r: RequestBase, build: (settings: Settings, logger: Logger) => Promise<T>): Promise<T> {
  holdStartUp(r.env);
  const settings = r.settings ?? resolveSettings(r.flags, r.env);
  registerEnvironmentSecrets(processSecrets, r.env);
  const logger = createLogger(settings.logLevel ?? r.logLevel, r.logSink, processSecrets);
  return build(settings, logger).finally(startUpIsOver);
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
