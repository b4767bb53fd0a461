/** Erase the current line and return to its start. */
const CLEAR_LINE = '\r\x1b[2K';
/** Move up one line (the column stays; CLEAR_LINE then returns to its start). */
const UP = '\x1b[1A';
const ESCAPES = /\x1b\[[0-9;]*[A-Za-z]/g;

/**
 * The bottom lines of the terminal that belong to the renderer: drawn below
 * everything written, erased before anything else is written. It is drawn only
 * when the cursor is at the start of a line — text streamed without a newline
 * yet stays untouched — and each line is cut to the terminal's width, so the
 * lines it erases are exactly the lines it drew.
 */
export class LiveRegion {
  /** Lines drawn (0: nothing of ours on screen). */
  private height = 0;
  /** The last write did not end its line (streamed text mid-line): nothing may be drawn. */
  private midLine = false;

  constructor(
    private readonly write: (s: string) => void,
    private readonly columns: () => number | undefined,
  ) {}

  /** Something was written (the region was cleared first): where is the cursor now. */
  wrote(text: string): void {
    if (text.length === 0) return;
    this.midLine = !text.endsWith('\n');
  }

  get atLineStart(): boolean {
    return !this.midLine;
  }

  draw(lines: readonly string[]): void {
    this.clear();
    if (this.midLine || lines.length === 0) return;
    const width = Math.max(10, (this.columns() ?? 80) - 1);
    this.write(lines.map((l) => fit(l, width)).join('\n'));
    this.height = lines.length;
  }

  clear(): void {
    if (this.height === 0) return;
    this.write(CLEAR_LINE + (UP + CLEAR_LINE).repeat(this.height - 1));
    this.height = 0;
  }
}

/** Cut a line to `width` visible characters, keeping its colour codes (and ending them). */
function fit(line: string, width: number): string {
  if (line.replace(ESCAPES, '').length <= width) return line;
  let visible = 0;
  let out = '';
  for (let i = 0; i < line.length && visible < width - 1;) {
    const m = /^\x1b\[[0-9;]*[A-Za-z]/.exec(line.slice(i));
    if (m) {
      out += m[0];
      i += m[0].length;
      continue;
    }
    out += line[i];
    visible++;
    i++;
  }
  // A cut inside a coloured span would colour what follows: the style is reset after the cut.
  return /\x1b\[/.test(line) ? `${out}…\x1b[0m` : `${out}…`;
}
