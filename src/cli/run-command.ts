import type { TurnResult } from '../agent/agent.ts';
import { runAutonomous } from '../agent/autonomous.ts';
import { TtyPrompter } from '../permissions/tty-prompter.ts';
import { StdinAsker } from '../runtime/askers.ts';
import { ENV } from '../runtime/settings.ts';
import { buildSystem } from '../runtime/system.ts';
import { agentFlags } from './agent-session.ts';
import { parse } from './common-options.ts';
import { RUN } from './command-table.ts';
import { commandHelp } from './help-text.ts';
import type { JsonEvent } from './json-events.ts';
import { JSON_STREAM_SCHEMA_VERSION } from './json-stream-limits.ts';
import { expandAtFiles, readPipedStdin, STDIN_FIRST_BYTE_MS, withStdin } from './prompt-input.ts';
import { TextRenderer } from './render.ts';
import { DialogPrompter } from './terminal/approval.ts';
import { painter, shouldColor } from './terminal/colors.ts';
import { EXIT_INTERRUPTED } from './terminal/interrupt.ts';
import { prettyLogLine } from './terminal/log-lines.ts';
import { DialogLines } from './terminal/stdin-lines.ts';
import { logStoppedMessage } from './session-db-option.ts';
import { EXIT, UsageError, type Io } from './usage.ts';
import { monotonicMs } from '../util/monotonic.ts';
import { ModelCallError } from '../model/model.ts';
import { usageSince } from '../model/pricing.ts';

/** run's --help: the prose around the options its table lists (command-table.ts RUN). */
export const runHelp = (): string =>
  commandHelp(RUN, {
    usage: `Usage: core-agent run [PROMPT | -] [options]
       core-agent "PROMPT" [options]  or  core-agent -p PROMPT [options]`,
    about: `Runs one turn headless: the prompt, then model calls and tool calls until the
model answers without calling a tool. "-" reads the prompt from stdin.
With a PROMPT, piped stdin (a pipe or a file, not a terminal) is appended to
it as a fenced block, up to 256 KiB (the head is kept beyond that, and said);
a pipe silent for 500 ms is not waited for (CORE_AGENT_STDIN_WAIT_MS=MS
changes that). @PATH in the prompt attaches that file through read_file and
its permission gate; \\@ is a literal @. (docs/terminal.md#input)
With --resume and no PROMPT, run finishes the session's interrupted turn.`,
    after: `Exit status: 0 the turn finished (refused tool calls included: the model is told), 1 a
runtime failure (the watchdog cut the turn, request_user_input had nobody to answer),
2 a usage, recipe or model-configuration error, 3 the model call failed (a refused key,
an unknown model, a server not reached: one sentence says which and what to check),
130 cancelled by SIGINT (Ctrl-C; the turn is recorded as cancelled and --resume continues it).`,
  });

export async function runCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, RUN);
  if (values.help) {
    io.out(`${runHelp()}\n`);
    return EXIT.ok;
  }
  const output = values.output;
  const maxTurns = values['max-turns'];
  const maxDeferSec = values['max-defer'];
  let prompt = [...(values.prompt === undefined ? [] : [values.prompt]), ...positionals].join(' ').trim();
  const fromStdin = prompt === '-';
  if (fromStdin) prompt = (await io.readStdin()).trim();
  const stdinWait = stdinWaitMs(io.env);
  if (!prompt && values.resume === undefined && !values.continue)
    throw new UsageError('run needs a PROMPT (or --resume ID, --continue)', 'run');

  // Imported for -o json only: its schema (zod) is nothing a run rendering text evaluates.
  const json =
    output === 'json'
      ? new (await import('./json-renderer.ts')).JsonRenderer(io, undefined, (await import('../runtime/secrets.ts')).processSecrets)
      : null;
  const onTerminal = io.isTty && Boolean(process.stderr.isTTY);
  const color = shouldColor(io.env, onTerminal ? process.stderr : undefined);
  const text = output === 'text' ? new TextRenderer(io, onTerminal, { color, columns: () => process.stderr.columns }) : null;
  // SIGINT (Ctrl-C) cancels the turn — the model call and the running tools, their
  // process groups killed by the dispatcher's abort — records it, and exits 130.
  // A second one does not wait for the cancellation to settle.
  const cancel = new AbortController();
  const dialog = new DialogLines(() => process.emit('SIGINT'));
  const onSigint = () => {
    if (cancel.signal.aborted) process.exit(EXIT_INTERRUPTED);
    cancel.abort(new DOMException('cancelled by SIGINT', 'AbortError'));
    dialog.close();
  };
  // Before the system is built there is no turn to cancel: Ctrl-C ends the process at once
  // (with -o json, after the events a reader waits for), as it would any command.
  const startUpSigint = () => {
    json?.line({ type: 'cancelled', reason: 'SIGINT' });
    json?.line({ type: 'exit', status: EXIT_INTERRUPTED });
    process.exit(EXIT_INTERRUPTED);
  };
  if (json) process.on('SIGINT', startUpSigint);
  const prompter =
    io.isTty && TtyPrompter.available()
      ? new DialogPrompter(
          dialog.read,
          (t) => io.err(t),
          painter(color),
          () => text?.pause(),
          () => {
            dialog.close();
            text?.resume();
          },
        )
      : undefined;
  const s = await buildSystem({
    until: 'agent',
    ...agentFlags(values, 'run'),
    env: io.env,
    command: 'run',
    logLevel: 'warn',
    say: (line) => (text ? text.note(line) : io.err(line)),
    // Warnings read as lines on a terminal; JSON when stderr is a file or a pipe.
    ...(text && onTerminal ? { logSink: (line: string) => text.note(prettyLogLine(line, painter(color))) } : {}),
    interactive: io.isTty,
    defaults: { watchdog: 'enforce', ask: 'off' },
    prompter,
    // ask_user on this terminal pauses the live region too (as askerFor would pick, with hooks).
    ...(text && onTerminal ? { asker: new StdinAsker({ hold: () => text.pause(), release: () => text.resume() }) } : {}),
    title: prompt,
    maxDeferMs: values.autonomous ? maxDeferSec * 1000 : undefined,
    onEvent: (e) => (json ? json.onEvent(e) : text!.onEvent(e)),
  })
    // Ctrl-C reaches the MCP servers too (one process group): a server's exit can end the build
    // before this process has read its own SIGINT. Two turns of the event loop (a poll phase
    // between them) read it, so the start-up handler exits 130 before any turn starts.
    .then(async (built) => {
      if (json) for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
      return built;
    })
    .finally(() => process.off('SIGINT', startUpSigint));
  process.on('SIGINT', onSigint);
  const { agent, log, sessionId } = s;
  // A full disk mid-turn must not cost the answer (the model calls are paid for, the
  // tools have run): the turn goes on unrecorded, and the run says so, twice.
  log.onWriteFailure = (f) => {
    text?.stopSpinner();
    if (json) json.line({ type: 'log_error', message: logStoppedMessage(f, 'now') });
    else io.err(`core-agent: ${logStoppedMessage(f, 'now')}\n`);
  };
  try {
    if (!prompt && !s.resumed?.openTurn)
      throw new UsageError(`session ${sessionId} has no interrupted turn; give a PROMPT to continue it`, 'run');
    json?.line({
      type: 'session',
      schema_version: JSON_STREAM_SCHEMA_VERSION,
      id: sessionId,
      model: s.modelSpec,
      resumed: s.resumed !== null,
    });
    if (prompt) {
      // @path through the dispatcher (the operator's call: path scope, the gate and read_file's caps apply), then stdin.
      const files = await expandAtFiles(prompt, (p) =>
        s.runtime.dispatcher.call('read_file', { path: p }, cancel.signal, { source: 'operator' }),
      );
      // Piped stdin is read now, once the system is built, so its wait is measured from here: a
      // wait that ran during start-up expired on a loaded machine before the CLI had looked.
      const stdin = fromStdin
        ? { text: files.text, notes: [] }
        : withStdin(files.text, await readPipedStdin(() => process.stdin, { firstByteMs: stdinWait, signal: cancel.signal }));
      for (const note of [...files.notes, ...stdin.notes]) io.err(`core-agent: ${note}\n`);
      prompt = stdin.text;
    }
    // The result event counts this run: a resumed session's earlier usage is not its cost.
    const started = monotonicMs();
    const usageBefore = agent.usage;
    const endJson = (status: ResultStatus, exit: number, errors: string[]) => {
      if (!json) return;
      if (errors.length > 0) json.line({ type: 'error', message: errors.join('\n'), exit });
      const used = usageSince(usageBefore, agent.usage);
      json.line({
        type: 'result',
        session: sessionId,
        status,
        is_error: exit !== EXIT.ok,
        exit,
        duration_ms: Math.round(monotonicMs() - started),
        usage: {
          input_tokens: used.inputTokens,
          output_tokens: used.outputTokens,
          ...(used.estimatedCalls ? { estimated_calls: used.estimatedCalls } : {}),
        },
        cost_usd: used.costUsd,
      });
      json.line({ type: 'exit', status: exit, session: sessionId });
    };

    let result: TurnResult;
    try {
      // An interrupted turn is finished first; a new prompt then starts the next one.
      text?.startTurn();
      const signal = cancel.signal;
      if (s.resumed?.openTurn) {
        result = await agent.continueTurn(signal);
        if (prompt) result = await agent.runTurn(prompt, signal);
      } else if (s.schedule) {
        result = await runAutonomous(agent, prompt, s.schedule, {
          maxTurns,
          signal,
          onWait: (until, detail) =>
            json
              ? json.line({ type: 'sleep', until: until.toISOString(), detail })
              : io.err(`· sleeping until ${until.toISOString()}${detail ? ` (${detail})` : ''}\n`),
        });
      } else {
        result = await agent.runTurn(prompt, signal);
      }
    } catch (err) {
      if (cancel.signal.aborted) {
        // The turn stays open in the log: --resume finishes it.
        log.append(sessionId, agent.turn, 'error', { message: 'cancelled by SIGINT', cancelled: true });
        const resume = `the turn was stopped by Ctrl-C; \`core-agent run --resume ${sessionId}\` continues it`;
        json?.line({ type: 'cancelled', reason: 'SIGINT' });
        if (json) endJson('cancelled', EXIT_INTERRUPTED, [resume]);
        else text?.cancelled(resume);
        return EXIT_INTERRUPTED;
      }
      const message = (err as Error).message ?? String(err);
      log.append(sessionId, agent.turn, 'error', { message });
      text?.stopSpinner();
      // A failed model call has its own status, apart from a runtime failure (docs/cli.md#exit-status).
      const modelFailed = err instanceof ModelCallError;
      const said = modelFailed ? `model call failed: ${message}` : `the turn failed: ${message}`;
      const exit = modelFailed ? EXIT.model : EXIT.failure;
      if (json) endJson('error', exit, [said]);
      else io.err(`core-agent: ${said}\n`);
      return exit;
    }
    // A turn the watchdog cut, or a halted agent, did not finish: that is a runtime failure.
    // So is a session log that stopped short: the answer is there, its record is not.
    const stopped = log.failure(sessionId);
    // request_user_input with nobody to answer: the run did not do what was asked, and says what it needed.
    const unanswered = s.session.unansweredQuestions;
    const failed = result.status === 'cut' || result.status === 'halted' || stopped || unanswered.length > 0;
    const status = failed ? EXIT.failure : EXIT.ok;
    if (json) {
      json.line({
        type: 'turn_end',
        status: result.status,
        text: result.text,
        steps: result.steps,
        usage: result.usage,
        session_usage: agent.usage,
      });
      const errors: string[] = [];
      if (result.status === 'cut' || result.status === 'halted') errors.push(result.text);
      if (stopped) {
        errors.push(logStoppedMessage(stopped, 'end'));
        json.line({ type: 'log_error', message: errors.at(-1)! });
      }
      if (unanswered.length > 0) {
        errors.push(unansweredMessage(unanswered));
        json.line({ type: 'unanswered_questions', message: errors.at(-1)!, questions: unanswered });
      }
      endJson(result.status, status, errors);
    } else {
      if (result.status === 'cut' || result.status === 'halted') io.err(`core-agent: ${result.text}\n`);
      text!.finish(result);
      if (stopped) io.err(`core-agent: ${logStoppedMessage(stopped, 'end')}; the answer above is complete.\n`);
      if (unanswered.length > 0) io.err(`core-agent: ${unansweredMessage(unanswered)}\n`);
      io.err(`session ${sessionId}\n`);
    }
    return status;
  } finally {
    process.off('SIGINT', onSigint);
    dialog.close();
    text?.stopSpinner();
    await s.session.close();
    log.close();
  }
}

/** CORE_AGENT_STDIN_WAIT_MS: how long a silent stdin pipe is waited for (0 = not at all); the ENV table's rule. */
function stdinWaitMs(env: NodeJS.ProcessEnv): number {
  const raw = env.CORE_AGENT_STDIN_WAIT_MS;
  if (raw === undefined || raw === '') return STDIN_FIRST_BYTE_MS;
  try {
    return ENV.stdinWaitMs.parse(raw);
  } catch (err) {
    throw new UsageError(`${ENV.stdinWaitMs.name}: ${(err as Error).message}`, 'run');
  }
}

type ResultStatus = Extract<JsonEvent, { type: 'result' }>['status'];

/** The failure a headless request_user_input leaves: each question by id, so the caller can answer it in the next prompt. */
function unansweredMessage(questions: readonly { id: string; header: string; question: string }[]): string {
  const listed = questions.map((q) => `[${q.id}] ${q.header}: ${q.question.length > 200 ? `${q.question.slice(0, 197)}...` : q.question}`);
  return `the model asked ${questions.length === 1 ? 'a question' : 'questions'} nobody answered here (no terminal, --ask off, or the input ended): ${listed.join('; ')}. Answer in the prompt, or run it in the REPL.`;
}
