/** The closest candidate to `word`, if it is close enough to be a likely typo. */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = word.toLowerCase();
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  const limit = Math.max(2, Math.floor(word.length / 3));
  if (bestDistance <= limit) return best;
  // "file_path" for "path", "max_byte_count" for "max_bytes": one name inside the other.
  return candidates.find((c) => c.length >= 3 && (lower.includes(c.toLowerCase()) || c.toLowerCase().includes(lower)));
}

/** Levenshtein distance, counting an adjacent transposition as one edit. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** ` — did you mean "x"?` or the empty string. */
export function suggestion(word: string, candidates: readonly string[]): string {
  const s = didYouMean(word, candidates);
  return s === undefined ? '' : ` — did you mean "${s}"?`;
}

/** `unknown tool "gerp" — did you mean "grep"? Valid: a, b` (or `… "x". Valid: …` with no close match). */
export function unknownName(kind: string, name: string, valid: readonly string[]): string {
  return `unknown ${kind} "${name}"${suggestion(name, valid) || '.'} Valid: ${valid.join(', ')}`;
}
