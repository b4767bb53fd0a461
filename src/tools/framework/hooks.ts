import { spawn } from 'node:child_process';
import { CLAUDE_EVENT_NAMES, HOOK_DEFAULT_TIMEOUT_SECONDS, type HookEnvelope, type HookEvent } from '../../config/hook-events.ts';
import type { JsonValue } from '../../core/json.ts';
import type { Logger } from '../../log.ts';
import { capErrorText } from './error-text.ts';
import { SHELL } from '../../util/command-env.ts';

export type { HookEnvelope, HookEvent };

/** Token counts of one model call, with the names sciontool reads (input_tokens, output_tokens, cached_tokens). */
export interface HookUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cached_tokens?: number;
}

/**
 * What an event tells its hooks beside its name and the session: the fields of
 * docs/scion.md's table. Field names are the ones sciontool's dialects read, so
 * both envelopes carry them as they are (tool_output is Claude Code's
 * tool_response there).
 */
export interface HookFields {
  readonly tool_name?: string;
  readonly tool_input?: JsonValue;
  readonly tool_output?: JsonValue;
  /** session-start: a new session, or one continued with --resume / --continue. */
  readonly source?: 'startup' | 'resume';
  /** session-end: why the session closed. */
  readonly reason?: string;
  /** prompt-submit: the message that starts the turn. */
  readonly prompt?: string;
  /** notification: the question the operator is asked; response-complete: the answer. */
  readonly message?: string;
  /** model-start / model-end: a step of the turn, or the compaction's call. */
  readonly purpose?: 'step' | 'compaction';
  /** model-end: whether the call returned, and its tokens or its error. */
  readonly ok?: boolean;
  readonly usage?: HookUsage;
  readonly error?: string;
  /** agent-end: how the turn ended (done, step_limit, cut, …, failed, cancelled) and its last text. */
  readonly status?: string;
  readonly last_assistant_message?: string;
}

/**
 * Where the dispatcher and the agent loop announce their boundaries. `fire`
 * resolves when the event's hooks have run (or failed, or timed out) and never
 * rejects: a hook observes, it cannot break a turn.
 */
export interface HookSink {
  fire(event: HookEvent, fields?: HookFields): Promise<void>;
}

/** One command as start-up approved it: argv to run directly (a string command is already [/bin/sh, -c, line]). */
export interface ApprovedHook {
  readonly argv: readonly [string, ...string[]];
  readonly timeoutMs: number;
  readonly envelope: HookEnvelope;
  /** How the log names it: hooks.<event>[<i>]. */
  readonly where: string;
}

export interface HookRunnerOptions {
  readonly hooks: Readonly<Partial<Record<HookEvent, readonly ApprovedHook[]>>>;
  /** The session id at the moment of the event (set once the session exists). */
  readonly sessionId: () => string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly logger: Logger;
}

/** A hook's stderr kept for the log line of its failure. */
const STDERR_KEEP = 2000;

export { HOOK_DEFAULT_TIMEOUT_SECONDS };

/**
 * Runs the approved hooks. Events are delivered one at a time in the order they
 * were fired — read-only tool calls run concurrently, yet a consumer such as
 * sciontool, which keeps one current activity, must see tool-start before its
 * tool-end — and an event's commands run in their configured order.
 */
export class HookRunner implements HookSink {
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly opts: HookRunnerOptions) {}

  fire(event: HookEvent, fields: HookFields = {}): Promise<void> {
    const hooks = this.opts.hooks[event];
    if (!hooks || hooks.length === 0) return Promise.resolve();
    const sessionId = this.opts.sessionId() ?? null;
    // Written once per envelope kind the event's commands read.
    const written = new Map<HookEnvelope, string>();
    const text = (kind: HookEnvelope) => {
      let t = written.get(kind);
      if (t === undefined) written.set(kind, (t = JSON.stringify(renderEnvelope(kind, event, sessionId, this.opts.cwd, fields))));
      return t;
    };
    this.queue = this.queue.then(async () => {
      for (const hook of hooks) await this.runOne(hook, text(hook.envelope));
    });
    return this.queue;
  }

  private runOne(hook: ApprovedHook, envelope: string): Promise<void> {
    const { logger } = this.opts;
    return new Promise((resolve) => {
      let stderr = '';
      let timedOut = false;
      let settled = false;
      const done = (problem: Record<string, unknown> | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (problem) logger.warn({ hook: hook.where, program: hook.argv[0], ...problem }, 'hook failed (the turn goes on)');
        resolve();
      };
      // Its own process group, so a timeout kills what a shell command started too.
      const child = spawn(hook.argv[0], hook.argv.slice(1), {
        cwd: this.opts.cwd,
        env: this.opts.env as NodeJS.ProcessEnv,
        stdio: ['pipe', 'ignore', 'pipe'],
        detached: true,
      });
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup(child.pid);
      }, hook.timeoutMs);
      child.stderr.on('data', (d: Buffer) => {
        if (stderr.length < STDERR_KEEP * 2) stderr += d.toString();
      });
      // A hook that exits without reading its stdin is not a failure of ours.
      child.stdin.on('error', () => undefined);
      child.stdin.end(envelope);
      child.on('error', (err: NodeJS.ErrnoException) =>
        done({ error: err.code === 'ENOENT' ? `${hook.argv[0]} not found` : capErrorText(err.message, STDERR_KEEP) }),
      );
      child.on('close', (code, signal) => {
        const tail = stderr.trim() ? { stderr: capErrorText(stderr.trim(), STDERR_KEEP) } : {};
        if (timedOut) done({ error: `killed after ${hook.timeoutMs / 1000} s (timeout_seconds)`, ...tail });
        else if (code !== 0) done({ error: signal ? `killed by ${signal}` : `exit status ${code}`, ...tail });
        else done(null);
      });
    });
  }
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** The argv a string command runs as: the one place a hook gets a shell. */
export function shellArgv(line: string): [string, ...string[]] {
  return [SHELL, '-c', line];
}

export const noHooks: HookSink = { fire: () => Promise.resolve() };

/**
 * A sink to hand out before the hooks exist (the asker and the prompter are
 * built first): it fires into `target` once that is set, and nowhere before.
 */
export class HookRelay implements HookSink {
  target: HookSink = noHooks;

  fire(event: HookEvent, fields?: HookFields): Promise<void> {
    return this.target.fire(event, fields);
  }
}

/**
 * One event as a command reads it. core-agent: our names and fields. claude:
 * Claude Code's hook input — its event name, `cwd`, the tool's result as
 * `tool_response`, `success` for ok — which sciontool's claude dialect reads.
 */
export function renderEnvelope(
  kind: HookEnvelope,
  event: HookEvent,
  sessionId: string | null,
  cwd: string,
  fields: HookFields,
): Record<string, unknown> {
  if (kind === 'core-agent') return { hook_event_name: event, session_id: sessionId, ...fields };
  const { tool_output, ok, ...rest } = fields;
  return {
    hook_event_name: CLAUDE_EVENT_NAMES[event],
    session_id: sessionId,
    cwd,
    ...rest,
    ...(tool_output !== undefined ? { tool_response: tool_output } : {}),
    ...(ok !== undefined ? { success: ok } : {}),
  };
}

/** A call's arguments as the envelope carries them: the model's JSON text parsed, anything else as given. */
export function hookInput(rawArgs: unknown): JsonValue {
  if (typeof rawArgs === 'string') {
    try {
      return JSON.parse(rawArgs) as JsonValue;
    } catch {
      return rawArgs;
    }
  }
  return (rawArgs ?? {}) as JsonValue;
}
