import type { z } from 'zod/v4';
import { suggestion } from '../../config/did-you-mean.ts';
import { describeValue, quoteArg } from './error-text.ts';

type Schema = Record<string, unknown>;

/** What the formatter may consult besides the issues: the input as sent, and the tool's JSON Schema. */
export interface ArgContext {
  /** The arguments as received (aliases mapped), to say what a wrong value was — never echoed whole. */
  readonly input?: unknown;
  /** The tool's input schema as the model sees it, for a field's type, range and length. */
  readonly schema?: Schema;
}

/** Names longer than this get no "did you mean": a typo is short, and edit distance is quadratic. */
const SUGGEST_UP_TO = 64;
/** One problem's sentence at most; the dispatcher's error cap bounds the whole. */
const SENTENCE_CHARS = 600;
/** zod's z.int() bounds: the safe-integer range says nothing the model needs. */
const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Zod issues as one model-readable sentence per argument: which one, what it
 * must be (type, range, length — read from the schema the model was given), what
 * was sent instead (described, never echoed when large), and for an unknown
 * argument the likely intended one.
 */
export function formatArgIssues(issues: readonly z.core.$ZodIssue[], validArgs: readonly string[], ctx: ArgContext = {}): string {
  const seen = new Set<string>();
  const sentences: string[] = [];
  for (const issue of issues) {
    // One sentence per argument: a 10 MB string fails .max and a refinement, and one complaint is enough.
    const key = issue.path.map(String).join('\0');
    if (issue.code !== 'unrecognized_keys' && issue.path.length > 0) {
      if (seen.has(key)) continue;
      seen.add(key);
    }
    const s = sentence(issue, validArgs, ctx);
    sentences.push(s.length > SENTENCE_CHARS ? `${s.slice(0, SENTENCE_CHARS)}…` : s);
  }
  return sentences.join('; ');
}

function sentence(issue: z.core.$ZodIssue, validArgs: readonly string[], ctx: ArgContext): string {
  const where = issue.path.length > 0 ? fieldName(issue.path) : 'arguments';
  const field = schemaAt(ctx.schema, issue.path);
  const sent = valueAt(ctx.input, issue.path);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const valid = issue.path.length === 0 ? validArgs : Object.keys((field?.properties as Schema | undefined) ?? {});
      const prefix = issue.path.length === 0 ? 'unknown argument' : `unknown key in ${where}`;
      return issue.keys
        .map(
          (k) =>
            `${prefix} ${quoteArg(k, SUGGEST_UP_TO)}${k.length <= SUGGEST_UP_TO ? suggestion(k, valid) : ''} (valid: ${valid.join(', ')})`,
        )
        .join('; ');
    }
    case 'invalid_type': {
      const want = expectation(field, issue.expected);
      if (!sent.found) return `${where} is required: ${want}`;
      return `${where} must be ${want}, not ${describeValue(sent.value)}`;
    }
    case 'too_big':
    case 'too_small':
      return outOfBounds(issue, where, field, sent.value);
    case 'invalid_value':
      return `${where} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, not ${describeValue(sent.value)}`;
    case 'invalid_format':
      // A message of our own (`.regex(re, 'a call_id as a digest gives it')`) says what it must be; zod's says it was invalid.
      return /^Invalid\b/.test(issue.message)
        ? `${where} is not valid: ${issue.message}`
        : `${where} must be ${issue.message}, not ${describeValue(sent.value)}`;
    case 'invalid_key': {
      // The path ends in the key itself, which may be the huge part: quote a bounded prefix.
      const parent = issue.path.length > 1 ? fieldName(issue.path.slice(0, -1)) : 'arguments';
      const key = String(issue.path.at(-1) ?? '');
      const inner = issue.issues[0];
      const limit =
        inner?.code === 'too_big' ? `: keys may have at most ${String(inner.maximum)} characters, and it has ${key.length}` : '';
      return `${parent} has an invalid key ${quoteArg(key, SUGGEST_UP_TO)}${limit}`;
    }
    case 'custom':
      return issue.path.length > 0 ? `${where}: ${issue.message}` : issue.message;
    default:
      return `${where}: ${issue.message}`;
  }
}

function outOfBounds(
  issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall,
  where: string,
  field: Schema | undefined,
  value: unknown,
): string {
  const big = issue.code === 'too_big';
  switch (issue.origin) {
    case 'string': {
      const length = typeof value === 'string' ? value.length : undefined;
      if (!big && Number(issue.minimum) <= 1) return `${where} is empty; give ${expectation(field, 'string')}`;
      const limit = Number(big ? (issue as z.core.$ZodIssueTooBig).maximum : (issue as z.core.$ZodIssueTooSmall).minimum);
      return big
        ? `${where} is ${length ?? 'too many'} characters long, above its limit of ${limit}; send at most ${limit} characters`
        : `${where} is ${length ?? 'too few'} characters long, below its minimum of ${limit}`;
    }
    case 'array':
    case 'set': {
      const count = Array.isArray(value) ? value.length : undefined;
      const limit = Number(big ? (issue as z.core.$ZodIssueTooBig).maximum : (issue as z.core.$ZodIssueTooSmall).minimum);
      return big
        ? `${where} has ${count ?? 'too many'} items, more than the ${limit} allowed; send at most ${limit}`
        : `${where} needs at least ${limit} item${limit === 1 ? '' : 's'}`;
    }
    default: {
      const want = expectation(field, issue.origin === 'int' ? 'int' : 'number');
      return `${where} is ${describeValue(value)}, outside the allowed range; use ${want}${range(field) ? '' : ` ${issueRange(issue)}`}`;
    }
  }
}

/** What a field must be, in words: "a non-empty string of at most 4096 characters", "a number above 0 and at most 86400". */
function expectation(field: Schema | undefined, expected: string): string {
  if (field && Array.isArray(field.enum)) return `one of ${field.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  const type = typeof field?.type === 'string' ? field.type : expected;
  switch (type) {
    case 'string': {
      const min = typeof field?.minLength === 'number' && field.minLength > 0 ? 'a non-empty string' : 'a string';
      return typeof field?.maxLength === 'number' ? `${min} of at most ${field.maxLength} characters` : min;
    }
    case 'number':
    case 'integer':
    case 'int': {
      const noun = type === 'number' ? 'a finite number' : 'a whole number';
      const r = range(field);
      return r ? `${noun} ${r}` : noun;
    }
    case 'boolean':
      return 'true or false';
    case 'array':
      return typeof field?.maxItems === 'number' ? `an array of at most ${field.maxItems} items` : 'an array';
    case 'object':
    case 'record':
      return 'an object';
    default:
      return `a ${type}`;
  }
}

/** A number's allowed range from its schema: "from 1 to 500", "above 0 and at most 86400", "at least 1". */
function range(field: Schema | undefined): string | undefined {
  if (!field) return undefined;
  const num = (k: string) => (typeof field[k] === 'number' && Math.abs(field[k] as number) < SAFE ? (field[k] as number) : undefined);
  const [min, exMin, max, exMax] = [num('minimum'), num('exclusiveMinimum'), num('maximum'), num('exclusiveMaximum')];
  const low =
    exMin !== undefined ? `above ${exMin}` : min !== undefined ? (max !== undefined ? `from ${min}` : `at least ${min}`) : undefined;
  const high =
    exMax !== undefined ? `below ${exMax}` : max !== undefined ? (min !== undefined ? `to ${max}` : `at most ${max}`) : undefined;
  if (low && high) return exMin !== undefined || exMax !== undefined ? `${low} and ${high.replace(/^to /, 'at most ')}` : `${low} ${high}`;
  return low ?? high;
}

function issueRange(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall): string | undefined {
  if (issue.code === 'too_big') return `(at most ${String(issue.maximum)})`;
  return `(at least ${String(issue.minimum)})`;
}

/** `paths[3]`, `args.name`: the argument as the model would write it. */
function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) =>
      typeof p === 'number'
        ? `[${p}]`
        : `${i > 0 ? '.' : ''}${String(p).length > SUGGEST_UP_TO ? quoteArg(String(p), SUGGEST_UP_TO) : String(p)}`,
    )
    .join('');
}

function schemaAt(schema: Schema | undefined, path: readonly PropertyKey[]): Schema | undefined {
  let s: Schema | undefined = schema;
  for (const p of path) {
    if (!s) return undefined;
    const next: unknown =
      typeof p === 'number'
        ? s.items
        : ((s.properties as Schema | undefined)?.[String(p)] ??
          (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined));
    s = next && typeof next === 'object' ? (next as Schema) : undefined;
  }
  return s;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): { found: boolean; value: unknown } {
  let v: unknown = input;
  for (const p of path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, p)) return { found: false, value: undefined };
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return { found: v !== undefined, value: v };
}
