import type { StartAttachSession } from '../attach/hub.ts';
import type { EventLog } from '../store/event-log.ts';
import type { Settings } from './settings.ts';
import type { AgentRequest, AgentSystem } from './system.ts';

export interface AttachSessionsOptions {
  /** The settings every session runs with (the daemon's flags over the environment over the recipe). */
  settings: Settings;
  env: NodeJS.ProcessEnv;
  command: string;
  /** The event log every session shares (the daemon closes it). */
  log: EventLog;
  say: (text: string) => void;
  maxSteps?: number | undefined;
  build: (req: AgentRequest) => Promise<AgentSystem>;
}

/**
 * The attach daemon's way to start a session: an `'agent'` system per session in
 * the shared log, whose permission prompts go to the session's broker (a person
 * answers them over HTTP). Headless otherwise: ask_user is off and the watchdog
 * enforces, as in watch's incident sessions.
 */
export function attachSessions(o: AttachSessionsOptions): StartAttachSession {
  return async ({ title, resume, prompter }) => {
    const s = await o.build({
      until: 'agent',
      flags: {},
      settings: o.settings,
      env: o.env,
      command: o.command,
      logLevel: 'warn',
      say: o.say,
      defaults: { watchdog: 'enforce', ask: 'off' },
      checkpoint: 'auto',
      maxSteps: o.maxSteps,
      resume,
      interactive: false,
      prompter,
      title,
      onEvent: () => undefined,
      log: o.log,
    });
    return { sessionId: s.sessionId, agent: s.agent, close: () => s.session.close() };
  };
}
