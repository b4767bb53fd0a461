import type { JsonObject, JsonValue } from '../../core/json.ts';

/** The most a single tool result may put in front of the model. */
export interface OutputCaps {
  readonly maxBytes: number;
  readonly maxLines: number;
}

/** Used for every tool without its own default below. */
export const DEFAULT_CAPS: OutputCaps = { maxBytes: 128 * 1024, maxLines: 2000 };

export interface CapsConfig {
  max_bytes?: number | undefined;
  max_lines?: number | undefined;
  per_tool?: Readonly<Record<string, { max_bytes?: number | undefined; max_lines?: number | undefined } | undefined>> | undefined;
}

/**
 * Precedence: tool_output.per_tool.<tool> > tool_output.max_* > the tool's own
 * caps (its definition's `caps`) > DEFAULT_CAPS.
 */
export function capsFor(tool: string, cfg: CapsConfig = {}, builtIn: Partial<OutputCaps> = {}): OutputCaps {
  const per = cfg.per_tool?.[tool] ?? {};
  return {
    maxBytes: per.max_bytes ?? cfg.max_bytes ?? builtIn.maxBytes ?? DEFAULT_CAPS.maxBytes,
    maxLines: per.max_lines ?? cfg.max_lines ?? builtIn.maxLines ?? DEFAULT_CAPS.maxLines,
  };
}

/**
 * How many "lines" a result holds: the lines of its multi-line strings, and
 * one per array element (or the element's own lines, if more). A grep result
 * with 40 matches is 40 lines; a file's content is its line count.
 */
export function countLines(v: JsonValue): number {
  if (typeof v === 'string') return v.includes('\n') ? lineCount(v) : 0;
  if (Array.isArray(v)) return v.reduce<number>((n, el) => n + Math.max(1, countLines(el)), 0);
  if (v !== null && typeof v === 'object') return Object.values(v).reduce<number>((n, el) => n + countLines(el), 0);
  return 0;
}

function lineCount(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n += 1;
  return s.endsWith('\n') ? n : n + 1;
}

export const byteLength = (v: JsonValue): number => Buffer.byteLength(JSON.stringify(v));

interface Budget {
  lines: number;
  chars: number;
  cut: boolean;
  /** Array elements' costs, computed once per applyCaps (the search below re-cuts many times). */
  costs: Map<JsonValue[], Array<{ lines: number; chars: number }>>;
}

/**
 * Keep the head of a result within both caps. Array elements are kept whole
 * or dropped (a half path is worse than none), except the first, so one huge
 * file can still be shown in part. Multi-line strings keep whole leading lines.
 * The result says `truncated: true` and its `note` tells the model how to
 * narrow the call.
 */
export function applyCaps(result: JsonObject, caps: OutputCaps, narrowHint: string, knownBytes?: number): JsonObject {
  const bytes = knownBytes ?? byteLength(result);
  // Every counted line takes at least one byte of the encoding, so a small result needs no count.
  if (bytes <= caps.maxBytes && bytes <= caps.maxLines) return result;
  const lines = countLines(result);
  if (lines <= caps.maxLines && bytes <= caps.maxBytes) return result;

  // Binary search for the largest character budget whose encoding fits: JSON
  // escaping makes the encoded size a bit larger than the characters kept.
  const costs: Budget['costs'] = new Map();
  let lo = 0;
  let hi = caps.maxBytes;
  let best = truncateWith(result, caps.maxLines, 0, costs);
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const candidate = truncateWith(result, caps.maxLines, mid, costs);
    if (byteLength(candidate) + 400 <= caps.maxBytes) {
      best = candidate;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  const why = `Output cut to fit ${caps.maxLines} lines / ${caps.maxBytes} bytes (was ${lines} lines / ${bytes} bytes).`;
  const note = typeof best.note === 'string' && best.note.length > 0 ? `${best.note} ${why}` : why;
  return { ...best, truncated: true, note: `${note} ${narrowHint}` };
}

function truncateWith(result: JsonObject, maxLines: number, maxChars: number, costs: Budget['costs']): JsonObject {
  const budget: Budget = { lines: maxLines, chars: maxChars, cut: false, costs };
  return cut(result, budget) as JsonObject;
}

function elementCosts(arr: JsonValue[], b: Budget): Array<{ lines: number; chars: number }> {
  let costs = b.costs.get(arr);
  if (!costs) {
    costs = arr.map((el) => ({
      lines: Math.max(1, countLines(el)),
      chars: (typeof el === 'string' ? el.length + 2 : JSON.stringify(el).length) + 1,
    }));
    b.costs.set(arr, costs);
  }
  return costs;
}

function cut(v: JsonValue, b: Budget): JsonValue {
  if (typeof v === 'string') return cutString(v, b);
  if (Array.isArray(v)) {
    const out: JsonValue[] = [];
    const costs = elementCosts(v, b);
    for (const [i, el] of v.entries()) {
      const { lines: elLines, chars: elChars } = costs[i]!;
      if (elLines <= b.lines && elChars <= b.chars) {
        out.push(el);
        b.lines -= elLines;
        b.chars -= elChars;
        continue;
      }
      if (out.length === 0 && b.lines > 0 && b.chars > 0) {
        const before = b.lines;
        out.push(cut(el, b));
        if (b.lines === before) b.lines -= 1;
      }
      b.cut = true;
      break;
    }
    return out;
  }
  if (v !== null && typeof v === 'object') {
    const out: { [key: string]: JsonValue } = {};
    for (const [k, val] of Object.entries(v)) out[k] = cut(val, b);
    return out;
  }
  b.chars -= String(v).length;
  return v;
}

function cutString(s: string, b: Budget): string {
  if (!s.includes('\n')) {
    if (s.length <= Math.max(b.chars, 0)) {
      b.chars -= s.length;
      return s;
    }
    b.cut = true;
    const kept = s.slice(0, Math.max(b.chars, 0));
    b.chars = 0;
    return kept;
  }
  let out = '';
  let pos = 0;
  while (pos < s.length) {
    if (b.lines <= 0 || b.chars <= 0) {
      b.cut = true;
      break;
    }
    const nl = s.indexOf('\n', pos);
    const end = nl === -1 ? s.length : nl + 1;
    const line = s.slice(pos, end);
    if (line.length > b.chars) {
      out += line.slice(0, b.chars);
      b.chars = 0;
      b.lines -= 1;
      b.cut = true;
      break;
    }
    out += line;
    b.chars -= line.length;
    b.lines -= 1;
    pos = end;
  }
  return out;
}
