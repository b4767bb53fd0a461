import { createInterface, type Interface } from 'node:readline';
import { PROVIDERS } from '../model/providers.ts';
import { PERMISSION_MODES } from '../permissions/gate.ts';
import type { ReadLine } from '../runtime/choices.ts';
import { resolveWorkspace } from '../runtime/recipe-step.ts';
import { resolveSettings } from '../runtime/settings.ts';
import { stateDir } from '../runtime/state-dir.ts';
import { buildSystem, type AgentSystem } from '../runtime/system.ts';
import { shareStream } from '../util/fd-output.ts';
import { agentFlags } from './agent-session.ts';
import { parse, type FlagValues } from './common-options.ts';
import { REPL, type REPL_OPTIONS } from './command-table.ts';
import { commandHelp } from './help-text.ts';
import { TextRenderer } from './render.ts';
import { completeLine } from './repl-completion.ts';
import { HISTORY_LINES, ReplHistory } from './repl-history.ts';
import { Interrupts, LineAsker, LineReader } from './repl-input.ts';
import { ReplConversation } from './repl-session.ts';
import { DialogPrompter } from './terminal/approval.ts';
import { painter, shouldColor } from './terminal/colors.ts';
import { prettyLogLine } from './terminal/log-lines.ts';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON, PasteTracker } from './terminal/multiline.ts';
import { logStoppedMessage } from './session-db-option.ts';
import { EXIT, type Io } from './usage.ts';

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

export async function replCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, REPL);
  if (values.help) {
    io.out(`${replHelp()}\n`);
    return EXIT.ok;
  }
  // The first turn, given on the command line (Scion's harness appends the agent's task there).
  const first = positionals.join(' ').trim() || undefined;
  // Up-arrow history per directory, on a terminal only (piped input is no one's history).
  const history = io.isTty ? new ReplHistory(stateDir(io.env), await historyDir(values.workspace, io.env)) : undefined;
  const color = shouldColor(io.env, io.isTty ? process.stdout : undefined);
  const text = new TextRenderer(io, io.isTty, { color, columns: () => process.stdout.columns });
  const input = new LaterInput();
  const s = await buildRepl(values, first, io, text, color, input);
  const terminal = openTerminal(s, io, text, history);
  input.ready(terminal.reader);
  // As in run: a full disk stops the record, not the session.
  s.log.onWriteFailure = (f) => {
    text.stopSpinner();
    io.err(`core-agent: ${logStoppedMessage(f, 'now')}\n`);
  };
  try {
    return await new ReplConversation(s, io, text, terminal.reader, terminal.interrupts).run(first);
  } finally {
    terminal.stopKeys();
    text.stopSpinner();
    await s.session.close();
    terminal.close();
    s.log.close();
  }
}

/**
 * stdin, read only once the system is built: a start-up that fails (no model, a bad recipe) must
 * end the process at once, and a reader made before it — readline in raw mode, holding the
 * terminal, with Ctrl-C a key it handles — kept the process alive after the error, deaf to
 * Ctrl-C. Until then Ctrl-C is the signal, and it ends the process; a question asked meanwhile
 * has no answer.
 */
class LaterInput {
  private lines: LineReader | undefined;
  readonly read: ReadLine = (prompt) => this.lines?.read(prompt) ?? Promise.resolve(null);
  private built: AgentSystem | undefined;

  ready(lines: LineReader): void {
    this.lines = lines;
  }

  /** The system the "always, saved" answer writes a rule for. */
  set system(s: AgentSystem) {
    this.built = s;
  }

  /** "Always, saved": the rule goes to the workspace's project file (asked only once the system is built). */
  readonly saveRule = async (rule: string): Promise<string> => {
    const built = this.built!;
    const { saveAllowRule } = await import('../config/save-allow-rule.ts');
    const { file, added } = await saveAllowRule(built.runtime.workspace, rule);
    const untrusted = built.runtime.settings.trustWorkspace !== true;
    return `${added ? 'saved' : 'already saved'}: "${rule}" in ${file}${untrusted ? " (a project file's allow rules apply with --trust-workspace)" : ''}`;
  };
}

/** The agent system for the session: the watchdog warns, ask_user asks here, permission prompts come to this terminal. */
async function buildRepl(
  values: FlagValues<typeof REPL_OPTIONS>,
  first: string | undefined,
  io: Io,
  text: TextRenderer,
  color: boolean,
  input: LaterInput,
): Promise<AgentSystem> {
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
      input.read,
      io.out,
      painter(color),
      () => text.pause(),
      () => text.resume(),
      input.saveRule,
    ),
    asker: new LineAsker(input.read),
    title: first ?? 'interactive session',
    onEvent: text.onEvent,
  });
  input.system = s;
  return s;
}

/** The terminal side of the session: readline with its history and completion, bracketed paste, the one reader, Ctrl-C and Esc. */
interface ReplTerminal {
  reader: LineReader;
  interrupts: Interrupts;
  /** Esc and Ctrl-C no longer read, bracketed paste off. */
  stopKeys(): void;
  /** readline closed, the history saved. */
  close(): void;
}

function openTerminal(s: AgentSystem, io: Io, text: TextRenderer, history: ReplHistory | undefined): ReplTerminal {
  let typed: string[] = history?.load() ?? [];
  // readline and the paste markers write to process.stdout: io.out joins that stream.
  shareStream(1);
  const rl: Interface = createInterface({
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
  const interrupts = new Interrupts(rl, reader);
  // Esc interrupts a turn, as in Claude Code and Gemini CLI (readline reports a lone Esc as a key).
  const onKey = (_typed: string | undefined, key: { name?: string } | undefined) => {
    if (key?.name === 'escape') interrupts.escape();
  };
  if (io.isTty) process.stdin.on('keypress', onKey);
  return {
    reader,
    interrupts,
    stopKeys: () => {
      process.stdin.off('keypress', onKey);
      interrupts.close();
      if (paste) {
        pasteOff();
        process.off('exit', pasteOff);
      }
    },
    close: () => {
      rl.close();
      history?.save(typed);
    },
  };
}

/** The directory the history belongs to: -w / CORE_AGENT_WORKSPACE, else here; a bad one is the root's error to report. */
async function historyDir(flag: string | undefined, env: Io['env']): Promise<string> {
  try {
    return await resolveWorkspace(resolveSettings({ workspace: flag }, env).workspace ?? process.cwd());
  } catch {
    return process.cwd();
  }
}
