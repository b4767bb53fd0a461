// The `run -o json` stream's version and size limits (docs/json-stream.md): plain values, apart
// from json-events.ts so that a run rendering text does not evaluate the stream's zod schema.

export const JSON_STREAM_SCHEMA_VERSION = 1;

/**
 * A tool result or tool arguments above this many characters of JSON are not
 * inlined: the line carries `{chars, preview}` instead. The dispatcher's caps
 * already bound what the model sees (128 KiB by default), so this only bites
 * when a recipe raises the caps or arguments are huge (a write_file of a big
 * file); it keeps one event a line a line-reading consumer can hold.
 */
export const INLINE_LIMIT_CHARS = 256_000;
/** How much of an elided value the preview keeps, and of unparseable arguments. */
export const PREVIEW_CHARS = 4_000;
