import type { LanguageModelV4FunctionTool } from '@ai-sdk/provider';
import type { CallOptions, ChatModel } from './model.ts';

/**
 * Each provider is sent the tools' JSON Schemas in the subset it documents; the
 * dispatcher still validates every call against the tool's full schema (zod, or the
 * MCP server's own), so a constraint dropped here is still enforced — and where it
 * matters to the model, it is said in the description instead ("at most 4096
 * characters").
 *
 *   gemini     Gemini API and Vertex `parametersJsonSchema`, which @ai-sdk/google sends as
 *              it is given. Google documents the keywords it supports: $id, $defs, $ref,
 *              $anchor, type, format, title, description, enum (strings and numbers),
 *              items, prefixItems, minItems, maxItems, minimum, maximum, anyOf, oneOf (read
 *              as anyOf), properties, additionalProperties, required, and propertyOrdering;
 *              a $ref sub-schema may have no other keys, and a cycle may only go through
 *              properties that are not required. Everything else is rewritten or dropped:
 *              $ref inlined (cycles cut), allOf merged, oneOf as anyOf, const and nullable
 *              as enum and anyOf, an integer's exclusive bound as an inclusive one, lengths,
 *              patterns and the like into the description.
 *   openai     chat completions `parameters` (strict mode is not used): JSON Schema, whose
 *              root the API requires to be `type: "object"` without a top-level anyOf,
 *              oneOf, allOf, enum or not.
 *   anthropic  `input_schema`: JSON Schema 2020-12 with `type: "object"` at the root and no
 *              top-level oneOf, allOf or anyOf; a draft-7 tuple (`items: [...]`) becomes
 *              `prefixItems`.
 *
 * For all three: `$schema` goes (it names draft-07, which none of them reads), and an enum
 * of more than MAX_ENUM values is not sent whole (our bound on a request's size, not a
 * provider's rule): the description says how many values there are, and a few of them.
 */
export type SchemaDialect = 'gemini' | 'openai' | 'anthropic';

export const MAX_ENUM = 256;
/** Nodes one tool's schema may expand to when references are inlined, and how deep. */
const MAX_NODES = 2000;
const MAX_DEPTH = 16;

type Json = Record<string, unknown>;

/** The tools as `dialect` documents them; each schema is transformed once per dialect. */
export function toolsFor(dialect: SchemaDialect, tools: readonly LanguageModelV4FunctionTool[]): LanguageModelV4FunctionTool[] {
  return tools.map((t) => ({ ...t, inputSchema: schemaFor(dialect, t.inputSchema as Json) as LanguageModelV4FunctionTool['inputSchema'] }));
}

/** The dialect each provider reads. */
export const DIALECT: Record<string, SchemaDialect> = {
  google: 'gemini',
  vertex: 'gemini',
  openai: 'openai',
  'openai-compatible': 'openai',
  anthropic: 'anthropic',
};

/** A provider model sent its tools' schemas in its dialect. */
export class SchemaSubsetModel implements ChatModel {
  readonly specificationVersion = 'v4';
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls: ChatModel['supportedUrls'];

  constructor(
    private readonly inner: ChatModel,
    private readonly dialect: SchemaDialect,
  ) {
    this.provider = inner.provider;
    this.modelId = inner.modelId;
    this.supportedUrls = inner.supportedUrls;
  }

  doGenerate(options: CallOptions) {
    return this.inner.doGenerate(this.translated(options));
  }

  doStream(options: CallOptions) {
    return this.inner.doStream(this.translated(options));
  }

  private translated(options: CallOptions): CallOptions {
    if (!options.tools?.length) return options;
    const tools = options.tools.map((t) => (t.type === 'function' ? toolsFor(this.dialect, [t])[0]! : t));
    return { ...options, tools };
  }
}

const cache: Record<SchemaDialect, WeakMap<object, Json>> = { gemini: new WeakMap(), openai: new WeakMap(), anthropic: new WeakMap() };

export function schemaFor(dialect: SchemaDialect, schema: Json): Json {
  const hit = cache[dialect].get(schema);
  if (hit) return hit;
  const out = rootObject(new Transform(dialect, schema).node(schema, 0, []));
  cache[dialect].set(schema, out);
  return out;
}

/**
 * Every provider wants an object at the root. A root that is a union of objects (an
 * MCP server may send one) becomes one object with every branch's properties and only
 * the properties all branches require.
 */
function rootObject(s: Json): Json {
  const branches = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (Array.isArray(branches) && branches.every((b) => b.type === 'object' || b.properties)) {
    const { anyOf: _a, oneOf: _o, ...rest } = s;
    const properties: Json = {};
    for (const b of branches) Object.assign(properties, b.properties ?? {});
    const required = branches
      .map((b) => (Array.isArray(b.required) ? (b.required as string[]) : []))
      .reduce((a, b) => a.filter((n) => b.includes(n)));
    const note = `one of ${branches.length} forms; see each property`;
    return {
      ...rest,
      type: 'object',
      properties,
      ...(required.length > 0 ? { required } : {}),
      description: withNote(rest.description, [note]),
    };
  }
  const refused = ['allOf', 'anyOf', 'oneOf', 'enum', 'not'];
  if (s.type === 'object' && !refused.some((k) => k in s)) return s;
  const plain = Object.fromEntries(Object.entries(s).filter(([k]) => !refused.includes(k)));
  return { ...plain, type: 'object', properties: (plain.properties as Json | undefined) ?? {} };
}

class Transform {
  private nodes = 0;

  constructor(
    private readonly dialect: SchemaDialect,
    private readonly root: Json,
  ) {}

  /** One sub-schema; `refs` the references being inlined above it (a repeat is a cycle). */
  node(input: unknown, depth: number, refs: string[]): Json {
    if (input === true || input === undefined) return {};
    if (input === false || typeof input !== 'object' || input === null || Array.isArray(input))
      return { description: 'no value is accepted' };
    this.nodes += 1;
    const s = input as Json;
    if (this.dialect !== 'gemini') return this.light(s, depth, refs);
    if (depth > MAX_DEPTH || this.nodes > MAX_NODES)
      return { description: 'nested too deep to describe here; any value is checked when the call is made' };
    if (typeof s.$ref === 'string') return this.inlined(s, depth, refs);
    return this.gemini(s, depth, refs);
  }

  /** OpenAI and Anthropic read JSON Schema: only what they refuse changes. */
  private light(s: Json, depth: number, refs: string[]): Json {
    if (typeof s.$ref === 'string' && resolvePointer(this.root, s.$ref) === undefined) {
      // A reference to nothing is not a schema: the provider would refuse the whole request.
      return { description: withNote(s.description, ['its schema could not be resolved']) };
    }
    const out: Json = {};
    for (const [k, v] of Object.entries(s)) {
      if (k === '$schema') continue;
      if (k === 'enum' && Array.isArray(v) && v.length > MAX_ENUM) continue;
      if (SUB_MAPS.has(k) && isObject(v)) out[k] = mapValues(v, (x) => this.node(x, depth + 1, refs));
      else if (SUB_LISTS.has(k) && Array.isArray(v)) out[k] = v.map((x) => this.node(x, depth + 1, refs));
      else if (SUB_ONE.has(k) && isObject(v)) out[k] = this.node(v, depth + 1, refs);
      else if (k === 'items' && Array.isArray(v)) {
        // A draft-7 tuple; 2020-12 (Anthropic) spells it prefixItems, and so may anyone.
        out.prefixItems = v.map((x) => this.node(x, depth + 1, refs));
      } else if (k === 'additionalItems') {
        if (isObject(v) || typeof v === 'boolean') out.items = isObject(v) ? this.node(v, depth + 1, refs) : v;
      } else out[k] = v;
    }
    if (Array.isArray(s.enum) && s.enum.length > MAX_ENUM) out.description = withNote(s.description, [enumNote(s.enum)]);
    return out;
  }

  private inlined(s: Json, depth: number, refs: string[]): Json {
    const ref = s.$ref as string;
    const { $ref: _ref, ...siblings } = s;
    if (refs.includes(ref)) {
      // A cycle: Gemini unrolls one only through properties that are not required; cut it here.
      return this.gemini(
        { ...siblings, description: withNote(siblings.description, [`the same shape as its enclosing ${refName(ref)}`]) },
        depth,
        refs,
      );
    }
    const target = resolvePointer(this.root, ref);
    if (!isObject(target))
      return this.gemini({ ...siblings, description: withNote(siblings.description, ['its schema could not be resolved']) }, depth, refs);
    // The reference's own keys (a description, mostly) over the target's, transformed as one schema.
    return this.node({ ...target, ...siblings }, depth + 1, [...refs, ref]);
  }

  private gemini(s: Json, depth: number, refs: string[]): Json {
    const notes: string[] = [];
    const out: Json = {};
    const types = Array.isArray(s.type) ? (s.type as unknown[]).filter((t): t is string => typeof t === 'string') : undefined;
    if (types && types.length !== 1) return this.typeUnion(s, types, depth, refs);
    const type = types ? types[0] : typeof s.type === 'string' ? s.type : undefined;
    if (type && JSON_TYPES.has(type)) out.type = type;
    if (typeof s.title === 'string') out.title = s.title;
    if (typeof s.format === 'string') out.format = s.format;

    // Properties, items, unions.
    if (isObject(s.properties)) {
      out.properties = mapValues(s.properties, (x) => this.node(x, depth + 1, refs));
      if (!out.type) out.type = 'object';
    }
    if (Array.isArray(s.required)) {
      const names = Object.keys((out.properties as Json | undefined) ?? {});
      const required = (s.required as unknown[]).filter((n): n is string => typeof n === 'string' && names.includes(n));
      if (required.length > 0) out.required = required;
    }
    if (Array.isArray(s.propertyOrdering)) out.propertyOrdering = s.propertyOrdering;
    if (isObject(s.additionalProperties)) out.additionalProperties = this.node(s.additionalProperties, depth + 1, refs);
    else if (typeof s.additionalProperties === 'boolean') out.additionalProperties = s.additionalProperties;
    if (isObject(s.patternProperties) && out.additionalProperties === undefined) {
      const [pattern, value] = Object.entries(s.patternProperties)[0]!;
      out.additionalProperties = this.node(value, depth + 1, refs);
      notes.push(`keys matching ${quoted(pattern)}`);
    }
    if (isObject(s.propertyNames)) notes.push(...keyNotes(s.propertyNames));
    if (Array.isArray(s.items)) out.prefixItems = (s.items as unknown[]).map((x) => this.node(x, depth + 1, refs));
    else if (isObject(s.items)) out.items = this.node(s.items, depth + 1, refs);
    if (Array.isArray(s.prefixItems)) out.prefixItems = (s.prefixItems as unknown[]).map((x) => this.node(x, depth + 1, refs));
    if (isObject(s.additionalItems) && out.items === undefined) out.items = this.node(s.additionalItems, depth + 1, refs);
    const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
    if (Array.isArray(union)) out.anyOf = union.map((x) => this.node(x, depth + 1, refs));
    if (Array.isArray(s.allOf))
      Object.assign(
        out,
        mergeAll(
          (s.allOf as unknown[]).map((x) => this.node(x, depth + 1, refs)),
          out,
        ),
      );

    // Values.
    const values = Array.isArray(s.enum) ? (s.enum as unknown[]) : s.const !== undefined ? [s.const] : undefined;
    if (values) {
      const scalar = values.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)));
      if (values.length > MAX_ENUM) notes.push(enumNote(values));
      else if (scalar) out.enum = values;
      else notes.push(`one of ${values.map((v) => JSON.stringify(v)).join(', ')}`.slice(0, 300));
    }

    // Bounds Gemini keeps, and the ones it does not (said instead).
    const integer = out.type === 'integer';
    for (const [key, inclusive, strict] of [
      ['minimum', 'exclusiveMinimum', 'greater than'],
      ['maximum', 'exclusiveMaximum', 'less than'],
    ] as const) {
      if (typeof s[key] === 'number') out[key] = s[key];
      const ex = s[inclusive];
      const bound = typeof ex === 'number' ? ex : ex === true && typeof s[key] === 'number' ? (s[key] as number) : undefined;
      if (bound === undefined) continue;
      if (ex === true) delete out[key];
      // For an integer, "greater than 0" is exactly "at least 1": the bound stays in the schema.
      if (integer && Number.isInteger(bound)) out[key] = key === 'minimum' ? bound + 1 : bound - 1;
      else notes.push(`${strict} ${bound}`);
    }
    if (typeof s.minItems === 'number') out.minItems = s.minItems;
    if (typeof s.maxItems === 'number') out.maxItems = s.maxItems;
    if (typeof s.minLength === 'number' && s.minLength > 0)
      notes.push(s.minLength === 1 ? 'not empty' : `at least ${s.minLength} characters`);
    if (typeof s.maxLength === 'number') notes.push(`at most ${s.maxLength} characters`);
    if (typeof s.pattern === 'string') notes.push(`matching ${quoted(s.pattern)}`);
    if (typeof s.multipleOf === 'number') notes.push(`a multiple of ${s.multipleOf}`);
    if (s.uniqueItems === true) notes.push('no duplicates');
    if (typeof s.minProperties === 'number' && s.minProperties > 0) notes.push(`at least ${s.minProperties} entries`);
    if (typeof s.maxProperties === 'number') notes.push(`at most ${s.maxProperties} entries`);
    if (isScalar(s.default)) notes.push(`default ${JSON.stringify(s.default)}`);
    if (s.nullable === true) return this.withNull(out, s, notes);
    const description = withNote(joinText(s.description, out.description) || undefined, notes);
    if (description) out.description = description;
    return out;
  }

  /** `type: ["string", "null"]`: one branch a type, each with the keywords that are about it. */
  private typeUnion(s: Json, types: string[], depth: number, refs: string[]): Json {
    const { type: _type, description, title, ...rest } = s;
    if (types.length === 0) return this.gemini(rest, depth, refs);
    const branches = types.map((t) => this.gemini(t === 'null' ? { type: 'null' } : { ...rest, type: t }, depth, refs));
    return {
      anyOf: branches,
      ...(typeof title === 'string' ? { title } : {}),
      ...(typeof description === 'string' ? { description } : {}),
    };
  }

  /** OpenAPI's `nullable: true`, which some MCP servers send: the value, or null. */
  private withNull(out: Json, s: Json, notes: string[]): Json {
    const description = withNote(typeof s.description === 'string' ? s.description : undefined, notes);
    const { description: _d, ...value } = out;
    return { anyOf: [value, { type: 'null' }], ...(description ? { description } : {}) };
  }
}

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const SUB_MAPS = new Set(['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas']);
const SUB_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SUB_ONE = new Set(['items', 'additionalProperties', 'propertyNames', 'not', 'if', 'then', 'else', 'contains']);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
const mapValues = (o: Json, f: (v: unknown) => Json): Json => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));
const quoted = (pattern: string) => (pattern.length > 120 ? `the pattern /${pattern.slice(0, 117)}…/` : `/${pattern}/`);
const refName = (ref: string) => (ref === '#' ? 'schema' : ref.split('/').at(-1) || 'schema');

function enumNote(values: readonly unknown[]): string {
  const some = values.slice(0, 5).map((v) => JSON.stringify(v)?.slice(0, 40));
  return `one of ${values.length} values, e.g. ${some.join(', ')}; a value not among them is refused when the call is made`;
}

/** What propertyNames says of a record's keys, in words. */
function keyNotes(names: Json): string[] {
  const notes: string[] = [];
  if (typeof names.maxLength === 'number') notes.push(`keys of at most ${names.maxLength} characters`);
  if (typeof names.pattern === 'string') notes.push(`keys matching ${quoted(names.pattern)}`);
  if (Array.isArray(names.enum))
    notes.push(
      `keys among ${names.enum
        .slice(0, 20)
        .map((v) => JSON.stringify(v))
        .join(', ')}`,
    );
  return notes;
}

/** `description (note; note)`, or the notes alone; undefined when there is neither. */
function withNote(description: unknown, notes: readonly string[]): string | undefined {
  const text = typeof description === 'string' && description.trim() !== '' ? description.trim() : undefined;
  if (notes.length === 0) return text;
  const said = notes.join('; ');
  return text ? `${text} (${said})` : `${said.charAt(0).toUpperCase()}${said.slice(1)}.`;
}

function joinText(a: unknown, b: unknown): string {
  return [a, b].filter((x): x is string => typeof x === 'string' && x !== '').join(' ');
}

/** allOf's branches folded into one schema: properties and requirements added up, the first word on anything else. */
function mergeAll(branches: readonly Json[], into: Json): Json {
  const out: Json = {};
  for (const b of branches) {
    for (const [k, v] of Object.entries(b)) {
      if (k === 'properties' && isObject(v))
        out.properties = { ...((into.properties as Json) ?? {}), ...((out.properties as Json) ?? {}), ...v };
      else if (k === 'required' && Array.isArray(v))
        out.required = [...new Set([...((into.required as string[]) ?? []), ...((out.required as string[]) ?? []), ...(v as string[])])];
      else if (k === 'description') out.description = joinText(into.description ?? out.description, v);
      else if (!(k in into) && !(k in out)) out[k] = v;
    }
  }
  return out;
}

/** A local JSON pointer (`#/$defs/node`, `#/definitions/x`, `#`) in the root schema. */
function resolvePointer(root: Json, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
}
