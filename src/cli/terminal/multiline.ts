import type { Interface } from 'node:readline';

/** The prompt of a message's second and later lines. */
export const CONTINUATION_PROMPT = '… ';

/** Turns bracketed paste on in the terminal (it then wraps a paste in ESC[200~ … ESC[201~) and back off. */
export const BRACKETED_PASTE_ON = '\x1b[?2004h';
export const BRACKETED_PASTE_OFF = '\x1b[?2004l';

/** A line ending in one backslash continues on the next (`\\` at the end is a literal backslash, as in a shell it is not). */
export function continues(line: string): boolean {
  return /(^|[^\\])\\$/.test(line);
}

/**
 * A readline line as one piece of a message: a history entry recalled with
 * the up arrow that holds several lines comes back from Node's readline with
 * `\r` between them (its multi-line history form); they are newlines again.
 */
export function normalizeRecalled(line: string): string {
  return line.replace(/\r\n?/g, '\n');
}

/**
 * Lines that arrive inside a bracketed paste are held (Node's readline
 * reports ESC[200~ and ESC[201~ as the keys `paste-start` / `paste-end`, and
 * each newline in the paste as a line): the message is the pasted lines plus
 * the line the operator then sends with Enter, so a paste never sends itself,
 * line by line, as turns.
 */
export class PasteTracker {
  private pasting = false;
  private held: string[] = [];

  constructor(
    input: NodeJS.ReadableStream,
    private readonly rl: Interface,
    private readonly output: NodeJS.WritableStream,
  ) {
    input.on('keypress', (_s: unknown, key: { name?: string } | undefined) => {
      if (key?.name === 'paste-start') this.pasting = true;
      else if (key?.name === 'paste-end') this.pasting = false;
    });
  }

  /** A line readline produced: held (inside a paste; the next line's prompt is drawn) or, with what was held, the whole. */
  take(line: string): string | null {
    if (this.pasting) {
      this.held.push(line);
      this.rl.setPrompt(CONTINUATION_PROMPT);
      this.output.write(CONTINUATION_PROMPT);
      return null;
    }
    if (this.held.length === 0) return line;
    const whole = [...this.held, line].join('\n');
    this.held = [];
    return whole;
  }

  get holding(): boolean {
    return this.held.length > 0 || this.pasting;
  }

  drop(): void {
    this.held = [];
  }
}

/**
 * The history holds a message once, whole: readline added each of its lines
 * as it went; they are replaced by the message (newest first, as readline keeps it).
 */
export function rememberWhole(history: string[], before: readonly string[], message: string, max: number): void {
  const rest = before.filter((h) => h !== message);
  history.splice(0, history.length, message, ...rest.slice(0, max - 1));
}
