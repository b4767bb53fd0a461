// Keeping the END of a text within a tool's bounds: a log's crash, a command's error
// summary, a server's last lines are at the end. The dispatcher's output caps keep a
// result's head (framework/output.ts applyCaps) and count its JSON bytes, where a control
// character takes six, so a tool that shows an end fits the text to the caps itself.

export interface TailBudget {
  /** UTF-8 bytes of log kept, at most. */
  bytes: number;
  /** Bytes the kept log may take once JSON-encoded (the output cap counts those). */
  jsonBytes: number;
  /** Lines kept, at most (the output cap counts those too). */
  lines: number;
}

export interface KeptTail {
  log: string;
  /** Whole lines before the kept ones, and bytes before the kept ones (a cut line's head included). */
  droppedLines: number;
  droppedBytes: number;
  keptLines: number;
  /** The first kept line is the end of a line longer than the budget. */
  midLine: boolean;
}

/**
 * The last lines of `text` that fit the budget, whole; if even the last line does not,
 * its end, cut on a character boundary (a split UTF-8 sequence would decode to U+FFFD).
 */
export function keepTail(text: string, budget: TailBudget): KeptTail {
  const lines = splitLines(text);
  let bytes = 0;
  let json = 0;
  let first = lines.length;
  while (first > 0 && lines.length - first < budget.lines) {
    const line = lines[first - 1]!;
    const b = Buffer.byteLength(line);
    const j = jsonCost(line);
    if (bytes + b > budget.bytes || json + j > budget.jsonBytes) break;
    bytes += b;
    json += j;
    first -= 1;
  }
  let log = lines.slice(first).join('');
  let midLine = false;
  let droppedLines = first;
  if (first === lines.length && lines.length > 0 && budget.lines > 0) {
    // Not even the last line fits: keep as much of its end as does.
    // No more characters than bytes fit (each takes one at least): only those are looked at.
    let line = lines[lines.length - 1]!.slice(-budget.bytes);
    if (/^[\uDC00-\uDFFF]/.test(line)) line = line.slice(1); // the slice split a surrogate pair
    const chars = [...line];
    let at = chars.length;
    while (at > 0) {
      const c = chars[at - 1]!;
      const b = Buffer.byteLength(c);
      const j = jsonCost(c);
      if (bytes + b > budget.bytes || json + j > budget.jsonBytes) break;
      bytes += b;
      json += j;
      at -= 1;
    }
    log = chars.slice(at).join('');
    midLine = log.length < lines[lines.length - 1]!.length;
    droppedLines = lines.length - 1;
  }
  return {
    log,
    droppedLines,
    droppedBytes: Buffer.byteLength(text) - Buffer.byteLength(log),
    keptLines: splitLines(log).length,
    midLine,
  };
}

/** Lines with their "\n"; a last line without one counts too. */
export function splitLines(text: string): string[] {
  const out: string[] = [];
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl + 1;
    out.push(text.slice(pos, end));
    pos = end;
  }
  return out;
}

/** The bytes `s` takes inside a JSON string (JSON.stringify's escapes), without the quotes. */
export function jsonCost(s: string): number {
  return Buffer.byteLength(JSON.stringify(s)) - 2;
}
