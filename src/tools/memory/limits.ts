/**
 * The bounds of one principal's memory (golem has none). Memory is notes the model keeps about
 * a user and reads back into every session: a few small Markdown files, not a file store. The
 * bounds keep one user (or a model in a loop) from filling the state directory, and keep
 * MEMORY.md, which is injected into the system prompt, readable. docs/golem.md#memory lists them.
 */
export const MEMORY_LIMITS = {
  /** One memory file, in UTF-8 bytes. */
  fileBytes: 64 * 1024,
  /** Every memory file of one home together, in bytes. */
  totalBytes: 1024 * 1024,
  /** Memory files in one home (folders not counted). */
  files: 256,
  /** Path segments of a memory file, the file included (`a/b/c.md` is 3). */
  depth: 8,
  /** A memory path, in characters. */
  pathChars: 255,
} as const;

/** The memory index: injected into the system prompt at session start, cut at whichever comes first. */
export const MEMORY_INDEX_LIMITS = {
  lines: 200,
  bytes: 8 * 1024,
} as const;

/** The file MemoryView reads by default, and the index the system prompt carries. */
export const MEMORY_INDEX_FILE = 'MEMORY.md';
