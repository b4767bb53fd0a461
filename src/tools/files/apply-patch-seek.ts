import { PatchParseError, quoteLine, type PatchChunk } from './apply-patch-parser.ts';

/**
 * Where a chunk's lines are in a file, and the file with every chunk applied.
 *
 * The seek order is Codex's: exact, then ignoring trailing whitespace, then
 * ignoring both ends, then with typographic punctuation folded to ASCII (a model
 * that "prettifies" a dash or a quote still finds the line). Each pass scans the
 * whole range before the next, looser one starts, so an exact match always wins
 * over a loose one earlier in the file.
 */

type Fold = (s: string) => string;

const PUNCTUATION: Record<string, string> = {};
for (const c of '\u2010\u2011\u2012\u2013\u2014\u2015\u2212') PUNCTUATION[c] = '-';
for (const c of '\u2018\u2019\u201a\u201b') PUNCTUATION[c] = "'";
for (const c of '\u201c\u201d\u201e\u201f') PUNCTUATION[c] = '"';
for (const c of '\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000') PUNCTUATION[c] = ' ';
const PUNCTUATION_RE = new RegExp(`[${Object.keys(PUNCTUATION).join('')}]`, 'g');

const FOLDS: readonly Fold[] = [
  (s) => s,
  (s) => s.trimEnd(),
  (s) => s.trim(),
  (s) => s.trim().replace(PUNCTUATION_RE, (c) => PUNCTUATION[c]!),
];

function matchesAt(lines: readonly string[], pattern: readonly string[], at: number, fold: Fold): boolean {
  for (let k = 0; k < pattern.length; k++) if (fold(lines[at + k]!) !== fold(pattern[k]!)) return false;
  return true;
}

/** The first index ≥ start where `pattern` occurs (at the very end when `eof`), or -1. */
export function seekSequence(lines: readonly string[], pattern: readonly string[], start: number, eof: boolean): number {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return -1;
  const lastStart = lines.length - pattern.length;
  const from = eof ? lastStart : start;
  for (const fold of FOLDS) {
    for (let at = from; at <= lastStart; at++) if (matchesAt(lines, pattern, at, fold)) return at;
  }
  return -1;
}

/**
 * Cagent's `@<line>@` hint: try the hinted index, then the ten after it, the ten
 * before it, then the rest after — any fold — before a plain search from `start`.
 */
export function seekNear(lines: readonly string[], pattern: readonly string[], start: number, hintIndex: number): number {
  if (pattern.length === 0 || pattern.length > lines.length) return seekSequence(lines, pattern, start, false);
  const lastStart = lines.length - pattern.length;
  const candidates: number[] = [hintIndex];
  for (let d = 1; d <= 10; d++) candidates.push(hintIndex + d);
  for (let d = 1; d <= 10; d++) candidates.push(hintIndex - d);
  for (let at = hintIndex + 11; at <= lastStart; at++) candidates.push(at);
  for (const at of candidates) {
    if (at >= start && at <= lastStart && FOLDS.some((fold) => matchesAt(lines, pattern, at, fold))) return at;
  }
  return seekSequence(lines, pattern, start, false);
}

/** One replacement in the old file's line coordinates. */
export interface Replacement {
  start: number;
  oldCount: number;
  newLines: string[];
}

/** An applied chunk that could not be placed: the patch line, and what was expected. */
function notFound(chunk: PatchChunk, shown: string, what: string): PatchParseError {
  return new PatchParseError(chunk.line, `in ${shown}, ${what}`);
}

function preview(lines: readonly string[]): string {
  const head = lines.slice(0, 5).map((l) => `  ${quoteLine(l)}`);
  return head.join('\n') + (lines.length > 5 ? `\n  … ${lines.length - 5} more` : '');
}

/**
 * Locate every chunk in order (each search starts after the previous chunk), so
 * the whole update is known before any line changes. Returns the replacements.
 */
export function locateChunks(lines: readonly string[], chunks: readonly PatchChunk[], shown: string): Replacement[] {
  const out: Replacement[] = [];
  let cursor = 0;
  for (const chunk of chunks) {
    if (chunk.context !== undefined) {
      const at =
        chunk.lineHint !== undefined
          ? seekNear(lines, [chunk.context], cursor, chunk.lineHint - 1)
          : seekSequence(lines, [chunk.context], cursor, false);
      if (at === -1) {
        throw notFound(
          chunk,
          shown,
          `expected the context line ${quoteLine(chunk.context)} at or after line ${cursor + 1}; it is not there`,
        );
      }
      cursor = at + 1;
    }
    if (chunk.oldLines.length === 0) {
      // Nothing to replace: the new lines go at the end of the file (Codex's rule for a pure addition).
      out.push({ start: lines.length, oldCount: 0, newLines: chunk.newLines });
      continue;
    }
    let pattern = chunk.oldLines;
    let replacement = chunk.newLines;
    let at = seekSequence(lines, pattern, cursor, chunk.endOfFile);
    if (at === -1 && pattern.at(-1) === '') {
      // A blank line the model left before the next header is not part of the file.
      pattern = pattern.slice(0, -1);
      if (replacement.at(-1) === '') replacement = replacement.slice(0, -1);
      at = seekSequence(lines, pattern, cursor, chunk.endOfFile);
    }
    if (at === -1) {
      const where = chunk.endOfFile ? 'at the end of the file' : `at or after line ${cursor + 1}`;
      throw notFound(chunk, shown, `expected these lines ${where}, and they are not there:\n${preview(chunk.oldLines)}`);
    }
    out.push({ start: at, oldCount: pattern.length, newLines: replacement });
    cursor = at + pattern.length;
  }
  return out;
}

/** The old lines with the replacements applied (they are in order and do not overlap). */
export function applyReplacements(lines: readonly string[], replacements: readonly Replacement[]): string[] {
  const out: string[] = [];
  let from = 0;
  for (const r of [...replacements].sort((a, b) => a.start - b.start)) {
    for (let k = from; k < r.start; k++) out.push(lines[k]!);
    for (const l of r.newLines) out.push(l); // no spread: a chunk may hold more lines than the call stack allows
    from = Math.max(from, r.start + r.oldCount);
  }
  for (let k = from; k < lines.length; k++) out.push(lines[k]!);
  return out;
}
