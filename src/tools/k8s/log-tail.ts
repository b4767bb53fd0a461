// Reading the END of a container log within a byte bound. The crash, the last error, the
// lines before an exit are at the end; the API can only cut the other end.
//
// The API's PodLogOptions, as the kubelet applies them (pkg/kubelet/kuberuntime/logs):
// - tailLines: N — start N lines before the end of the log file; unset, from its start.
// - sinceSeconds: S — of the lines from there, skip those older than now − S; so with
//   tailLines both apply, and the result is always a stretch that ENDS at the log's end.
// - previous: true — the same, over the container's previous, terminated run.
// - limitBytes: L — write the FIRST L bytes of that selection and stop, even mid-line
//   (the docs add that it "may return slightly more or slightly less than the specified
//   limit"). There is no option for the last L bytes, nor for a stretch ending earlier.
//
// So a bounded request (limitBytes) that comes back short of L holds the whole selection,
// and its last bytes are the log's end. One that comes back at L holds only the selection's
// head: then ask again for fewer lines (tailLines, which still ends at the log's end) until
// the answer is short of L. Every request carries limitBytes: nothing here reads a log
// unbounded (the client reads a 2xx text body whole: src/k8s/kube-http.ts readBody).
import { jsonCost, splitLines, type TailBudget } from '../shared/keep-tail.ts';

/** The most one request asks for (limitBytes), and so the most read into memory at once. */
export const MAX_READ_WINDOW = 4 * 1024 * 1024;
/** Requests per call, at most: each one asks for fewer lines (readLogEnd). */
export const MAX_REQUESTS = 4;
/**
 * An answer this close to the window counts as cut by it ("slightly less than the
 * limit"): the cost of a wrong guess is one more request for fewer lines, never a wrong end.
 */
const WINDOW_SLACK = 4096;

/** What one request is asked for: limitBytes is always set. */
export type LogRequest = (tailLines: number | undefined, limitBytes: number) => Promise<string>;

export interface LogRead {
  /** The last answer: the whole of its selection when `complete`, else only its head. */
  text: string;
  complete: boolean;
  /** The lines the last request asked for (undefined: the whole since_seconds window). */
  tailLines: number | undefined;
  /**
   * Set when the selection asked for was larger than the window, so a smaller one was read:
   * what the first answer held (its bytes, and its complete lines), lower bounds on the selection.
   */
  narrowedFrom?: { bytes: number; lines: number };
}

/** The read window for a result of `limit` bytes: room to cut at a line boundary, and to count what was dropped. */
export function readWindow(limit: number): number {
  return Math.min(MAX_READ_WINDOW, Math.max(1024 * 1024, limit * 16));
}

/** Read the selection's end: the selection itself if it fits the window, else a smaller tail of it that does. */
export async function readLogEnd(request: LogRequest, tailLines: number | undefined, window: number): Promise<LogRead> {
  let tail = tailLines;
  let narrowedFrom: LogRead['narrowedFrom'];
  let text = '';
  for (let attempt = 0; attempt < MAX_REQUESTS; attempt++) {
    text = await request(tail, window);
    const bytes = Buffer.byteLength(text);
    if (bytes < window - WINDOW_SLACK) return { text, complete: true, tailLines: tail, ...(narrowedFrom ? { narrowedFrom } : {}) };
    const lines = countNewlines(text);
    narrowedFrom ??= { bytes, lines };
    // First half the lines the window held (lines as long as the head's, on average); if
    // the end is made of longer lines than that, as many as fit if each were as long as
    // the longest seen. A wrong guess costs one more request, never a wrong end.
    let next = Math.max(1, attempt === 0 ? Math.floor(lines / 2) : Math.floor(window / 2 / longestLine(text)));
    if (tail !== undefined) next = Math.min(next, tail - 1);
    if (next < 1) break; // one line alone is longer than the window
    tail = next;
  }
  return { text, complete: false, tailLines: tail, ...(narrowedFrom ? { narrowedFrom } : {}) };
}

/** The head of `text` within the budget's bytes and JSON size, on a character boundary: for a last line the window could not hold whole. */
export function keepHead(text: string, budget: TailBudget): string {
  let bytes = 0;
  let json = 0;
  let out = '';
  for (const c of text.replace(/\uFFFD+$/, '')) {
    bytes += Buffer.byteLength(c);
    json += jsonCost(c);
    if (bytes > budget.bytes || json > budget.jsonBytes) break;
    out += c;
  }
  return out;
}

/** The longest line's UTF-8 bytes, a cut last line included. */
function longestLine(text: string): number {
  let longest = 1;
  for (const line of splitLines(text)) longest = Math.max(longest, Buffer.byteLength(line));
  return longest;
}

export function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n += 1;
  return n;
}
