// Structural digest of a large JSON value: what replaces a tool result that is too big to
// put in front of the model. The digest keeps the shape (keys, array lengths, identifiers)
// and drops bulk (long strings, long arrays, deep subtrees), and says what it dropped, in
// place, so the model can ask a narrower question.
//
// Two properties drive the design:
// - Speed. A 10 MB response must digest in a small multiple of JSON.parse of the same bytes,
//   so nothing here walks, serialises or regex-scans a part of the value that is dropped.
// - Idempotence. A digest pruned again at the same level, or at any looser one, is
//   unchanged: every marker left behind is recognised and kept, and an array summary keeps
//   behaving like the array it replaced. digestValue depends on this, since each tighter
//   level prunes the previous level's output rather than the original value.
import type { JsonObject, JsonValue } from '../../core/json.ts';

/** Serialised size above which a tool result is replaced by its digest. */
export const DIGEST_THRESHOLD_BYTES = 8000;

export interface PruneLimits {
  /** Strings longer than this (in UTF-16 code units) are cut, or parsed when they hold JSON. */
  maxStringChars: number;
  /** How many code units of a cut string survive ahead of the marker (at most maxStringChars). */
  keepChars: number;
  /** Longer arrays become a summary keeping the first ceil(n/2) and last floor(n/2) elements. */
  maxArrayElems: number;
  /** Objects and arrays at this depth or deeper (the root is depth 0) become a one-line marker. */
  maxDepth: number;
}

/**
 * Loosest first. Strings and arrays tighten faster than depth: for an MCP result the
 * payload already sits at depth 3 (content[0].text), and a tight depth cap would turn every
 * item of a listing into "<truncated, subtree …>", losing the names the model needs most.
 * keepChars + the longest marker stays below maxStringChars so a cut string is never cut again.
 */
export const PRUNE_LEVELS: readonly PruneLimits[] = Object.freeze([
  Object.freeze({ maxStringChars: 500, keepChars: 200, maxArrayElems: 20, maxDepth: 8 }),
  Object.freeze({ maxStringChars: 300, keepChars: 120, maxArrayElems: 12, maxDepth: 8 }),
  Object.freeze({ maxStringChars: 160, keepChars: 80, maxArrayElems: 8, maxDepth: 8 }),
  Object.freeze({ maxStringChars: 100, keepChars: 50, maxArrayElems: 6, maxDepth: 7 }),
  Object.freeze({ maxStringChars: 80, keepChars: 40, maxArrayElems: 4, maxDepth: 6 }),
  Object.freeze({ maxStringChars: 80, keepChars: 40, maxArrayElems: 4, maxDepth: 4 }),
]);

const LOOSEST: PruneLimits = PRUNE_LEVELS[0]!;

export interface PruneStats {
  strings_truncated: number;
  arrays_collapsed: number;
  subtrees_dropped: number;
  nested_json_parsed: number;
}

const emptyStats = (): PruneStats => ({ strings_truncated: 0, arrays_collapsed: 0, subtrees_dropped: 0, nested_json_parsed: 0 });

/** Beyond this an "identifier" is bulk (a 1 MB "name" would otherwise defeat the digest). */
const MAX_IDENTIFIER_CHARS = 2048;

const IDENTIFIER_NAMES = /^(?:id|name|status|kind|type|error|code|reason|apiversion|namespace|uid|resourceversion|phase)$/i;
// `call_id`, `request-id`, `x.ID`, and camelCase `podId` / `podID` (but not `VOID` or `paid`).
const IDENTIFIER_SUFFIX = /(?:[^A-Za-z][iI][dD]|[a-z0-9]I[dD])$/;
const IDENTIFIER_PARTS = /url|uri|path|href|link/i;

/**
 * Keys whose string values are names the model may need verbatim to ask a follow-up
 * question, so they are never cut (up to 2,048 chars). Matching is deliberately loose
 * ("uri" also matches "security"): a false positive costs at most 2 KB of kept text.
 */
export function isIdentifierKey(key: string): boolean {
  return IDENTIFIER_NAMES.test(key) || IDENTIFIER_SUFFIX.test(key) || IDENTIFIER_PARTS.test(key);
}

const truncationMarker = (originalLength: number) => `…<truncated, ${originalLength} chars>`;
// Longer than any marker ("…<truncated, " + 16 digits + " chars>"), so the tail always holds it whole.
const MARKER_TAIL_CHARS = 40;
// \u2026, not the character itself: a regex literal is the one place esbuild cannot escape it, and a
// single non-ASCII character makes V8 hold the whole bundle as a two-byte string (twice the bytes to scan).
const MARKER_AT_END = /\u2026<truncated, (\d+) chars>$/;

interface ArraySummary {
  _summary: 'array';
  total: number;
  dropped: number;
  first: JsonValue[];
  last: JsonValue[];
}

/** Recognises the object an earlier pass put in place of a long array. */
function asArraySummary(o: JsonObject): ArraySummary | undefined {
  if (o._summary !== 'array') return undefined;
  const { total, dropped, first, last } = o;
  if (typeof total !== 'number' || typeof dropped !== 'number' || !Array.isArray(first) || !Array.isArray(last)) return undefined;
  if (dropped !== total - first.length - last.length || Object.keys(o).length !== 5) return undefined;
  return o as unknown as ArraySummary;
}

const isJsonWhitespace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** By index rather than regex: this runs on multi-megabyte strings. */
function looksLikeJsonContainer(s: string): boolean {
  let i = 0;
  let j = s.length - 1;
  while (i < j && isJsonWhitespace(s.charCodeAt(i))) i++;
  while (j > i && isJsonWhitespace(s.charCodeAt(j))) j--;
  const open = s.charCodeAt(i);
  const close = s.charCodeAt(j);
  return i < j && ((open === 0x7b && close === 0x7d) || (open === 0x5b && close === 0x5d));
}

/** Own-property assignment even for "__proto__", which JSON.parse can produce as a plain key. */
function setKey(o: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}

class Pruner {
  readonly stats = emptyStats();
  private readonly limits: PruneLimits;
  private readonly keep: number;

  constructor(limits: PruneLimits) {
    this.limits = limits;
    this.keep = Math.max(0, Math.min(limits.keepChars, limits.maxStringChars));
  }

  /** `key` is the property name `v` sits under, or undefined for array elements and the root. */
  node(v: JsonValue, depth: number, key: string | undefined): JsonValue {
    if (typeof v === 'string') return this.string(v, depth, key);
    if (typeof v !== 'object' || v === null) return v;
    if (Array.isArray(v)) return this.array(v, depth);
    const summary = asArraySummary(v);
    return summary ? this.summary(summary, depth) : this.object(v, depth);
  }

  private string(s: string, depth: number, key: string | undefined): JsonValue {
    if (s.length <= this.limits.maxStringChars) return s;
    if (key !== undefined && s.length <= MAX_IDENTIFIER_CHARS && isIdentifierKey(key)) return s;
    if (looksLikeJsonContainer(s)) {
      let parsed: JsonValue | undefined;
      try {
        parsed = JSON.parse(s) as JsonValue;
      } catch {
        // Not JSON after all: cut like any other text.
      }
      if (parsed !== undefined) {
        this.stats.nested_json_parsed++;
        return this.node(parsed, depth, undefined);
      }
    }
    return this.cut(s);
  }

  private cut(s: string): string {
    let original = s.length;
    if (s.endsWith(' chars>')) {
      const m = MARKER_AT_END.exec(s.slice(-MARKER_TAIL_CHARS));
      if (m) {
        // An earlier cut: leave it if it is no longer than this level would make it,
        // otherwise cut the head shorter but keep reporting the original length.
        const reported = Number(m[1]);
        if (s.length <= this.keep + truncationMarker(reported).length) return s;
        original = Math.max(reported, s.length);
      }
    }
    let end = this.keep;
    const last = s.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end--; // never split a surrogate pair
    this.stats.strings_truncated++;
    return s.slice(0, end) + truncationMarker(original);
  }

  private array(a: JsonValue[], depth: number): JsonValue {
    if (depth >= this.limits.maxDepth) {
      this.stats.subtrees_dropped++;
      return `<truncated, array of ${a.length} items>`;
    }
    const max = this.limits.maxArrayElems;
    if (a.length <= max) return this.elements(a, 0, a.length, depth);
    this.stats.arrays_collapsed++;
    const head = Math.ceil(max / 2);
    const tail = Math.floor(max / 2);
    return this.summaryOf(a.length, this.elements(a, 0, head, depth), this.elements(a, a.length - tail, a.length, depth));
  }

  /** A summary stands for its array: same depth, and re-collapsed only when this level is tighter. */
  private summary(s: ArraySummary, depth: number): JsonValue {
    if (depth >= this.limits.maxDepth) {
      this.stats.subtrees_dropped++;
      return `<truncated, array of ${s.total} items>`;
    }
    const kept = s.first.length + s.last.length;
    const max = this.limits.maxArrayElems;
    if (kept <= max)
      return this.summaryOf(s.total, this.elements(s.first, 0, s.first.length, depth), this.elements(s.last, 0, s.last.length, depth));
    this.stats.arrays_collapsed++;
    // The kept elements, in order, are first ++ last; take the new head and tail from that.
    const at = (i: number) => (i < s.first.length ? s.first[i]! : s.last[i - s.first.length]!);
    const head = Math.ceil(max / 2);
    const tail = Math.floor(max / 2);
    const first: JsonValue[] = [];
    const last: JsonValue[] = [];
    for (let i = 0; i < head; i++) first.push(this.node(at(i), depth + 1, undefined));
    for (let i = kept - tail; i < kept; i++) last.push(this.node(at(i), depth + 1, undefined));
    return this.summaryOf(s.total, first, last);
  }

  private summaryOf(total: number, first: JsonValue[], last: JsonValue[]): JsonValue {
    return { _summary: 'array', total, dropped: total - first.length - last.length, first, last };
  }

  private elements(a: JsonValue[], from: number, to: number, depth: number): JsonValue[] {
    const out: JsonValue[] = [];
    for (let i = from; i < to; i++) out.push(this.node(a[i]!, depth + 1, undefined));
    return out;
  }

  private object(o: JsonObject, depth: number): JsonValue {
    const keys = Object.keys(o);
    if (depth >= this.limits.maxDepth) {
      this.stats.subtrees_dropped++;
      return `<truncated, subtree of ${keys.length} keys>`;
    }
    const out: JsonObject = {};
    for (const k of keys) setKey(out, k, this.node(o[k]!, depth + 1, k));
    return out;
  }
}

/**
 * One pruning pass. Returns a new value (the input is not modified) and counts of what it did.
 * - A string longer than maxStringChars keeps its first keepChars code units (never half a
 *   surrogate pair) followed by `…<truncated, N chars>`, N being the original length, which
 *   survives later cuts. A string already cut no longer than this level would cut it is left alone.
 * - Unless it sits directly under an identifier key (isIdentifierKey) and is at most 2,048
 *   chars: then it is kept whole, JSON or not.
 * - Or unless it is a JSON object or array (judged by its first and last non-whitespace
 *   characters) that parses: then the parsed value takes its place, at its depth, and is pruned.
 * - An array longer than maxArrayElems becomes {_summary: 'array', total, dropped, first, last}.
 *   An existing summary counts as the array it stands for: same depth, re-collapsed only when
 *   this level allows fewer elements than it kept.
 * - An object or array at depth ≥ maxDepth (root 0) becomes "<truncated, subtree of K keys>"
 *   or "<truncated, array of K items>".
 * - Numbers, booleans and null are kept, and so is key order.
 * Dropped elements and subtrees are never visited, and a nested JSON string is parsed only
 * where it is kept.
 */
export function pruneJson(value: JsonValue, limits: PruneLimits = LOOSEST): { value: JsonValue; stats: PruneStats } {
  const pruner = new Pruner(limits);
  return { value: pruner.node(value, 0, undefined), stats: pruner.stats };
}

/** UTF-8 bytes of JSON.stringify(s), quotes included. */
function stringBytes(s: string): number {
  let n = 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c >= 0x20) n += c === 0x22 || c === 0x5c ? 2 : 1;
      else n += c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6;
    } else if (c < 0x800) n += 2;
    else if (c < 0xd800 || c > 0xdfff) n += 3;
    else if (c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 6; // a lone surrogate, which JSON.stringify writes as \udXXX
  }
  return n;
}

/**
 * Byte size of JSON.stringify(value) in UTF-8, without building the string.
 *
 * - If that size is ≤ `atLeast` (default Infinity), the exact size is returned.
 * - If it is > `atLeast`, the walk may stop as soon as a lower bound passes `atLeast`, and
 *   the result is then some figure in (atLeast, exact size].
 *
 * So `jsonSize(v, t) > t` exactly when the serialisation is longer than t bytes, and that
 * check costs O(t) work, not O(size): a string counts as at least its length + 2 bytes
 * before it is scanned, and an array as at least one byte per element before it is walked.
 * Meant for plain JSON data; an `undefined` property is skipped and an `undefined` array
 * element counts as null, as JSON.stringify does.
 */
export function jsonSize(value: JsonValue, atLeast: number = Infinity): number {
  let n = 0;

  // Each returns true once n > atLeast, and every addition to n is at most the true
  // contribution, so n stays a lower bound whenever the walk stops early.
  const addString = (s: string): boolean => {
    if (n + s.length + 2 > atLeast) {
      n += s.length + 2;
      return true;
    }
    n += stringBytes(s);
    return n > atLeast;
  };

  const add = (v: JsonValue | undefined): boolean => {
    if (typeof v === 'string') return addString(v);
    if (typeof v === 'number') n += Number.isFinite(v) ? String(v).length : 4;
    else if (typeof v === 'boolean') n += v ? 4 : 5;
    else if (v === null || v === undefined) n += 4;
    else if (Array.isArray(v)) {
      n += v.length === 0 ? 2 : v.length + 1; // brackets and commas
      if (n + v.length > atLeast) {
        n += v.length;
        return true;
      }
      for (const e of v) if (add(e)) return true;
    } else {
      n += 2;
      let members = 0;
      for (const k of Object.keys(v)) {
        const e = v[k];
        if (e === undefined) continue;
        n += members++ === 0 ? 1 : 2; // the colon, and the comma before all but the first
        if (addString(k) || add(e)) return true;
      }
    }
    return n > atLeast;
  };

  add(value);
  return n;
}

/**
 * Prunes at PRUNE_LEVELS[0], then, while the result is over `budget` bytes, prunes that
 * result again at the next tighter level, up to the tightest. Returns the last result, its
 * exact serialised size in UTF-8 bytes (which may still exceed `budget` at the tightest
 * level, e.g. for an object with thousands of keys), the index of the level used, and the
 * stats summed over all passes.
 */
export function digestValue(value: JsonValue, budget: number): { value: JsonValue; bytes: number; level: number; stats: PruneStats } {
  const stats = emptyStats();
  let current = value;
  for (let level = 0; ; level++) {
    const pass = pruneJson(current, PRUNE_LEVELS[level]!);
    current = pass.value;
    for (const k of Object.keys(stats) as (keyof PruneStats)[]) stats[k] += pass.stats[k];
    const size = jsonSize(current, budget);
    if (size <= budget) return { value: current, bytes: size, level, stats };
    if (level === PRUNE_LEVELS.length - 1) return { value: current, bytes: jsonSize(current), level, stats };
  }
}
