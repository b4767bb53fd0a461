import type { GateRequest, PromptAnswer, Prompter } from './gate.ts';
import { shareStream } from '../util/fd-output.ts';

/**
 * Asks on the terminal: once / always (this tool, for the session) / deny.
 * The question goes to stderr so stdout stays machine-readable. Only built when
 * stdin and stderr are both TTYs; headless runs get no prompter and the gate
 * refuses instead of blocking on a question nobody can answer.
 */
export class TtyPrompter implements Prompter {
  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stderr,
  ) {}

  static available(): boolean {
    return Boolean(process.stdin.isTTY && process.stderr.isTTY);
  }

  async ask(req: GateRequest & { namespace: string }): Promise<PromptAnswer> {
    const target = req.subjects
      .map((s) => s.forms[0])
      .filter(Boolean)
      .join(', ');
    const { createInterface } = await import('node:readline/promises'); // only when someone is asked
    if (this.output === process.stderr) shareStream(2); // io.err joins the stream the question goes through
    const rl = createInterface({ input: this.input, output: this.output, terminal: true });
    try {
      for (;;) {
        const reply = (
          await rl.question(
            `Allow ${req.agent !== undefined ? `[${req.agent}] ` : ''}${req.tool}${target ? ` on ${target}` : ''}? [y]es once / [a]lways this session / [n]o: `,
          )
        )
          .trim()
          .toLowerCase();
        if (reply === 'y' || reply === 'yes') return 'once';
        if (reply === 'a' || reply === 'always') return 'session';
        if (reply === 'n' || reply === 'no' || reply === '') return 'deny';
      }
    } finally {
      rl.close();
    }
  }
}
