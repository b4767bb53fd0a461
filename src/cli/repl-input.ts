import type { Interface } from 'node:readline';
import { chooseOnLines, type ReadLine } from '../runtime/choices.ts';
import type { Asker, ChoiceAnswer, ChoiceQuestion, OpenQuestion } from '../tools/framework/services.ts';
import type { ElicitAnswer, ElicitForm } from '../tools/framework/form.ts';
import { HISTORY_LINES } from './repl-history.ts';
import { CONTINUATION_PROMPT, continues, normalizeRecalled, rememberWhole, type PasteTracker } from './terminal/multiline.ts';

// The REPL's input: its one reader of stdin, the asker that questions go through, and Ctrl-C.

/**
 * One reader of stdin for the whole REPL — prompts, permission questions and
 * ask_user alike (a second reader would steal lines). Lines that arrive before
 * anyone asks (piped input) are queued, not lost.
 */
export class LineReader {
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

export class LineAsker implements Asker {
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

  /** golem's AskUserQuestionTool: the questions and their options on this terminal, through the one reader. */
  async askQuestions(questions: readonly OpenQuestion[]): Promise<{ answers: Record<string, string> } | { unavailable: string }> {
    const { openQuestionsOnLines } = await import('../runtime/open-questions.ts');
    return openQuestionsOnLines(questions, this.read);
  }

  /** An MCP server's elicitation form, field by field, through the one reader (the live region pauses for it). */
  async elicit(form: ElicitForm): Promise<ElicitAnswer | { unavailable: string }> {
    const { formOnLines } = await import('../mcp/elicit-lines.ts');
    return formOnLines(form, this.read);
  }
}

/** A second Ctrl-C within this long of the first quits, whatever is running. */
const DOUBLE_PRESS_MS = 1000;

/**
 * Ctrl-C in the REPL. On a terminal readline reads it as a key (raw mode: no
 * signal reaches this process or the tools' process groups), elsewhere it is
 * SIGINT; both come here. During a turn the first press cancels the turn — the
 * model call and every running tool (the dispatcher aborts them; bash kills its
 * process groups) — and a pending question is withdrawn. At a prompt it clears
 * what was typed, or quits when nothing was. A second press within a second
 * always quits.
 */
export class Interrupts {
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
