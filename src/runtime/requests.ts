import type { AgentEvent } from '../agent/agent.ts';
import type { Agent } from '../agent/agent.ts';
import type { ScheduleRequests } from '../agent/autonomous.ts';
import type { RebuiltSession } from '../agent/resume.ts';
import type { WatchdogMode } from '../agent/watchdog.ts';
import type { Principal } from '../core/principal.ts';
import type { Recipe } from '../config/recipe-schema.ts';
import type { WatchConfig } from '../config/watch-schema.ts';
import type { Kube } from '../k8s/cluster.ts';
import type { Logger, LogLevel } from '../log.ts';
import type { AlertTarget } from '../net/alert-targets.ts';
import type { Prompter } from '../permissions/gate.ts';
import type { EventLog } from '../store/event-log.ts';
import type { Asker } from '../tools/framework/services.ts';
import type { SessionState } from '../tools/framework/session.ts';
import type { PeerRoster } from '../tools/peers/peer-directory.ts';
import type { StartIncidentSession } from '../watch/incident-session.ts';
import type { AskMode } from './askers.ts';
import type { ChildAgents } from './child-agents.ts';
import type { Runtime } from './runtime.ts';
import type { FlagSettings, Settings } from './settings.ts';

// What each command asks the composition root for (`until`) and what it gets back: types
// only, apart from system.ts so that the steps it imports on demand (agent-system.ts,
// watch-step.ts) can name them without importing the root back.

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
  /** false: the recipe only, not the world it names (recipe validate; RuntimeOptions.checkWorld). */
  checkWorld?: boolean;
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
  /** The session outlives its turns and a person answers later (the attach daemon): AskUserQuestionTool posts its questions. */
  answersLater?: boolean | undefined;
  /** A new session's title (its first prompt). */
  title: string;
  /** autonomous runs: the longest wait schedule_next_turn may ask for. */
  maxDeferMs?: number | undefined;
  onEvent: (e: AgentEvent) => void;
  /** An event log the caller owns and closes (watch shares one across its sessions). */
  log?: EventLog | undefined;
  /** Who the session acts for (the attach daemon's caller, watch's service principal); default: the terminal's user. */
  principal?: Principal | undefined;
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
  /** The session's child agents (the REPL's /agents lists and stops them). */
  children: ChildAgents;
}

/** watch: the recipe's watch: section, the cluster, the model (checked once), the store; each incident's agent later. */
export interface WatchRequest extends RequestBase {
  until: 'watch';
  /** --fresh-session-db. */
  fresh: boolean;
  /** --max-steps, for every incident session. */
  maxSteps?: number | undefined;
  /** Whether a person is at a terminal: --ask auto asks there (else answers as unattended). */
  interactive: boolean;
}

export interface WatchSystem {
  recipe: Recipe;
  cfg: WatchConfig;
  kube: Kube;
  /** watch.alert_target, when it can deliver. */
  alertTarget: AlertTarget | undefined;
  /** The event log every incident session shares (the caller closes it). */
  log: EventLog;
  dbPath: string;
  modelSpec: string;
  logger: Logger;
  /** Where /healthz, /readyz and /metrics listen. */
  listen: { host: string; port: number };
  startSession: StartIncidentSession;
  /** The recipe's folder (attach.users_file is relative to it). */
  recipeDir: string;
}
