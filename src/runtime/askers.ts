import type { ElicitAnswer, ElicitForm } from '../tools/form.ts';
import type { Asker, ChoiceAnswer, ChoiceQuestion } from '../tools/services.ts';
import { chooseOnLines, queuedLines } from './choices.ts';

export const ASK_MODES = ['off', 'stdin', 'auto'] as const;
export type AskMode = (typeof ASK_MODES)[number];

const UNATTENDED = 'running unattended; proceed with reasonable defaults and explain in your final response';

/** Reads the answer as one line from stdin; the question goes to stderr. */
export class StdinAsker implements Asker {
  async ask(question: string): Promise<{ answer: string } | { unavailable: string }> {
    const { createInterface } = await import('node:readline/promises');
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: Boolean(process.stdin.isTTY) });
    try {
      const answer = await new Promise<string | null>((resolve) => {
        rl.once('close', () => resolve(null));
        rl.question(`\n? ${question}\n> `).then(resolve, () => resolve(null));
      });
      return answer === null ? { unavailable: 'stdin closed before an answer' } : { answer: answer.trim() };
    } finally {
      rl.close();
    }
  }

  /** request_user_input: the numbered lists on stderr, the replies from stdin. */
  async choose(questions: readonly ChoiceQuestion[]): Promise<{ answers: ChoiceAnswer[] } | { unavailable: string }> {
    const { createInterface } = await import('node:readline');
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: Boolean(process.stdin.isTTY) });
    try {
      return await chooseOnLines(questions, queuedLines(rl, process.stderr));
    } finally {
      rl.close();
    }
  }

  /** An MCP server's elicitation form: the fields one by one on stderr, the values from stdin. */
  async elicit(form: ElicitForm): Promise<ElicitAnswer | { unavailable: string }> {
    const [{ createInterface }, { formOnLines }] = await Promise.all([import('node:readline'), import('../mcp/elicit-lines.ts')]);
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
