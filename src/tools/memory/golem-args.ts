import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import { MEMORY_LIMITS } from './limits.ts';

// golem's Memory* tools' arguments, exactly as golem names them: its faces check calls against
// these, and the engines (memory_view, …) take the same shape, so a face maps nothing.

const file = z.string().max(LIMITS.path).describe('A memory file, relative to the memories folder (MEMORY.md, people/alice.md).');
// Bounded by the validation a little above the store's limit, so the store's own error (naming the limit) is what an oversized note meets.
const content = z.string().max(MEMORY_LIMITS.fileBytes + 1024);

export const MEMORY_VIEW_ARGS = z.strictObject({
  file: file.optional().describe('The memory file to read, relative to the memories folder. Default: MEMORY.md, the index.'),
});

export const MEMORY_WRITE_ARGS = z.strictObject({
  file: file.optional().describe('The memory file to write, relative to the memories folder. Default: MEMORY.md, the index.'),
  content: content.describe('The whole new content of the file.'),
});

export const MEMORY_CREATE_ARGS = z.strictObject({
  file,
  content: content.describe('The content of the new file.'),
});

export const MEMORY_INSERT_ARGS = z.strictObject({
  file,
  content: content.describe('The text to insert.'),
  position: z
    .int()
    .min(-1)
    .max(Number.MAX_SAFE_INTEGER)
    .describe('Zero-based character offset to insert at; -1, or any offset past the end, appends.'),
});

export const MEMORY_STR_REPLACE_ARGS = z.strictObject({
  file,
  old: content.describe('The literal text to replace; it must occur exactly once unless all is true.'),
  new: content.describe('The text to put in its place.'),
  all: z.boolean().optional().describe('Replace every occurrence (default: exactly one must exist).'),
});

export const MEMORY_RENAME_ARGS = z.strictObject({
  from: file.describe('The memory file to move.'),
  to: file.describe('Its new path; an existing file there is never overwritten.'),
});

export const MEMORY_DELETE_ARGS = z.strictObject({
  file: file.describe('The memory file to delete (never a folder).'),
});
