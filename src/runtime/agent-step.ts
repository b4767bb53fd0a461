import { recordCalls } from './record-calls.ts';
import { Agent, type AgentEvent } from '../agent/agent.ts';
import type { PendingCheckpoint } from '../agent/checkpoint.ts';
import { assembleInstructions } from '../agent/instructions.ts';
import { rebuildSession, type RebuiltSession } from '../agent/resume.ts';
import { Watchdog, type WatchdogMode } from '../agent/watchdog.ts';
import { UsageError } from '../core/usage-error.ts';
import type { ChatModel } from '../model/model.ts';
import { modelInfo } from '../model/registry.ts';
import { DEFAULT_COMPACT_AT } from '../agent/compaction.ts';
import type { EventLog } from '../store/event-log.ts';
import type { MemoryIndex } from '../tools/framework/memory-index.ts';
import type { Runtime } from './runtime.ts';
import type { Principal } from '../core/principal.ts';

export interface AgentStepOptions {
  runtime: Runtime;
  model: ChatModel;
  modelSpec: string;
  log: EventLog;
  /** The command, for usage errors. */
  command: string;
  /** A new session's title (its first prompt). */
  title: string;
  /** Continue this session (its events rebuild the conversation). */
  resume?: string | undefined;
  /** With resume: clear a watchdog halt (an operator's reset). */
  resetWatchdog?: boolean | undefined;
  maxSteps?: number | undefined;
  /** --max-session-cost-usd. */
  maxSessionCostUsd?: number | undefined;
  watchdog: WatchdogMode;
  checkpoints?: PendingCheckpoint | undefined;
  onEvent: (e: AgentEvent) => void;
  /** Reports that arrive on their own for the session (its deferred children's). */
  inbox?: ((sessionId: string) => string[]) | undefined;
  /** Who the session acts for: recorded in session_start, so the attach daemon knows a terminal or watch session's owner. */
  principal?: Principal | undefined;
}

/**
 * The user's memory index for the system prompt, when the session offers a tool over that memory:
 * with every memory tool turned off (or left out), the model could neither check nor correct the
 * notes, so they are not shown either.
 */
export function memoryIndexOf(runtime: Runtime): MemoryIndex | undefined {
  const offered = runtime.catalog.list().some((t) => t.def.needs?.includes('memoryStore') === true);
  return offered ? runtime.services.memoryIndex : undefined;
}

/** The agent step: the instructions, a new or resumed session in the log, the watchdog, the agent. */
export async function startAgent(o: AgentStepOptions): Promise<{ agent: Agent; sessionId: string; resumed: RebuiltSession | null }> {
  const { runtime, log } = o;
  const instructions = await assembleInstructions(
    runtime.workspace,
    runtime.recipe.instructions,
    runtime.userDir,
    runtime.services.memoryIndex,
  );
  let sessionId: string;
  let resumed: RebuiltSession | null = null;
  if (o.resume !== undefined) {
    sessionId = o.resume;
    if (!log.session(sessionId)) throw new UsageError(`no session "${sessionId}" in ${log.location} (core-agent sessions list)`, o.command);
    resumed = rebuildSession(log.events(sessionId));
    if (o.resetWatchdog && resumed.watchdog.halted) {
      // The operator's reset, on the record like the halt it clears.
      log.append(sessionId, resumed.turn, 'watchdog', { reset: true });
      resumed.watchdog = { halted: null, cutTurns: 0 };
    }
  } else {
    sessionId = log.createSession({ model: o.modelSpec, workspace: runtime.workspace, title: o.title.slice(0, 80) });
    log.append(sessionId, 0, 'session_start', {
      model: o.modelSpec,
      workspace: runtime.workspace,
      instructions,
      tools: runtime.catalog.names(),
      ...(o.principal ? { principal: principalRecord(o.principal) } : {}),
    });
  }
  runtime.session.sessionId = sessionId;
  // Every tool call from here on is a tool_result event of this session (the dispatcher writes them).
  runtime.dispatcher.recordTo(recordCalls(log, sessionId, runtime.session));
  const watchdog = new Watchdog(o.watchdog);
  // The window and the price: the model registry's, under the recipe's context: (docs/context.md).
  const context = runtime.recipe.context;
  const info = modelInfo(o.modelSpec, context ?? {});
  if (resumed) watchdog.restoreHalt(resumed.watchdog.halted, resumed.watchdog.cutTurns);
  const agent = new Agent({
    model: o.model,
    dispatcher: runtime.dispatcher,
    catalog: runtime.catalog,
    instructions,
    log,
    sessionId,
    maxSteps: o.maxSteps ?? runtime.recipe.max_steps,
    onEvent: o.onEvent,
    session: runtime.session,
    checkpoints: o.checkpoints,
    watchdog,
    hooks: runtime.hooks,
    price: info.price,
    context: { window: info.contextWindow, compactAt: context?.compact_at ?? DEFAULT_COMPACT_AT },
    inbox: o.inbox && (() => o.inbox!(sessionId)),
    maxSessionCostUsd: o.maxSessionCostUsd,
  });
  if (resumed) {
    agent.restore(resumed.messages, resumed.turn, resumed.usage);
    // A replayed run continues its script (imported here: only a resumed session needs the class).
    const { ReplayModel } = await import('../model/replay.ts');
    if (o.model instanceof ReplayModel) o.model.position = resumed.replayPosition;
    agent.settleInterrupted(resumed.unanswered);
  }
  const hooks = runtime.hooks;
  if (hooks) {
    // The session's bounds for the hooks: Scion shows a started agent as idle, a closed one as stopped.
    await hooks.fire('session-start', { source: resumed ? 'resume' : 'startup' });
    runtime.session.onClose(() => hooks.fire('session-end', { reason: 'exit' }));
  }
  return { agent, sessionId, resumed };
}

/** A principal as session_start records it: no admin flag (a role is the daemon's configuration, not the log's). */
function principalRecord(p: Principal): Record<string, unknown> {
  return {
    name: p.name,
    ...(p.group !== undefined ? { group: p.group } : {}),
    ...(p.tenant !== undefined ? { tenant: p.tenant } : {}),
    ...(p.service ? { service: true } : {}),
  };
}
