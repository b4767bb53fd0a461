// Elicitation requests core-agent must not show as a form, one line each, for
// elicitation.test.ts: what the server sends, and the reason of the decline it then
// sees (result._meta["core-agent/reason"]), one short sentence. Never the operator's asker.

export interface BadElicitCase {
  name: string;
  /** The tool's arguments: message, schema (requestedSchema), or mode: 'url'. */
  args: Record<string, unknown>;
  reason: RegExp;
}

const field = (extra: Record<string, unknown>) => ({ type: 'object', properties: { f: { type: 'string', ...extra } } });
const many = (n: number, make: (i: number) => unknown) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, make(i)]));
const options = (n: number, len = 4) => Array.from({ length: n }, (_, i) => `${i}`.padStart(len, 'o'));

// prettier-ignore
export const CASES: BadElicitCase[] = [
  { name: 'no requestedSchema', args: { schema: 'none' }, reason: /requestedSchema must be \{"type": "object"/ },
  { name: 'a mode MCP does not define', args: { mode: 'telepathy' }, reason: /form-mode elicitations only/ },
  { name: 'a nested object field', args: { schema: { type: 'object', properties: { f: { type: 'object', properties: {} } } } }, reason: /field "f": type "object" is not a form field/ },
  { name: 'a list of objects', args: { schema: { type: 'object', properties: { f: { type: 'array', items: { type: 'object' } } } } }, reason: /field "f": a list field needs "items" with its options/ },
  { name: 'a string format MCP does not define', args: { schema: field({ format: 'color' }) }, reason: /format "color" is not one MCP defines/ },
  { name: 'URL mode', args: { mode: 'url' }, reason: /does not open URL-mode/ },
  { name: 'a 5,000-character message', args: { message: 'm'.repeat(5_000) }, reason: /message is 5000 characters, above the 4000/ },
  { name: '30 fields', args: { schema: { type: 'object', properties: many(30, () => ({ type: 'boolean' })) } }, reason: /30 fields, above the 24/ },
  { name: '150 options', args: { schema: field({ enum: options(150) }) }, reason: /150 options, above the 100/ },
  { name: 'a 600-character title', args: { schema: field({ title: 't'.repeat(600) }) }, reason: /title is 600 characters, above 500/ },
  { name: 'an option of 600 characters', args: { schema: field({ enum: ['x'.repeat(600)] }) }, reason: /option is longer than 500/ },
  { name: 'a 40 KB schema', args: { schema: { type: 'object', properties: many(20, () => ({ type: 'string', enum: options(90, 20) })) } }, reason: /requestedSchema is \d+ bytes, above the 32768/ },
  { name: 'required names a missing field', args: { schema: { ...field({}), required: ['g'] } }, reason: /required names "g", which is not a field/ },
  { name: 'a field name with an escape sequence', args: { schema: { type: 'object', properties: { 'a\u001b[2Jb': { type: 'string' } } } }, reason: /field "a\\u\{1b\}\[2Jb": a field name must be/ },
  { name: 'a choice default that is not an option', args: { schema: field({ enum: ['a', 'b'], default: 'c' }) }, reason: /default is not one of its options/ },
  { name: 'a multi-select default outside its options', args: { schema: { type: 'object', properties: { f: { type: 'array', items: { type: 'string', enum: ['a'] }, default: ['z'] } } } }, reason: /default is not a list of its options/ },
  { name: 'an integer default of 1.5', args: { schema: { type: 'object', properties: { f: { type: 'integer', default: 1.5 } } } }, reason: /default is not a whole number/ },
  { name: 'a number default below its minimum', args: { schema: { type: 'object', properties: { f: { type: 'number', minimum: 10, default: 3 } } } }, reason: /default is below 10/ },
  { name: 'a string default over its maxLength', args: { schema: field({ maxLength: 2, default: 'long' }) }, reason: /default is longer than 2 characters/ },
  { name: 'an email default that is not one', args: { schema: field({ format: 'email', default: 'nobody' }) }, reason: /default is not an email address/ },
  { name: 'a list field without options', args: { schema: { type: 'object', properties: { f: { type: 'array', items: { type: 'string', enum: [] } } } } }, reason: /offers no options/ },
];
