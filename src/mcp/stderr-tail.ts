/** A partial line longer than this keeps only its last bytes. */
export const MAX_PARTIAL_CHARS = 64 * 1024;
const MAX_LINES = 5;
const MAX_LINE_CHARS = 500;

/**
 * The last few lines a stdio MCP server wrote to stderr, for the error messages
 * that quote its last words. Bounded whatever the server does: a server writing
 * megabytes without a newline would otherwise grow the partial line — and this
 * process's memory — without limit. Of a partial line at most MAX_PARTIAL_CHARS
 * (its end) is kept, and the count of what was dropped goes with it.
 */
export class StderrTail {
  private partial = '';
  private droppedChars = 0;
  private readonly lines: string[] = [];

  /** Feed a chunk; returns the lines it completed (each cut to 2,000 chars, for debug logs). */
  push(chunk: string): string[] {
    const parts = chunk.split('\n');
    const done: string[] = [];
    for (let i = 0; i < parts.length - 1; i++) {
      const line = this.finishLine(parts[i]!);
      if (line !== null) done.push(line);
    }
    this.append(parts.at(-1)!);
    return done;
  }

  /** The last complete line, else the end of the partial one ('' when there is none). */
  last(): string {
    return this.lines.at(-1) ?? this.partial.slice(-MAX_LINE_CHARS);
  }

  /** What is held now, in characters (for the memory bound's test). */
  get heldChars(): number {
    return this.partial.length + this.lines.reduce((n, l) => n + l.length, 0);
  }

  private append(text: string): void {
    if (text === '') return;
    this.partial += text;
    if (this.partial.length > MAX_PARTIAL_CHARS) {
      this.droppedChars += this.partial.length - MAX_PARTIAL_CHARS;
      this.partial = this.partial.slice(-MAX_PARTIAL_CHARS);
    }
  }

  private finishLine(end: string): string | null {
    this.append(end);
    const dropped = this.droppedChars;
    const text = this.partial;
    this.partial = '';
    this.droppedChars = 0;
    if (text.trim() === '') return null;
    const line = dropped > 0 ? `…(${dropped} chars dropped) ${text.slice(-MAX_LINE_CHARS)}` : text.slice(0, MAX_LINE_CHARS);
    this.lines.push(line);
    if (this.lines.length > MAX_LINES) this.lines.shift();
    return dropped > 0 ? line : text.slice(0, 2_000);
  }
}
