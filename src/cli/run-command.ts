import type { TurnResult } from '../agent/agent.ts';
import { runAutonomous } from '../agent/autonomous.ts';
import { TtyPrompter } from '../permissions/tty-prompter.ts';
import { StdinAsker } from '../runtime/askers.ts';
import { ENV } from '../runtime/settings.ts';
import { buildSystem, type AgentSystem } from '../runtime/system.ts';
import { agentFlags } from './agent-session.ts';
import { parse, type FlagValues } from './common-options.ts';
import { RUN, type RUN_OPTIONS } from './command-table.ts';
import { commandHelp } from './help-text.ts';
import type { JsonRenderer } from './json-renderer.ts';
import { JSON_STREAM_SCHEMA_VERSION } from './json-stream-limits.ts';
import { expandAtFiles, readPipedStdin, STDIN_FIRST_BYTE_MS, withStdin } from './prompt-input.ts';
import { TextRenderer } from './render.ts';
import { DialogPrompter } from './terminal/approval.ts';
import { painter, shouldColor } from './terminal/colors.ts';
import { EXIT_INTERRUPTED } from './terminal/interrupt.ts';
import { prettyLogLine } from './terminal/log-lines.ts';
import { DialogLines } from './terminal/stdin-lines.ts';
import { logStoppedMessage } from './session-db-option.ts';
import { reportTurn, resultEvents, turnFailed, type Renderers } from './run-report.ts';
import { EXIT, UsageError, type Io } from './usage.ts';

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
  const request = await readRequest(values, positionals, io);
  const out = await renderers(values.output, io);
  const interrupt = new RunInterrupt(out.json);
  const s = await buildRun(values, request, io, out, interrupt);
  try {
    if (!request.prompt && !s.resumed?.openTurn)
      throw new UsageError(`session ${s.sessionId} has no interrupted turn; give a PROMPT to continue it`, 'run');
    out.json?.line({
      type: 'session',
      schema_version: JSON_STREAM_SCHEMA_VERSION,
      id: s.sessionId,
      model: s.modelSpec,
      resumed: s.resumed !== null,
    });
    const prompt = request.prompt ? await withAttachments(s, request, interrupt.signal, io) : '';
    const end = resultEvents(out.json, s);
    let result: TurnResult;
    try {
      out.text?.startTurn();
      result = await playTurn(s, prompt, values['max-turns'], interrupt.signal, out, io);
      // golem's subagents hold its run open: the run ends when they do (Ctrl-C stops them).
      if (s.runtime.catalog.dialect === 'golem') {
        const held = await s.children.settle(s.sessionId, interrupt.signal);
        if (held > 0) io.err(`core-agent: waited for ${held} subagent(s) to end\n`);
      }
    } catch (err) {
      return turnFailed(err, s, interrupt.signal.aborted, out, end, io);
    }
    return reportTurn(result, s, out, end, io);
  } finally {
    interrupt.close();
    out.text?.stopSpinner();
    await s.session.close();
    s.log.close();
  }
}

type RunValues = FlagValues<typeof RUN_OPTIONS>;

/** What the command line asks to run: the prompt (`-` read from stdin now), and how long piped stdin is waited for. */
interface RunRequest {
  prompt: string;
  fromStdin: boolean;
  stdinWaitMs: number;
}

async function readRequest(values: RunValues, positionals: readonly string[], io: Io): Promise<RunRequest> {
  let prompt = [...(values.prompt === undefined ? [] : [values.prompt]), ...positionals].join(' ').trim();
  const fromStdin = prompt === '-';
  if (fromStdin) prompt = (await io.readStdin()).trim();
  const stdinWait = stdinWaitMs(io.env);
  if (!prompt && values.resume === undefined && !values.continue)
    throw new UsageError('run needs a PROMPT (or --resume ID, --continue)', 'run');
  return { prompt, fromStdin, stdinWaitMs: stdinWait };
}

async function renderers(output: 'text' | 'json', io: Io): Promise<Renderers> {
  // Imported for -o json only: its schema (zod) is nothing a run rendering text evaluates.
  const json =
    output === 'json'
      ? new (await import('./json-renderer.ts')).JsonRenderer(io, undefined, (await import('../runtime/secrets.ts')).processSecrets)
      : null;
  const onTerminal = io.isTty && Boolean(process.stderr.isTTY);
  const color = shouldColor(io.env, onTerminal ? process.stderr : undefined);
  const text = output === 'text' ? new TextRenderer(io, onTerminal, { color, columns: () => process.stderr.columns }) : null;
  return { json, text, onTerminal, color };
}

/**
 * Ctrl-C. Before the system is built there is no turn to cancel: it ends the process at once
 * (with -o json, after the events a reader waits for), as it would any command. Once a turn can
 * run, SIGINT cancels it — the model call and the running tools, their process groups killed by
 * the dispatcher's abort — and the run records it and exits 130; a second one does not wait for
 * the cancellation to settle.
 */
class RunInterrupt {
  private readonly cancel = new AbortController();
  /** The approval dialog's reader of stdin; Ctrl-C while it reads is SIGINT too. */
  readonly dialog = new DialogLines(() => process.emit('SIGINT'));
  private readonly duringStartUp = () => {
    this.json?.line({ type: 'cancelled', reason: 'SIGINT' });
    this.json?.line({ type: 'exit', status: EXIT_INTERRUPTED });
    process.exit(EXIT_INTERRUPTED);
  };
  private readonly duringTurn = () => {
    if (this.cancel.signal.aborted) process.exit(EXIT_INTERRUPTED);
    this.cancel.abort(new DOMException('cancelled by SIGINT', 'AbortError'));
    this.dialog.close();
  };

  constructor(private readonly json: JsonRenderer | null) {
    if (json) process.on('SIGINT', this.duringStartUp);
  }

  get signal(): AbortSignal {
    return this.cancel.signal;
  }

  /** The system is built: from here Ctrl-C cancels the turn. */
  started(): void {
    process.off('SIGINT', this.duringStartUp);
    process.on('SIGINT', this.duringTurn);
  }

  close(): void {
    process.off('SIGINT', this.duringStartUp);
    process.off('SIGINT', this.duringTurn);
    this.dialog.close();
  }
}

/** The agent system for the run: headless defaults (the watchdog enforces, ask_user is off), its events to the renderer. */
async function buildRun(values: RunValues, request: RunRequest, io: Io, out: Renderers, interrupt: RunInterrupt): Promise<AgentSystem> {
  const { json, text, onTerminal, color } = out;
  const prompter =
    io.isTty && TtyPrompter.available()
      ? new DialogPrompter(
          interrupt.dialog.read,
          (t) => io.err(t),
          painter(color),
          () => text?.pause(),
          () => {
            interrupt.dialog.close();
            text?.resume();
          },
        )
      : undefined;
  let s: AgentSystem;
  try {
    s = await buildSystem({
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
      title: request.prompt,
      maxDeferMs: values.autonomous ? values['max-defer'] * 1000 : undefined,
      onEvent: (e) => (json ? json.onEvent(e) : text!.onEvent(e)),
    });
    // Ctrl-C reaches the MCP servers too (one process group): a server's exit can end the build
    // before this process has read its own SIGINT. Two turns of the event loop (a poll phase
    // between them) read it, so the start-up handler exits 130 before any turn starts.
    if (json) for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
  } catch (err) {
    interrupt.close();
    throw err;
  }
  interrupt.started();
  // A full disk mid-turn must not cost the answer (the model calls are paid for, the
  // tools have run): the turn goes on unrecorded, and the run says so, twice.
  s.log.onWriteFailure = (f) => {
    text?.stopSpinner();
    if (json) json.line({ type: 'log_error', message: logStoppedMessage(f, 'now') });
    else io.err(`core-agent: ${logStoppedMessage(f, 'now')}\n`);
  };
  return s;
}

/** The prompt with its @PATH files (read through read_file's gate, as the operator's calls) and piped stdin attached. */
async function withAttachments(s: AgentSystem, request: RunRequest, signal: AbortSignal, io: Io): Promise<string> {
  const files = await expandAtFiles(request.prompt, (p) =>
    s.runtime.dispatcher.call('read_file', { path: p }, signal, { source: 'operator' }),
  );
  // Piped stdin is read now, once the system is built, so its wait is measured from here: a
  // wait that ran during start-up expired on a loaded machine before the CLI had looked.
  const stdin = request.fromStdin
    ? { text: files.text, notes: [] }
    : withStdin(files.text, await readPipedStdin(() => process.stdin, { firstByteMs: request.stdinWaitMs, signal }));
  for (const note of [...files.notes, ...stdin.notes]) io.err(`core-agent: ${note}\n`);
  return stdin.text;
}

/** The turn: an interrupted one finished first (a new prompt then starts the next), an autonomous run, or one turn. */
async function playTurn(
  s: AgentSystem,
  prompt: string,
  maxTurns: number,
  signal: AbortSignal,
  out: Renderers,
  io: Io,
): Promise<TurnResult> {
  const { agent } = s;
  if (s.resumed?.openTurn) {
    const finished = await agent.continueTurn(signal);
    return prompt ? agent.runTurn(prompt, signal) : finished;
  }
  if (s.schedule) {
    return runAutonomous(agent, prompt, s.schedule, {
      maxTurns,
      signal,
      onWait: (until, detail) =>
        out.json
          ? out.json.line({ type: 'sleep', until: until.toISOString(), detail })
          : io.err(`· sleeping until ${until.toISOString()}${detail ? ` (${detail})` : ''}\n`),
    });
  }
  return agent.runTurn(prompt, signal);
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
