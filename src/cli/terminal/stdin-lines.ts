import { createInterface, type Interface } from 'node:readline';
import { queuedLines, type ReadLine } from '../../runtime/choices.ts';
import { shareStream } from '../../util/fd-output.ts';

/**
 * Lines from the terminal for `run`'s dialogs: a reader opened on the first
 * question and closed after the dialog, so stdin is not held (the process
 * could not exit) and not in raw mode between questions. In raw mode Ctrl-C is
 * a key, not a signal: it is handed to `onInterrupt`, as SIGINT would be.
 */
export class DialogLines {
  private rl: Interface | undefined;
  private reader: ReadLine | undefined;

  constructor(private readonly onInterrupt: () => void) {}

  read: ReadLine = (prompt) => {
    if (!this.reader) {
      shareStream(2); // the dialog writes through process.stderr: io.err joins that stream
      this.rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
      this.rl.on('SIGINT', this.onInterrupt);
      this.reader = queuedLines(this.rl, process.stderr);
    }
    return this.reader(prompt);
  };

  /** Ends the dialog; a question still waiting gets null (a deny). */
  close(): void {
    const rl = this.rl;
    this.rl = undefined;
    this.reader = undefined;
    rl?.close();
  }
}
