import type { TurnResult } from '../agent/agent.ts';
import { estimatedNote } from '../model/pricing.ts';
import type { AgentSystem } from '../runtime/system.ts';
import { expandAtFiles } from './prompt-input.ts';
import {
  agentsCommand,
  mcpReport,
  modeCommand,
  modelCommand,
  operatorShellBlock,
  toolsReport,
  unknownSlashCommand,
} from './repl-commands.ts';
import type { Interrupts, LineReader } from './repl-input.ts';
import type { TextRenderer } from './render.ts';
import { logStoppedMessage } from './session-db-option.ts';
import { EXIT_INTERRUPTED } from './terminal/interrupt.ts';
import { EXIT, type Io } from './usage.ts';

// The REPL's conversation, once its system is built and its terminal open: each message read at
// the prompt is a slash command, the operator's own !COMMAND, or a turn.

/** What /help prints and the banner ends with. */
export const SLASH_HELP =
  '/stats  /tools  /mcp  /agents [stop NAME]  /model  /mode  /compact [note]  /clear  /done [note]  /replan  !command  /help  /exit';

/** What a line does: a slash command (/exit quits), a !COMMAND, or a turn. */
type LineOutcome = 'quit' | 'done';

export class ReplConversation {
  /** What the operator ran with !COMMAND since the last message: the model reads it with the next one. */
  private shellContext: string[] = [];

  constructor(
    private readonly s: AgentSystem,
    private readonly io: Io,
    private readonly text: TextRenderer,
    private readonly reader: LineReader,
    private readonly interrupts: Interrupts,
  ) {}

  /**
   * Until /exit, Ctrl-D or Ctrl-C at an empty prompt: an interrupted turn of a resumed session
   * is finished first, then `first` (the command line's prompt) is the first message. The exit
   * status: 130 when Ctrl-C quit, 1 when the session log stopped short, else 0.
   */
  async run(first: string | undefined): Promise<number> {
    const { s, io } = this;
    io.out(`core-agent — session ${s.sessionId}, model ${s.modelSpec}, mode ${s.runtime.gate.mode}. ${SLASH_HELP}\n`);
    if (s.resumed?.openTurn) await this.turn((signal) => s.agent.continueTurn(signal));
    let next = first;
    while (!this.interrupts.quit) {
      // The command line's prompt is shown as if typed, so the transcript reads as one.
      if (next !== undefined) io.out(`› ${next}\n`);
      const read = next ?? (await this.reader.readMessage('› '));
      next = undefined;
      if (read === null) break; // Ctrl-D, the end of piped input, or Ctrl-C at an empty prompt
      const line = read.trim();
      if (line === '') continue;
      if ((await this.line(line)) === 'quit') break;
    }
    const stopped = s.log.failure(s.sessionId);
    if (stopped) io.err(`core-agent: ${logStoppedMessage(stopped, 'end')}.\n`);
    if (this.interrupts.quit) return EXIT_INTERRUPTED;
    return stopped ? EXIT.failure : EXIT.ok;
  }

  private async line(line: string): Promise<LineOutcome> {
    const { s, io } = this;
    const [word = '', ...words] = line.split(' ');
    const arg = words.join(' ').trim();
    if (line.startsWith('!')) return this.shell(line.slice(1).trim());
    switch (word) {
      case '/exit':
      case '/quit':
        if (arg === '') return 'quit';
        break;
      case '/help':
        if (arg === '') return this.say(`${SLASH_HELP}\n`);
        break;
      case '/stats':
        if (arg === '') return this.say(this.stats());
        break;
      case '/tools':
        if (arg === '') return this.say(toolsReport(s));
        break;
      case '/mcp':
        if (arg === '') return this.say(mcpReport(s));
        break;
      case '/agents':
        return this.say(await agentsCommand(s, arg));
      case '/mode':
        return this.say(modeCommand(s, arg));
      case '/model':
        return this.say(await modelCommand(s, arg, io.env));
      case '/compact':
        return this.compact(arg || undefined);
      case '/clear':
        if (arg !== '') break;
        s.agent.clear();
        this.shellContext = [];
        return this.say('conversation cleared: the next prompt starts afresh (same session; the earlier turns stay in its record)\n');
      case '/done':
        s.agent.checkpointNow(arg || 'The operator marked the task done.');
        return 'done';
      case '/replan':
        if (arg === '') return this.say(`${await this.replan()}\n`);
        break;
    }
    if (line.startsWith('/')) return this.say(unknownSlashCommand(line, SLASH_HELP));
    await this.message(line);
    return 'done';
  }

  private say(text: string): LineOutcome {
    this.io.out(text);
    return 'done';
  }

  /** /stats: usage so far, and how full the context is (what /compact would shrink, how near automatic compaction is). */
  private stats(): string {
    const { agent } = this.s;
    const u = agent.usage;
    const cost = u.costUsd === null ? 'unknown' : `$${u.costUsd.toFixed(4)}`;
    const used = agent.contextTokens;
    const window = agent.contextWindow;
    const context = window
      ? `context ~${used} of ${window} tokens (${Math.round((used / window) * 100)}%)`
      : `context ~${used} tokens (window unknown)`;
    return `turns ${agent.turn}, ${u.inputTokens} input / ${u.outputTokens} output tokens${estimatedNote(u)}, cost ${cost}, ${context}\n`;
  }

  /** /replan: the operator's recorded plan withdrawn (plan_mode), so the plan gate closes. */
  private async replan(): Promise<string> {
    const { s } = this;
    const plans = s.runtime.services.plans;
    return plans
      ? await plans.revoke({ agent: s.session.agentName, session: s.sessionId })
      : 'plan_mode is off: there is no plan to withdraw';
  }

  /**
   * !COMMAND: the operator's own command, as in their shell: no permission gate (the denylist,
   * the caps and the record as theirs still apply); Ctrl-C or Esc stops it. The model reads it,
   * as in Claude Code, with the next message.
   */
  private async shell(command: string): Promise<LineOutcome> {
    if (command === '')
      return this.say('!COMMAND runs COMMAND in the shell (the workspace); the model reads the output with your next message\n');
    const signal = this.interrupts.turnStarted();
    try {
      const r = await this.s.runtime.dispatcher.call('bash', { command }, signal, { source: 'operator', typedByOperator: true });
      this.io.out(
        r.ok
          ? `${String(r.result.output ?? '')}${r.result.exit_code === 0 ? '' : `[exit ${String(r.result.exit_code)}]\n`}`
          : `${r.error}\n`,
      );
      if (!signal.aborted) this.shellContext.push(operatorShellBlock(command, r));
    } finally {
      this.interrupts.turnEnded();
    }
    return 'done';
  }

  /** /compact [NOTE]: the renderer prints the outcome's line (the compaction event); a cancel is said here. */
  private async compact(note: string | undefined): Promise<LineOutcome> {
    const signal = this.interrupts.turnStarted();
    this.text.startTurn();
    try {
      await this.s.agent.compact(note, signal);
    } catch (err) {
      if (!signal.aborted) throw err;
      this.text.cancelled('the compaction was stopped; the conversation is unchanged');
    } finally {
      this.text.stopSpinner();
      this.interrupts.turnEnded();
    }
    return 'done';
  }

  /** A message: its @path files through read_file's gate, as the operator's calls (what is not attached is said), after the !COMMAND output. */
  private message(line: string): Promise<void> {
    const { s } = this;
    return this.turn(async (signal) => {
      const files = await expandAtFiles(line, (p) => s.runtime.dispatcher.call('read_file', { path: p }, signal, { source: 'operator' }));
      for (const note of files.notes) this.text.note(`${note}\n`);
      const context = this.shellContext;
      this.shellContext = [];
      return s.agent.runTurn([...context, files.text].join('\n\n'), signal);
    });
  }

  /** One turn: Ctrl-C or Esc cancels it (recorded as cancelled; back at the prompt); a failed model call is said, and the session goes on. */
  private async turn(run: (signal: AbortSignal) => Promise<TurnResult>): Promise<void> {
    const { s, text } = this;
    const signal = this.interrupts.turnStarted();
    text.startTurn();
    try {
      text.finish(await run(signal));
    } catch (err) {
      if (signal.aborted) {
        const why = signal.reason instanceof Error ? signal.reason.message : 'the operator cancelled the turn';
        s.log.append(s.sessionId, s.agent.turn, 'error', { message: why, cancelled: true });
        text.cancelled('the turn was stopped (model call and running tools); back at the prompt — Ctrl-C again within a second quits');
      } else {
        text.stopSpinner();
        this.io.err(`core-agent: model call failed: ${(err as Error).message}\n`);
      }
    } finally {
      this.interrupts.turnEnded();
    }
  }
}
