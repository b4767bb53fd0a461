/**
 * Bounded error text. A model-visible error must never carry a huge input back
 * (a 10 MB path, a 5 MB jq error): messages quote a bounded prefix of what they
 * echo, and the dispatcher cuts every error to one ceiling on its way out.
 */

/** The most an error may put in front of the model — the figure MCP error texts were already cut to. */
export const ERROR_MAX_CHARS = 8_000;

/** How much of an argument a message quotes by default: enough to recognise it, never the whole of a large one. */
export const QUOTE_CHARS = 200;

/**
 * `s` as a JSON string literal, cut to `max` characters with the length said:
 * `"aaaa…" (10485760 characters)`. Short strings come back quoted and whole.
 */
export function quoteArg(s: string, max: number = QUOTE_CHARS): string {
  if (s.length <= max) return JSON.stringify(s);
  // Never cut between the halves of a surrogate pair: a lone half is not text.
  let end = max;
  if (isHighSurrogate(s.charCodeAt(end - 1))) end -= 1;
  return `${JSON.stringify(`${s.slice(0, end)}…`)} (${s.length} characters)`;
}

/**
 * An error cut to `maxChars` in the middle: the head says which call and what
 * was wrong, the tail is often the actual reason (the last line of a stack of
 * causes), and the marker says how much is gone.
 */
export function capErrorText(text: string, maxChars: number = ERROR_MAX_CHARS): string {
  if (text.length <= maxChars) return text;
  const marker = (cut: number) => ` …[${cut} of ${text.length} characters cut]… `;
  const room = Math.max(0, maxChars - marker(text.length).length);
  let head = Math.ceil(room * 0.6);
  let tail = room - head;
  if (isHighSurrogate(text.charCodeAt(head - 1))) head -= 1;
  if (tail > 0 && isLowSurrogate(text.charCodeAt(text.length - tail))) tail -= 1;
  return `${text.slice(0, head)}${marker(text.length - head - tail)}${tail > 0 ? text.slice(text.length - tail) : ''}`;
}

/** What a value is, in words, without echoing a large one: `null`, `an array`, `the number 5`, `a string of 12 characters`. */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array (${v.length} items)`;
  switch (typeof v) {
    case 'string':
      return v.length <= 40 ? `the string ${JSON.stringify(v)}` : `a string of ${v.length} characters`;
    case 'number':
      return Number.isFinite(v)
        ? `the number ${v}`
        : Number.isNaN(v)
          ? 'NaN (not a number)'
          : `${v} (a number too large for JSON, e.g. 1e999)`;
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      return 'an object';
    case 'undefined':
      return 'nothing';
    default:
      return `a ${typeof v}`;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
