import type { ElicitAnswer, ElicitForm } from '../tools/framework/form.ts';
import type { Asker, ChoiceAnswer, ChoiceQuestion, OpenQuestion } from '../tools/framework/services.ts';
import { chooseOnLines, queuedLines } from './choices.ts';
import { shareStream } from '../util/fd-output.ts';

export const ASK_MODES = ['off', 'stdin', 'auto'] as const;
export type AskMode = (typeof ASK_MODES)[number];

const UNATTENDED = 'running unattended; proceed with reasonable defaults and explain in your final response';

/** Around a question: the terminal's live output stops, so nothing redraws over it (see cli/render.ts). */
export interface QuestionHooks {
  hold(): void;
  release(): void;
}

const NO_HOOKS: QuestionHooks = { hold: () => undefined, release: () => undefined };

/**
 * In raw mode Ctrl-C is a key, not a signal: it ends the question (no answer)
 * and is passed on as SIGINT, so a run waiting here is cancelled like any other.
 */
function interruptible(rl: { on(event: 'SIGINT', f: () => void): unknown; close(): void }): void {
  rl.on('SIGINT', () => {
    rl.close();
    process.emit('SIGINT');
  });
}

/** Reads the answer as one line from stdin; the question goes to stderr. */
export class StdinAsker implements Asker {
  constructor(private readonly hooks: QuestionHooks = NO_HOOKS) {}

  async ask(question: string): Promise<{ answer: string } | { unavailable: string }> {
    const { createInterface } = await import('node:readline/promises');
    this.hooks.hold();
    shareStream(2); // the question goes through process.stderr: io.err joins that stream
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: Boolean(process.stdin.isTTY) });
    interruptible(rl);
    try {
      const answer = await new Promise<string | null>((resolve) => {
        rl.once('close', () => resolve(null));
        rl.question(`\n? ${question}\n> `).then(resolve, () => resolve(null));
      });
      return answer === null ? { unavailable: 'stdin closed before an answer' } : { answer: answer.trim() };
    } finally {
      rl.close();
      this.hooks.release();
    }
  }

  /** request_user_input: the numbered lists on stderr, the replies from stdin. */
  async choose(questions: readonly ChoiceQuestion[]): Promise<{ answers: ChoiceAnswer[] } | { unavailable: string }> {
    const { createInterface } = await import('node:readline');
    this.hooks.hold();
    shareStream(2); // the question goes through process.stderr: io.err joins that stream
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: Boolean(process.stdin.isTTY) });
    interruptible(rl);
    try {
      return await chooseOnLines(questions, queuedLines(rl, process.stderr));
    } finally {
      rl.close();
      this.hooks.release();
    }
  }

  /** golem's AskUserQuestionTool: the questions and their numbered options on stderr, the replies from stdin. */
  async askQuestions(questions: readonly OpenQuestion[]): Promise<{ answers: Record<string, string> } | { unavailable: string }> {
    const [{ createInterface }, { openQuestionsOnLines }] = await Promise.all([import('node:readline'), import('./open-questions.ts')]);
    this.hooks.hold();
    shareStream(2); // the question goes through process.stderr: io.err joins that stream
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: Boolean(process.stdin.isTTY) });
    interruptible(rl);
    try {
      return await openQuestionsOnLines(questions, queuedLines(rl, process.stderr));
    } finally {
      rl.close();
      this.hooks.release();
    }
  }

  /** An MCP server's elicitation form: the fields one by one on stderr, the values from stdin. */
  async elicit(form: ElicitForm): Promise<ElicitAnswer | { unavailable: string }> {
    const [{ createInterface }, { formOnLines }] = await Promise.all([import('node:readline'), import('../mcp/elicit-lines.ts')]);
    shareStream(2); // the question goes through process.stderr: io.err joins that stream
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: Boolean(process.stdin.isTTY) });
    try {
      return await formOnLines(form, queuedLines(rl, process.stderr));
    } finally {
      rl.close();
    }
  }
}

/** Headless: never blocks — a clean refusal the model can act on. */
export class UnattendedAsker implements Asker {
  async ask(): Promise<{ unavailable: string }> {
    return { unavailable: UNATTENDED };
  }

  async choose(): Promise<{ unavailable: string }> {
    return { unavailable: 'running unattended' };
  }
}

/** --ask: off (no ask_user tool), stdin (always ask on stdin), auto (ask on a terminal, refuse headless). */
export function askerFor(mode: AskMode, interactive: boolean): Asker | undefined {
  if (mode === 'stdin') return new StdinAsker();
  if (mode === 'auto') return interactive ? new StdinAsker() : new UnattendedAsker();
  return undefined;
}
