import { mkdirSync } from 'node:fs';
import type { StartAttachSession } from '../attach/hub.ts';
import type { Recipe } from '../config/recipe-schema.ts';
import { userHome, type Principal } from '../core/principal.ts';
import { createLogger, type Logger } from '../log.ts';
import { processSecrets, registerConfiguredSecrets, registerEnvironmentSecrets } from './secrets.ts';
import type { EventLog } from '../store/event-log.ts';
import type { PeerRoster } from '../tools/peers/peer-directory.ts';
import { modelSpecOf, modelStep } from './model-step.ts';
import { startPeerFleet, type PeerFleet } from './peers-step.ts';
import { loadRecipeStep } from './recipe-step.ts';
import { resolveSettings, type FlagSettings, type Settings } from './settings.ts';
import { stateDir } from './state-dir.ts';
import { openSessionLog, sessionDbPath } from './store-step.ts';
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
  /** On a peer hub: the registry each session's call_peer resolves names against. */
  peerRoster?: PeerRoster | undefined;
  /** attach.workspace: `per_user` roots each session's workspace at its owner's home; default `shared` (the daemon's). */
  workspace?: 'shared' | 'per_user' | undefined;
}

/**
 * The attach daemon's way to start a session: an `'agent'` system per session in
 * the shared log, whose permission prompts go to the session's broker (a person
 * answers them over HTTP). Headless otherwise: ask_user is off and the watchdog
 * enforces, as in watch's incident sessions.
 */
export function attachSessions(o: AttachSessionsOptions): StartAttachSession {
  return async ({ title, resume, prompter, principal }) => {
    const s = await o.build({
      until: 'agent',
      flags: {},
      settings:
        o.workspace === 'per_user' && principal ? { ...o.settings, workspace: ownWorkspace(stateDir(o.env), principal) } : o.settings,
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
      // AskUserQuestionTool's questions wait in the log for POST …/questions/{id}/answer.
      answersLater: true,
      title,
      onEvent: () => undefined,
      log: o.log,
      peerRoster: o.peerRoster,
      // The owner, whoever drives the session: its memory, skills and files stay in one home.
      principal,
    });
    return { sessionId: s.sessionId, agent: s.agent, close: () => s.session.close() };
  };
}

/** The owner's workspace folder, made (0700: the principal's own) on first use. */
function ownWorkspace(state: string, p: Principal): string {
  const dir = userHome(state, p).workspace;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

export interface ServeRequest {
  flags: FlagSettings;
  env: NodeJS.ProcessEnv;
  command: string;
  say: (text: string) => void;
  /** --fresh-session-db. */
  fresh: boolean;
  maxSteps?: number | undefined;
  build: (req: AgentRequest) => Promise<AgentSystem>;
}

export interface ServeSystem {
  recipe: Recipe;
  settings: Settings;
  logger: Logger;
  log: EventLog;
  dbPath: string;
  modelSpec: string;
  startSession: StartAttachSession;
  /** The recipe's peers: section started: the hub's registry (mount its route) and this daemon's registration. */
  peers: PeerFleet;
}

/**
 * serve: the steps the daemon needs before its first request — settings,
 * recipe, the model (checked once: a missing key fails now, not in every
 * session), the store — and the way it starts each session.
 */
export async function prepareServe(r: ServeRequest): Promise<ServeSystem> {
  const settings = resolveSettings(r.flags, r.env);
  registerEnvironmentSecrets(processSecrets, r.env);
  const logger = createLogger(settings.logLevel ?? 'info', undefined, processSecrets);
  const recipe = await loadRecipeStep(settings);
  registerConfiguredSecrets(processSecrets, r.env, recipe);
  const modelSpec = modelSpecOf(settings, recipe, r.command);
  await modelStep(modelSpec, r.env, r.command);
  const dbPath = sessionDbPath(settings, r.env);
  const log = openSessionLog({ location: dbPath, fresh: r.fresh, say: r.say });
  let peers: PeerFleet;
  try {
    peers = startPeerFleet(recipe, r.env, stateDir(r.env), logger);
  } catch (err) {
    log.close();
    throw err;
  }
  const startSession = attachSessions({
    settings: { ...settings, model: modelSpec },
    env: r.env,
    command: r.command,
    log,
    say: r.say,
    maxSteps: r.maxSteps,
    build: r.build,
    peerRoster: peers.registry,
    workspace: recipe.attach?.workspace,
  });
  return { recipe, settings, logger, log, dbPath, modelSpec, startSession, peers };
}
