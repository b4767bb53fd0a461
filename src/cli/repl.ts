import { createInterface, type Interface } from 'node:readline';
import type { GateRequest, PromptAnswer, Prompter } from '../permissions/gate.ts';
import { chooseOnLines } from '../runtime/choices.ts';
import type { Asker, ChoiceAnswer, ChoiceQuestion } from '../tools/services.ts';
import { buildSystem } from '../runtime/system.ts';
import { AGENT_OPTIONS_HELP, agentFlags, agentOptions } from './agent-session.ts';
import { commonOptions, modeOptions, parse } from './common-options.ts';
import { TextRenderer } from './render.ts';
import { logStoppedMessage } from './session-db-option.ts';
import { COMMON_OPTIONS_HELP, EXIT, type Io } from './usage.ts';

export const REPL_HELP = `Usage: core-agent repl [options]     (also: core-agent with no command, on a terminal)

An interactive session: each line you type is a turn. Permission prompts,
ask_user and request_user_input questions are answered in the same place: once, always (this tool, for
the session) or deny. Commands:

  /stats          usage so far: turns, tokens, cost
  /done [NOTE]    mark the task done: take a checkpoint now (the conversation so
                  far is replaced by a completion record in later requests)
  /replan         withdraw your recorded plan (plan_mode); the plan gate closes
  /help           this list
  /exit           leave (also Ctrl-D)

${AGENT_OPTIONS_HELP}
The watchdog defaults to warn here, and ask_user to asking on this terminal.

${COMMON_OPTIONS_HELP}`;

const COMMANDS = '/stats  /done [note]  /replan  /help  /exit';

/**
 * One reader of stdin for the whole REPL — prompts, permission questions and
 * ask_user alike (a second reader would steal lines). Lines that arrive before
 * anyone asks (piped input) are queued, not lost.
 */
class LineReader {
  private readonly queue: string[] = [];
  private waiting: ((line: string | null) => void) | null = null;
  private ended = false;

  constructor(
    private readonly rl: Interface,
    private readonly output: NodeJS.WritableStream,
    /** Before a prompt is shown: the working indicator stops, or it would redraw over the question. */
    private readonly beforePrompt: () => void,
  ) {
    rl.on('line', (line) => {
      if (this.waiting) {
        const w = this.waiting;
        this.waiting = null;
        w(line);
      } else this.queue.push(line);
    });
    rl.on('close', () => {
      this.ended = true;
      this.waiting?.(null);
      this.waiting = null;
    });
  }

  /** The next line, or null when input has ended. */
  read(prompt: string): Promise<string | null> {
    this.beforePrompt();
    this.output.write(prompt);
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => (this.waiting = resolve));
  }
}

/** Permission prompts through the REPL's reader. */
class LinePrompter implements Prompter {
  constructor(private readonly lines: LineReader) {}

  async ask(req: GateRequest & { namespace: string }): Promise<PromptAnswer> {
    const target = req.subjects
      .map((s) => s.forms[0])
      .filter(Boolean)
      .join(', ');
    for (;;) {
      const reply = await this.lines.read(`Allow ${req.tool}${target ? ` on ${target}` : ''}? [y]es once / [a]lways this session / [n]o: `);
      if (reply === null) return 'deny'; // nobody left to answer
      const r = reply.trim().toLowerCase();
      if (r === 'y' || r === 'yes') return 'once';
      if (r === 'a' || r === 'always') return 'session';
      if (r === 'n' || r === 'no' || r === '') return 'deny';
    }
  }
}

class LineAsker implements Asker {
  constructor(private readonly lines: LineReader) {}

  async ask(question: string): Promise<{ answer: string } | { unavailable: string }> {
    const answer = await this.lines.read(`? ${question}\n> `);
    return answer === null ? { unavailable: 'the operator closed the input' } : { answer: answer.trim() };
  }

  /** request_user_input: numbered choices on this terminal, through the one reader. */
  choose(questions: readonly ChoiceQuestion[]): Promise<{ answers: ChoiceAnswer[] } | { unavailable: string }> {
    return chooseOnLines(questions, (prompt) => this.lines.read(prompt));
  }
}

export async function replCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, { ...commonOptions, ...modeOptions, ...agentOptions }, 'repl');
  if (values.help) {
    io.out(`${REPL_HELP}\n`);
    return EXIT.ok;
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: io.isTty });
  const text = new TextRenderer(io, io.isTty);
  const lines = new LineReader(rl, process.stdout, () => text.stopSpinner());
  const s = await buildSystem({
    until: 'agent',
    ...agentFlags(values, 'repl'),
    env: io.env,
    command: 'repl',
    logLevel: 'warn',
    say: (text) => io.err(text),
    interactive: io.isTty,
    defaults: { watchdog: 'warn', ask: 'stdin' },
    prompter: new LinePrompter(lines),
    asker: new LineAsker(lines),
    title: 'interactive session',
    onEvent: text.onEvent,
  });
  const { agent, session, sessionId } = s;
  // As in run: a full disk stops the record, not the session.
  s.log.onWriteFailure = (f) => {
    text.stopSpinner();
    io.err(`core-agent: ${logStoppedMessage(f, 'now')}\n`);
  };
  try {
    io.out(`core-agent — session ${sessionId}, model ${s.modelSpec}, mode ${s.runtime.gate.mode}. ${COMMANDS}\n`);
    if (s.resumed?.openTurn) text.finish(await agent.continueTurn());
    for (;;) {
      const read = await lines.read('› ');
      if (read === null) break; // Ctrl-D or the end of piped input
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
        io.out(`turns ${agent.turn}, ${u.inputTokens} input / ${u.outputTokens} output tokens, cost ${cost}\n`);
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
        io.out(`unknown command ${line.split(' ')[0]}; ${COMMANDS}\n`);
        continue;
      }
      try {
        text.finish(await agent.runTurn(line));
      } catch (err) {
        text.stopSpinner();
        io.err(`core-agent: model call failed: ${(err as Error).message}\n`);
      }
    }
    const stopped = s.log.failure(sessionId);
    if (stopped) io.err(`core-agent: ${logStoppedMessage(stopped, 'end')}.\n`);
    return stopped ? EXIT.failure : EXIT.ok;
  } finally {
    text.stopSpinner();
    await s.session.close();
    rl.close();
    s.log.close();
  }
}
