/** What MemoryView answers for a file that does not exist yet (golem's words). */
export const NO_MEMORY = '(no memory yet)';

/** `content` inserted at a zero-based offset in characters (code points, as golem's runes); past the end or negative appends. */
export function insertAt(text: string, content: string, position: number): string {
  const chars = Array.from(text);
  const at = position < 0 || position > chars.length ? chars.length : position;
  return chars.slice(0, at).join('') + content + chars.slice(at).join('');
}

/** Non-overlapping occurrences of a non-empty literal. */
export function occurrences(text: string, literal: string): number {
  return text.split(literal).length - 1;
}
