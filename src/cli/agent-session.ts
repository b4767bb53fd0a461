import type { ParseArgsConfig } from 'node:util';
import { Agent, DEFAULT_MAX_STEPS, type AgentEvent } from '../agent/agent.ts';
import { ScheduleRequests } from '../agent/autonomous.ts';
import { PendingCheckpoint } from '../agent/checkpoint.ts';
import { assembleInstructions } from '../agent/instructions.ts';
import { rebuildSession, type RebuiltSession } from '../agent/resume.ts';
import { Watchdog, WATCHDOG_MODES, type WatchdogMode } from '../agent/watchdog.ts';
import { unknownName } from '../config/did-you-mean.ts';
import { createLogger } from '../log.ts';
import { ModelConfigError } from '../model/model.ts';
import { resolveModel } from '../model/providers.ts';
import { ReplayModel } from '../model/replay.ts';
import type { Prompter } from '../permissions/gate.ts';
import { ASK_MODES, askerFor, type AskMode } from '../runtime/askers.ts';
import { recordCalls } from '../runtime/record-calls.ts';
import { createRuntime, type Runtime } from '../runtime/runtime.ts';
import { stateDir } from '../runtime/state-dir.ts';
import { logLevelOf, readEnv, splitList } from '../runtime/settings.ts';
import type { EventLog } from '../store/event-log.ts';
import { SessionDbError } from '../store/session-db.ts';
import { SessionState, type Asker } from '../tools/session.ts';
import { flagSettings } from './common-options.ts';
import { FRESH_SESSION_DB_HELP, openSessionLog, sessionDbPath } from './session-db-option.ts';
import { UsageError, type Io } from './usage.ts';

/** Options every command that runs the agent takes (run, repl). */
export const agentOptions = {
  model: { type: 'string', short: 'm' },
  'session-db': { type: 'string' },
  'fresh-session-db': { type: 'boolean' },
  resume: { type: 'string' },
  'max-steps': { type: 'string' },
  'allow-tool': { type: 'string', multiple: true },
  'deny-tool': { type: 'string', multiple: true },
  watchdog: { type: 'string' },
  'reset-watchdog': { type: 'boolean' },
  checkpoint: { type: 'string' },
  ask: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export const AGENT_OPTIONS_HELP = `  -m, --model PROVIDER:MODEL  replay:FILE, google:…, vertex:…, openai:…,
                              openai-compatible:…, anthropic:…       [env CORE_AGENT_MODEL]
      --session-db PATH       SQLite event log (default ~/.local/state/core-agent/
                              sessions.db; ":memory:" keeps nothing)  [env CORE_AGENT_SESSION_DB]
${FRESH_SESSION_DB_HELP}
      --resume ID             continue a session
      --max-steps N           model calls with tools per turn (default ${DEFAULT_MAX_STEPS})
      --allow-tool a,b        register only these tools (repeatable)
      --deny-tool a,b         never register these (repeatable; wins)
      --mode MODE | --yolo    permission mode (default ask)
      --watchdog MODE         off | warn | feedback | enforce           [env CORE_AGENT_WATCHDOG]
      --reset-watchdog        with --resume: clear a watchdog halt (an operator's reset)
      --checkpoint auto|operator
                              operator withholds mark_task_done (default auto)
      --ask off|stdin|auto    register ask_user: stdin always asks on stdin, auto asks
                              on a terminal and refuses cleanly headless  [env CORE_AGENT_ASK]`;

type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;

export interface AgentSessionOptions {
  values: Values;
  io: Io;
  /** The command, for usage errors. */
  command: string;
  /** Defaults that differ between headless and interactive use. */
  defaults: { watchdog: WatchdogMode; ask: AskMode };
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

export interface AgentSession {
  agent: Agent;
  runtime: Runtime;
  log: EventLog;
  sessionId: string;
  modelSpec: string;
  session: SessionState;
  resumed: RebuiltSession | null;
  schedule: ScheduleRequests | undefined;
}

export function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string, command: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag}: ${unknownName('value', value, allowed)}`, command);
}

export function positiveInt(value: string | undefined, fallback: number, flag: string, command: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer`, command);
  return n;
}

/**
 * Everything between a command line and a running agent: the session services
 * (which decide the session tools), the runtime, the model, the event log, a new
 * or resumed session, the watchdog. The caller closes `log` (the one it passed, or the one returned).
 */
export async function openAgentSession(o: AgentSessionOptions): Promise<AgentSession> {
  const { values, io, command } = o;
  const str = (k: string) => values[k] as string | undefined;
  const env = readEnv(io.env);
  const maxSteps = str('max-steps') === undefined ? undefined : positiveInt(str('max-steps'), 0, '--max-steps', command);
  const watchdogMode =
    str('watchdog') === undefined ? (env.watchdog ?? o.defaults.watchdog) : oneOf(str('watchdog')!, WATCHDOG_MODES, '--watchdog', command);
  const checkpointMode = oneOf(str('checkpoint') ?? 'auto', ['auto', 'operator'] as const, '--checkpoint', command);
  const askMode = str('ask') === undefined ? (env.ask ?? o.defaults.ask) : oneOf(str('ask')!, ASK_MODES, '--ask', command);
  const resumeId = str('resume');
  if (values['reset-watchdog'] && resumeId === undefined) throw new UsageError('--reset-watchdog needs --resume ID', command);

  const flags = {
    ...flagSettings(values),
    allowTools: ((values['allow-tool'] as string[] | undefined) ?? []).flatMap(splitList),
    denyTools: ((values['deny-tool'] as string[] | undefined) ?? []).flatMap(splitList),
  };
  const logger = createLogger(logLevelOf(flags, io.env, 'warn'));
  // Session services decide which session tools the catalog registers.
  const session = new SessionState();
  const checkpoints = checkpointMode === 'auto' ? new PendingCheckpoint() : undefined;
  const schedule = o.maxDeferMs !== undefined ? new ScheduleRequests(o.maxDeferMs) : undefined;
  const services = {
    checkpointer: checkpoints,
    scheduler: schedule,
    asker: askMode === 'off' ? undefined : (o.asker ?? askerFor(askMode, io.isTty)),
  };

  const log =
    o.log ??
    openSessionLog({
      location: sessionDbPath(str('session-db'), io.env),
      fresh: values['fresh-session-db'] === true,
      resume: resumeId,
      io,
    });
  try {
    // The event log keeps the raw payloads behind digests, under this session's id.
    const rawStore = {
      put: (tool: string, rawJson: string) => log.putRaw(session.sessionId!, tool, rawJson),
      get: (callId: string) => log.getRaw(session.sessionId!, callId),
    };
    const runtime = await createRuntime({
      flags,
      env: io.env,
      logger,
      session,
      services,
      prompter: o.prompter,
      rawStore,
      stateDir: stateDir(io.env),
    });
    const modelSpec = str('model') ?? env.model ?? runtime.recipe.model;
    if (!modelSpec) {
      throw new UsageError(
        'no model: give --model (e.g. replay:script.jsonl or google:gemini-2.5-flash), CORE_AGENT_MODEL, or model: in the recipe',
        command,
      );
    }
    let model;
    try {
      model = await resolveModel(modelSpec, io.env);
    } catch (err) {
      if (err instanceof ModelConfigError) throw new UsageError(err.message, command);
      throw err;
    }
    const instructions = await assembleInstructions(runtime.workspace, runtime.recipe.instructions);
    let sessionId: string;
    let resumed: RebuiltSession | null = null;
    if (resumeId !== undefined) {
      sessionId = resumeId;
      if (!log.session(sessionId)) throw new UsageError(`no session "${sessionId}" in ${log.location} (core-agent sessions list)`, command);
      resumed = rebuildSession(log.events(sessionId));
      if (values['reset-watchdog'] && resumed.watchdog.halted) {
        // The operator's reset, on the record like the halt it clears.
        log.append(sessionId, resumed.turn, 'watchdog', { reset: true });
        resumed.watchdog = { halted: null, cutTurns: 0 };
      }
    } else {
      sessionId = log.createSession({ model: modelSpec, workspace: runtime.workspace, title: o.title.slice(0, 80) });
      log.append(sessionId, 0, 'session_start', {
        model: modelSpec,
        workspace: runtime.workspace,
        instructions,
        tools: runtime.catalog.names(),
      });
    }
    session.sessionId = sessionId;
    // Every tool call from here on is a tool_result event of this session (the dispatcher writes them).
    runtime.dispatcher.recordTo(recordCalls(log, sessionId, session));
    const watchdog = new Watchdog(watchdogMode);
    if (resumed) watchdog.restoreHalt(resumed.watchdog.halted, resumed.watchdog.cutTurns);
    const agent = new Agent({
      model,
      dispatcher: runtime.dispatcher,
      catalog: runtime.catalog,
      instructions,
      log,
      sessionId,
      maxSteps: maxSteps ?? runtime.recipe.max_steps,
      onEvent: o.onEvent,
      session,
      checkpoints,
      watchdog,
    });
    if (resumed) {
      agent.restore(resumed.messages, resumed.turn, resumed.usage);
      if (model instanceof ReplayModel) model.position = resumed.replayPosition;
      agent.settleInterrupted(resumed.unanswered);
    }
    return { agent, runtime, log, sessionId, modelSpec, session, resumed, schedule };
  } catch (err) {
    await session.close();
    if (!o.log) log.close();
    // A damaged page found while reading the session back: the advice must know it was a --resume.
    if (err instanceof SessionDbError) err.resume ??= resumeId;
    throw err;
  }
}
