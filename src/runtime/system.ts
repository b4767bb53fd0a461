import type { AgentEvent } from '../agent/agent.ts';
import type { ScheduleRequests } from '../agent/autonomous.ts';
import type { RebuiltSession } from '../agent/resume.ts';
import type { Agent } from '../agent/agent.ts';
import type { WatchdogMode } from '../agent/watchdog.ts';
import { createLogger, type Logger, type LogLevel } from '../log.ts';
import type { Prompter } from '../permissions/gate.ts';
import type { EventLog } from '../store/event-log.ts';
import type { PeerRoster } from '../tools/peers/peer-directory.ts';
import type { Asker } from '../tools/services.ts';
import type { SessionState } from '../tools/session.ts';
import type { AskMode } from './askers.ts';
import { startUpIsOver } from '../util/fs-callbacks.ts';
import { createRuntime, type Runtime } from './runtime.ts';
import { resolveSettings, type FlagSettings, type Settings } from './settings.ts';
import { stateDir } from './state-dir.ts';
import { openSessionLog, recordingSession } from './store-step.ts';
import type { WatchRequest, WatchSystem } from './watch-step.ts';

/** What every command gives the root. */
export interface RequestBase {
  /** The command line's settings (flags beat the environment, which beats the recipe). */
  flags: FlagSettings;
  /** The settings step's result when the caller already has it (watch's sessions): not read again. */
  settings?: Settings | undefined;
  env: NodeJS.ProcessEnv;
  /** The command, for usage errors. */
  command: string;
  /** The log level when neither --log-level nor CORE_AGENT_LOG_LEVEL sets one. */
  logLevel: LogLevel;
  /** Where the root says things to the user (a damaged database moved aside). */
  say: (text: string) => void;
  /** Where each log line goes instead of stderr (a terminal's renderer pretty-prints it). */
  logSink?: ((line: string) => void) | undefined;
}

/** recipe validate, tools list, tools call, mcp serve: the steps up to the dispatcher, and the store when one is set. */
export interface ToolsRequest extends RequestBase {
  until: 'dispatcher';
  prompter?: Prompter | undefined;
  /** false: declare MCP servers without starting them (recipe validate). */
  startMcp?: boolean;
  /** Record (and first reap) process groups and writes in flight in the state directory. */
  stateDir?: boolean;
  /**
   * With a session database set (--session-db or CORE_AGENT_SESSION_DB; there is
   * no default here), every call is recorded in a new session of this title.
   */
  recordAs?: string | undefined;
  /** --fresh-session-db: a damaged database is moved aside and a fresh one started. */
  fresh?: boolean | undefined;
}

export interface ToolsSystem {
  runtime: Runtime;
  logger: Logger;
  /** The event log the calls are recorded in, when one was set. */
  log: EventLog | undefined;
  /** Stops what the runtime started (terminals, MCP servers) and closes the log. */
  close(): Promise<void>;
}

/** run, repl, and each of watch's incident sessions: every step, to a running agent. */
export interface AgentRequest extends RequestBase {
  until: 'agent';
  /** On a peer hub (serve with peers.hub): the live registry call_peer resolves names against. */
  peerRoster?: PeerRoster | undefined;
  /** Defaults that differ between headless and interactive use. */
  defaults: { watchdog: WatchdogMode; ask: AskMode };
  checkpoint: 'auto' | 'operator';
  maxSteps?: number | undefined;
  resume?: string | undefined;
  resetWatchdog?: boolean | undefined;
  /** --fresh-session-db. */
  fresh?: boolean | undefined;
  /** Whether a person is at a terminal (ask auto asks there). */
  interactive: boolean;
  /** Who answers permission prompts and ask_user (the REPL brings its own). */
  prompter?: Prompter | undefined;
  asker?: Asker | undefined;
  /** A new session's title (its first prompt). */
  title: string;
  /** autonomous runs: the longest wait schedule_next_turn may ask for. */
  maxDeferMs?: number | undefined;
  onEvent: (e: AgentEvent) => void;
  /** An event log the caller owns and closes (watch shares one across its sessions). */
  log?: EventLog | undefined;
}

export interface AgentSystem {
  agent: Agent;
  runtime: Runtime;
  log: EventLog;
  sessionId: string;
  modelSpec: string;
  session: SessionState;
  resumed: RebuiltSession | null;
  schedule: ScheduleRequests | undefined;
}

export type { WatchRequest, WatchSystem };

/**
 * The composition root: every command builds the system here, in named steps —
 * recipe → settings → services → catalog → gate → dispatcher → store → model →
 * agent — asking only for the steps it needs (`until`).
 */
export function buildSystem(r: ToolsRequest): Promise<ToolsSystem>;
export function buildSystem(r: AgentRequest): Promise<AgentSystem>;
export function buildSystem(r: WatchRequest): Promise<WatchSystem>;
export function buildSystem(r: ToolsRequest | AgentRequest | WatchRequest): Promise<ToolsSystem | AgentSystem | WatchSystem> {
  // The start-up's file calls are synchronous until the first system is built (src/util/fs-callbacks.ts).
  return buildSystemSteps(r).finally(startUpIsOver);
}

function buildSystemSteps(r: ToolsRequest | AgentRequest | WatchRequest): Promise<ToolsSystem | AgentSystem | WatchSystem> {
  const settings = r.settings ?? resolveSettings(r.flags, r.env);
  const logger = createLogger(settings.logLevel ?? r.logLevel, r.logSink);
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
