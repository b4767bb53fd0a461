import { createInterface, type Interface } from 'node:readline';
import type { TurnResult } from '../agent/agent.ts';
import { chooseOnLines, type ReadLine } from '../runtime/choices.ts';
import type { Asker, ChoiceAnswer, ChoiceQuestion } from '../tools/framework/services.ts';
import type { ElicitAnswer, ElicitForm } from '../tools/framework/form.ts';
import { buildSystem, type AgentSystem } from '../runtime/system.ts';
import { agentFlags } from './agent-session.ts';
import { parse } from './common-options.ts';
import { REPL } from './command-table.ts';
import { commandHelp } from './help-text.ts';
import { TextRenderer } from './render.ts';
import { expandAtFiles } from './prompt-input.ts';
import { mcpReport, modeCommand, modelCommand, operatorShellBlock, toolsReport, unknownSlashCommand } from './repl-commands.ts';
import { completeLine } from './repl-completion.ts';
import { PERMISSION_MODES } from '../permissions/gate.ts';
import { PROVIDERS } from '../model/providers.ts';
import { HISTORY_LINES, ReplHistory } from './repl-history.ts';
import { stateDir } from '../runtime/state-dir.ts';
import { resolveWorkspace } from '../runtime/recipe-step.ts';
import { resolveSettings } from '../runtime/settings.ts';
import { DialogPrompter } from './terminal/approval.ts';
import { painter, shouldColor } from './terminal/colors.ts';
import { EXIT_INTERRUPTED } from './terminal/interrupt.ts';
import { prettyLogLine } from './terminal/log-lines.ts';
import {
  BRACKETED_PASTE_OFF,
  BRACKETED_PASTE_ON,
  CONTINUATION_PROMPT,
  continues,
  normalizeRecalled,
  PasteTracker,
  rememberWhole,
} from './terminal/multiline.ts';
import { logStoppedMessage } from './session-db-option.ts';
import { EXIT, type Io } from './usage.ts';
import { shareStream } from '../util/fd-output.ts';
import { estimatedNote } from '../model/pricing.ts';

/** repl's --help: the prose around the options its table lists (command-table.ts REPL). */
export const replHelp = (): string =>
  commandHelp(REPL, {
    usage: 'Usage: core-agent repl [options] [PROMPT]     (also: core-agent with no command, on a terminal)',
    about: `An interactive session: each line you type is a turn; a PROMPT on the command
line is the first one (how Scion hands an agent its task). Permission prompts,
ask_user and request_user_input questions are answered in the same place. A
permission prompt shows the call in full (an edit as a diff): once, always
(this tool, for the session), deny, or deny with a note to the model.
Answering "s" saves an "always" to the workspace's config (.agents/config.yaml).
Ctrl-C cancels the running turn; Ctrl-C twice, or at an empty prompt, quits
(exit 130). Commands:

  /stats          usage so far: turns, tokens, cost, how full the context is
  /tools          the tools registered, and why the others are not
  /mcp            the MCP servers: state and tool count
  /model [P:M]    the session's model; with PROVIDER:MODEL, switch to it
  /mode [MODE]    the permission mode; with MODE (ask, accept-edits, plan, yolo),
                  switch to it for the rest of the session
  @PATH           (in a message) attach that file, read through read_file's gate
  \\ at line end   the message goes on on the next line (a paste is one message)
  !COMMAND        run COMMAND in the shell yourself, without the permission gate;
                  the output is shown, and the model reads it with your next message
  Tab             completes /commands, /mode and /model values, and @paths
  Esc             interrupts the running turn (as Ctrl-C, but never quits)
  /compact [NOTE] compact the conversation now: the model writes the six-section
                  completion record (NOTE: what it should keep), which replaces it
  /clear          start afresh in this session: the conversation so far is dropped
                  from later requests (it stays in the session's record)
  /done [NOTE]    mark the task done: take a checkpoint now (the conversation so
                  far is replaced by a completion record in later requests)
  /replan         withdraw your recorded plan (plan_mode); the plan gate closes
  /help           this list
  /exit           leave (also Ctrl-D)`,
  });

const COMMANDS = '/stats  /tools  /mcp  /model  /mode  /compact [note]  /clear  /done [note]  /replan  !command  /help  /exit';

/** A second Ctrl-C within this long of the first quits, whatever is running. */
const DOUBLE_PRESS_MS = 1000;

/**
 * One reader of stdin for the whole REPL — prompts, permission questions and
 * ask_user alike (a second reader would steal lines). Lines that arrive before
 * anyone asks (piped input) are queued, not lost.
 */
class LineReader {
  private readonly queue: string[] = [];
  private waiting: ((line: string | null) => void) | null = null;
  private ended = false;
  /** The lines of a message so far (a line ended in `\`); Ctrl-C drops them. */
  private parts: string[] = [];
  private dropped = false;

  constructor(
    private readonly rl: Interface,
    private readonly output: NodeJS.WritableStream,
    /** Around a prompt: the working indicator stops (or it would redraw over the question), and its clock. */
    private readonly hold: () => void,
    private readonly release: () => void,
    private readonly paste?: PasteTracker,
  ) {
    rl.on('line', (raw) => {
      const held = paste ? paste.take(raw) : raw;
      if (held === null) return; // inside a paste: part of the message the next Enter sends
      const line = normalizeRecalled(held);
      if (this.waiting) {
        const w = this.waiting;
        this.waiting = null;
        w(line);
      } else this.queue.push(line);
    });
    rl.on('close', () => this.end());
  }

  /** The next line, or null when input has ended (or the question was withdrawn). */
  async read(prompt: string): Promise<string | null> {
    this.hold();
    try {
      // readline redraws its line (after Ctrl-C clears it) with its own prompt: make it this one.
      this.rl.setPrompt(prompt.split('\n').at(-1) ?? '');
      this.output.write(prompt);
      const queued = this.queue.shift();
      if (queued !== undefined) return queued;
      if (this.ended) return null;
      return await new Promise<string | null>((resolve) => (this.waiting = resolve));
    } finally {
      this.release();
    }
  }

  /**
   * One message at the prompt: a line ending in `\` goes on with the next
   * (prompt `… `), a paste is one message; the history keeps it whole.
   * '' when Ctrl-C dropped it, null at the end of input.
   */
  async readMessage(prompt: string): Promise<string | null> {
    const history = (this.rl as Interface & { history?: string[] }).history;
    const before = history ? [...history] : [];
    this.parts = [];
    this.dropped = false;
    try {
      for (let p = prompt; ; p = CONTINUATION_PROMPT) {
        const line = await this.read(p);
        if (this.dropped) return '';
        if (line === null) return this.parts.length > 0 ? this.parts.join('\n') : null;
        if (!continues(line)) {
          const message = [...this.parts, line].join('\n');
          if (history && message.includes('\n')) rememberWhole(history, before, message, HISTORY_LINES);
          return message;
        }
        this.parts.push(line.slice(0, -1));
      }
    } finally {
      this.parts = [];
    }
  }

  /** A message being composed (continued lines, a paste held): Ctrl-C drops it rather than quitting. */
  get composing(): boolean {
    return this.parts.length > 0 || (this.paste?.holding ?? false);
  }

  /** Ctrl-C in a message: what was typed so far goes, and the prompt comes back. */
  drop(): void {
    this.parts = [];
    this.paste?.drop();
    this.dropped = true;
    this.withdraw();
  }

  /** A question pending is withdrawn (the turn was cancelled): its reader gets null, as at the end of input. */
  withdraw(): void {
    const w = this.waiting;
    this.waiting = null;
    if (w) {
      this.output.write('\n');
      w(null);
    }
  }

  /** No more input (Ctrl-D, the end of a pipe, or quitting). */
  end(): void {
    this.ended = true;
    this.withdraw();
  }

  get asking(): boolean {
    return this.waiting !== null;
  }
}

class LineAsker implements Asker {
  /** `read`: the REPL's one reader of stdin, which exists only once the system is built. */
  constructor(private readonly read: ReadLine) {}

  async ask(question: string): Promise<{ answer: string } | { unavailable: string }> {
    const answer = await this.read(`? ${question}\n> `);
    return answer === null ? { unavailable: 'the operator closed the input' } : { answer: answer.trim() };
  }

  /** request_user_input: numbered choices on this terminal, through the one reader. */
  choose(questions: readonly ChoiceQuestion[]): Promise<{ answers: ChoiceAnswer[] } | { unavailable: string }> {
    return chooseOnLines(questions, this.read);
  }

  /** An MCP server's elicitation form, field by field, through the one reader (the live region pauses for it). */
  async elicit(form: ElicitForm): Promise<ElicitAnswer | { unavailable: string }> {
    const { formOnLines } = await import('../mcp/elicit-lines.ts');
    return formOnLines(form, this.read);
  }
}

export async function replCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, REPL);
  // The first turn, given on the command line (Scion's harness appends the agent's task there).
  let first: string | undefined = positionals.join(' ').trim() || undefined;
  if (values.help) {
    io.out(`${replHelp()}\n`);
    return EXIT.ok;
  }
  // Up-arrow history per directory, on a terminal only (piped input is no one's history).
  const history = io.isTty
    ? new ReplHistory(stateDir(io.env), await historyDir(values.workspace as string | undefined, io.env))
    : undefined;
  const color = shouldColor(io.env, io.isTty ? process.stdout : undefined);
  const text = new TextRenderer(io, io.isTty, { color, columns: () => process.stdout.columns });
  // Nothing reads stdin until the system is built: a start-up that fails (no model, a bad
  // recipe) must end the process at once, and a reader made before it — readline in raw mode,
  // holding the terminal, with Ctrl-C a key it handles — kept the process alive after the
  // error, deaf to Ctrl-C. Until then Ctrl-C is the signal, and it ends the process.
  let lines: LineReader | undefined;
  const read: ReadLine = (prompt) => lines?.read(prompt) ?? Promise.resolve(null);
  // "Always, saved": the rule goes to the workspace's project file (asked only once the system is built).
  let built: AgentSystem | undefined;
  const saveRule = async (rule: string): Promise<string> => {
    const { saveAllowRule } = await import('../config/save-allow-rule.ts');
    const { file, added } = await saveAllowRule(built!.runtime.workspace, rule);
    const untrusted = built!.runtime.settings.trustWorkspace !== true;
    return `${added ? 'saved' : 'already saved'}: "${rule}" in ${file}${untrusted ? " (a project file's allow rules apply with --trust-workspace)" : ''}`;
  };
  const s = await buildSystem({
    until: 'agent',
    ...agentFlags(values, 'repl'),
    env: io.env,
    command: 'repl',
    logLevel: 'warn',
    say: (line) => text.note(line),
    // Warnings read as lines on a terminal, above the working indicator; JSON elsewhere.
    ...(io.isTty ? { logSink: (line: string) => text.note(prettyLogLine(line, painter(color))) } : {}),
    interactive: io.isTty,
    defaults: { watchdog: 'warn', ask: 'stdin' },
    prompter: new DialogPrompter(
      read,
      io.out,
      painter(color),
      () => text.pause(),
      () => text.resume(),
      saveRule,
    ),
    asker: new LineAsker(read),
    title: first ?? 'interactive session',
    onEvent: text.onEvent,
  });
  built = s;
  let typed: string[] = history?.load() ?? [];
  // readline and the paste markers write to process.stdout: io.out joins that stream.
  shareStream(1);
  const rl = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: io.isTty,
    history: typed,
    historySize: HISTORY_LINES,
    removeHistoryDuplicates: true,
    ...(io.isTty
      ? {
          completer: (line: string) =>
            completeLine(line, { cwd: () => s.session.cwd ?? s.runtime.workspace, modes: PERMISSION_MODES, providers: PROVIDERS }),
        }
      : {}),
  });
  rl.on('history', (h: string[]) => {
    typed = h;
  });
  // On a terminal a paste arrives bracketed, as one message (docs/terminal.md#input).
  const paste = io.isTty ? new PasteTracker(process.stdin, rl, process.stdout) : undefined;
  const pasteOff = () => process.stdout.write(BRACKETED_PASTE_OFF);
  if (paste) {
    process.stdout.write(BRACKETED_PASTE_ON);
    process.once('exit', pasteOff);
  }
  const reader = new LineReader(
    rl,
    process.stdout,
    () => text.pause(),
    () => text.resume(),
    paste,
  );
  lines = reader;
  const interrupts = new Interrupts(rl, reader);
  // Esc interrupts a turn, as in Claude Code and Gemini CLI (readline reports a lone Esc as a key).
  const onKey = (_typed: string | undefined, key: { name?: string } | undefined) => {
    if (key?.name === 'escape') interrupts.escape();
  };
  if (io.isTty) process.stdin.on('keypress', onKey);
  // What the operator ran with !COMMAND since the last message: the model reads it with the next one.
  let shellContext: string[] = [];
  const { agent, session, sessionId } = s;
  // As in run: a full disk stops the record, not the session.
  s.log.onWriteFailure = (f) => {
    text.stopSpinner();
    io.err(`core-agent: ${logStoppedMessage(f, 'now')}\n`);
  };
  try {
    io.out(`core-agent — session ${sessionId}, model ${s.modelSpec}, mode ${s.runtime.gate.mode}. ${COMMANDS}\n`);
    const turn = async (run: (signal: AbortSignal) => Promise<TurnResult>) => {
      const signal = interrupts.turnStarted();
      text.startTurn();
      try {
        text.finish(await run(signal));
      } catch (err) {
        if (signal.aborted) {
          const why = signal.reason instanceof Error ? signal.reason.message : 'the operator cancelled the turn';
          s.log.append(sessionId, agent.turn, 'error', { message: why, cancelled: true });
          text.cancelled('the turn was stopped (model call and running tools); back at the prompt — Ctrl-C again within a second quits');
        } else {
          text.stopSpinner();
          io.err(`core-agent: model call failed: ${(err as Error).message}\n`);
        }
      } finally {
        interrupts.turnEnded();
      }
    };
    if (s.resumed?.openTurn) await turn((signal) => agent.continueTurn(signal));
    for (;;) {
      if (interrupts.quit) break;
      // The command line's prompt is shown as if typed, so the transcript reads as one.
      if (first !== undefined) io.out(`› ${first}\n`);
      const read = first ?? (await reader.readMessage('› '));
      first = undefined;
      if (read === null) break; // Ctrl-D, the end of piped input, or Ctrl-C at an empty prompt
      const line = read.trim();
      if (line === '') continue;
      if (line === '/exit' || line === '/quit') break;
      if (line === '/help') {
        io.out(`${COMMANDS}\n`);
        continue;
      }
      if (line === '/stats') {
        const u = agent.usage;
        const cost = u.costUsd === null ? 'unknown' : `$${u.costUsd.toFixed(4)}`;
        // How full the context is: what /compact would shrink, and how near automatic compaction is.
        const used = agent.contextTokens;
        const window = agent.contextWindow;
        const context = window
          ? `context ~${used} of ${window} tokens (${Math.round((used / window) * 100)}%)`
          : `context ~${used} tokens (window unknown)`;
        io.out(
          `turns ${agent.turn}, ${u.inputTokens} input / ${u.outputTokens} output tokens${estimatedNote(u)}, cost ${cost}, ${context}\n`,
        );
        continue;
      }
      if (line === '/tools') {
        io.out(toolsReport(s));
        continue;
      }
      if (line === '/mcp') {
        io.out(mcpReport(s));
        continue;
      }
      if (line === '/mode' || line.startsWith('/mode ')) {
        io.out(modeCommand(s, line.slice(5).trim()));
        continue;
      }
      if (line === '/model' || line.startsWith('/model ')) {
        io.out(await modelCommand(s, line.slice(6).trim(), io.env));
        continue;
      }
      if (line.startsWith('!')) {
        // The operator's own command, as in their shell: no permission gate (the denylist, the caps
        // and the record as theirs still apply); Ctrl-C or Esc stops it. The model reads it, as in
        // Claude Code, with the next message.
        const command = line.slice(1).trim();
        if (command === '') {
          io.out('!COMMAND runs COMMAND in the shell (the workspace); the model reads the output with your next message\n');
          continue;
        }
        const signal = interrupts.turnStarted();
        try {
          const r = await s.runtime.dispatcher.call('bash', { command }, signal, { source: 'operator', typedByOperator: true });
          io.out(
            r.ok
              ? `${String(r.result.output ?? '')}${r.result.exit_code === 0 ? '' : `[exit ${String(r.result.exit_code)}]\n`}`
              : `${r.error}\n`,
          );
          if (!signal.aborted) shellContext.push(operatorShellBlock(command, r));
        } finally {
          interrupts.turnEnded();
        }
        continue;
      }
      if (line === '/compact' || line.startsWith('/compact ')) {
        const signal = interrupts.turnStarted();
        text.startTurn();
        try {
          // The renderer prints the outcome's line (the compaction event); a cancel is said here.
          await agent.compact(line.slice(8).trim() || undefined, signal);
        } catch (err) {
          if (!signal.aborted) throw err;
          text.cancelled('the compaction was stopped; the conversation is unchanged');
        } finally {
          text.stopSpinner();
          interrupts.turnEnded();
        }
        continue;
      }
      if (line === '/clear') {
        agent.clear();
        shellContext = [];
        io.out('conversation cleared: the next prompt starts afresh (same session; the earlier turns stay in its record)\n');
        continue;
      }
      if (line === '/done' || line.startsWith('/done ')) {
        agent.checkpointNow(line.slice(5).trim() || 'The operator marked the task done.');
        continue;
      }
      if (line === '/replan') {
        io.out(
          `${s.runtime.services.plans ? await s.runtime.services.plans.revoke({ agent: session.agentName, session: sessionId }) : 'plan_mode is off: there is no plan to withdraw'}\n`,
        );
        continue;
      }
      if (line.startsWith('/')) {
        io.out(unknownSlashCommand(line, COMMANDS));
        continue;
      }
      await turn(async (signal) => {
        // @path files through read_file's gate, as the operator's calls; what is not attached is said, and the turn runs.
        const files = await expandAtFiles(line, (p) => s.runtime.dispatcher.call('read_file', { path: p }, signal, { source: 'operator' }));
        for (const note of files.notes) text.note(`${note}\n`);
        const context = shellContext;
        shellContext = [];
        return agent.runTurn([...context, files.text].join('\n\n'), signal);
      });
    }
    const stopped = s.log.failure(sessionId);
    if (stopped) io.err(`core-agent: ${logStoppedMessage(stopped, 'end')}.\n`);
    if (interrupts.quit) return EXIT_INTERRUPTED;
    return stopped ? EXIT.failure : EXIT.ok;
  } finally {
    process.stdin.off('keypress', onKey);
    interrupts.close();
    if (paste) {
      pasteOff();
      process.off('exit', pasteOff);
    }
    text.stopSpinner();
    await s.session.close();
    rl.close();
    history?.save(typed);
    s.log.close();
  }
}

/** The directory the history belongs to: -w / CORE_AGENT_WORKSPACE, else here; a bad one is the root's error to report. */
async function historyDir(flag: string | undefined, env: Io['env']): Promise<string> {
  try {
    return await resolveWorkspace(resolveSettings({ workspace: flag }, env).workspace ?? process.cwd());
  } catch {
    return process.cwd();
  }
}

/**
 * Ctrl-C in the REPL. On a terminal readline reads it as a key (raw mode: no
 * signal reaches this process or the tools' process groups), elsewhere it is
 * SIGINT; both come here. During a turn the first press cancels the turn — the
 * model call and every running tool (the dispatcher aborts them; bash kills its
 * process groups) — and a pending question is withdrawn. At a prompt it clears
 * what was typed, or quits when nothing was. A second press within a second
 * always quits.
 */
class Interrupts {
  private controller: AbortController | null = null;
  private last = 0;
  quit = false;
  private readonly onSigint = () => this.press();

  constructor(
    private readonly rl: Interface,
    private readonly lines: LineReader,
  ) {
    rl.on('SIGINT', this.onSigint);
    process.on('SIGINT', this.onSigint);
  }

  turnStarted(): AbortSignal {
    this.controller = new AbortController();
    return this.controller.signal;
  }

  turnEnded(): void {
    this.controller = null;
  }

  private press(): void {
    const now = Date.now();
    const again = now - this.last < DOUBLE_PRESS_MS;
    this.last = now;
    if (again) return this.leave();
    if (this.controller && !this.controller.signal.aborted) {
      this.controller.abort(new DOMException('the operator cancelled the turn (Ctrl-C)', 'AbortError'));
      this.lines.withdraw();
      return;
    }
    const typed = (this.rl as Interface & { line?: string }).line ?? '';
    if (!this.controller && this.lines.composing) {
      // A message of several lines: Ctrl-C drops the whole of it, not the session.
      this.rl.write(null, { ctrl: true, name: 'e' });
      this.rl.write(null, { ctrl: true, name: 'u' });
      this.lines.drop();
      return;
    }
    if (typed === '' || this.controller) return this.leave();
    // Something typed at the prompt: Ctrl-C drops it, as shells do.
    this.rl.write(null, { ctrl: true, name: 'e' });
    this.rl.write(null, { ctrl: true, name: 'u' });
  }

  /** Esc: the running turn (or !command) is cancelled, as by a first Ctrl-C; at the prompt it does nothing, and it never quits. */
  escape(): void {
    if (!this.controller || this.controller.signal.aborted) return;
    this.controller.abort(new DOMException('the operator interrupted the turn (Esc)', 'AbortError'));
    this.lines.withdraw();
  }

  private leave(): void {
    this.quit = true;
    this.controller?.abort(new DOMException('the operator quit (Ctrl-C)', 'AbortError'));
    this.lines.end();
  }

  close(): void {
    this.rl.off('SIGINT', this.onSigint);
    process.off('SIGINT', this.onSigint);
  }
}
