/**
 * What each provider documents it accepts as a tool's parameters, as validators — written
 * from the providers' documentation, not from src/model/tool-schemas.ts (test support, not
 * a test). Each returns the problems, as `path: what`; none is a pass.
 *
 * Gemini (Gemini API and Vertex AI, `functionDeclarations[].parametersJsonSchema`): the
 * API reference documents the JSON Schema it supports — "only the following properties
 * are supported: $id, $defs, $ref, $anchor, type, format, title, description, enum (for
 * strings and numbers), items, prefixItems, minItems, maxItems, minimum, maximum, anyOf,
 * oneOf (interpreted the same as anyOf), properties, additionalProperties, required. The
 * non-standard propertyOrdering property may also be set. Cyclic references are unrolled
 * to a limited degree and, as such, may only be used within non-required properties. If
 * $ref is set on a sub-schema, no other properties, except for those starting as a $, may
 * be set" (GenerationConfig.responseJsonSchema, as generated into @google/genai's types);
 * FunctionDeclaration.parametersJsonSchema: "The schema must describe an object where the
 * properties are the parameters to the function". A function's name: "Must start with a
 * letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots and dashes,
 * with a maximum length of 64" (the Vertex AI reference; the Gemini API's also allows colons).
 *
 * OpenAI (chat completions `tools[].function`): `parameters` "described as a JSON Schema
 * object"; the name "must be a-z, A-Z, 0-9, or contain underscores and dashes, with a
 * maximum length of 64". The API refuses a root that is not `type: "object"` or that has
 * `oneOf`, `anyOf`, `allOf`, `enum` or `not` at the top level.
 *
 * Anthropic (Messages `tools[]`): `name` matching `^[a-zA-Z0-9_-]{1,64}$`; `input_schema`
 * a JSON Schema (draft 2020-12) object with `type: "object"`; the API refuses `oneOf`,
 * `allOf` or `anyOf` at its top level. In 2020-12 a tuple is `prefixItems`: `items` is one
 * schema, never an array.
 */
type Json = Record<string, unknown>;

const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
const GEMINI_KEYS = new Set([
  '$id',
  '$defs',
  '$ref',
  '$anchor',
  'type',
  'format',
  'title',
  'description',
  'enum',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'anyOf',
  'oneOf',
  'properties',
  'additionalProperties',
  'required',
  'propertyOrdering',
]);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The sub-schemas of a schema, by where they sit. */
function children(s: Json): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const key of ['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas']) {
    if (isObject(s[key])) for (const [k, v] of Object.entries(s[key])) out.push([`${key}.${k}`, v]);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    if (Array.isArray(s[key])) (s[key] as unknown[]).forEach((v, i) => out.push([`${key}[${i}]`, v]));
  }
  if (Array.isArray(s.items)) (s.items as unknown[]).forEach((v, i) => out.push([`items[${i}]`, v]));
  for (const key of ['items', 'additionalProperties', 'propertyNames', 'not', 'if', 'then', 'else', 'contains', 'additionalItems']) {
    if (isObject(s[key])) out.push([key, s[key]]);
  }
  return out;
}

/** A JSON Schema's keywords have the types JSON Schema gives them (what any provider parses). */
function structureProblems(s: unknown, at: string): string[] {
  if (typeof s === 'boolean') return [];
  if (!isObject(s)) return [`${at}: a schema must be an object or a boolean`];
  const problems: string[] = [];
  const type = s.type;
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    if (types.length === 0 || !types.every((t) => typeof t === 'string' && JSON_TYPES.includes(t)))
      problems.push(`${at}.type: ${JSON.stringify(type)}`);
  }
  if (s.properties !== undefined && !isObject(s.properties)) problems.push(`${at}.properties: not an object`);
  if (s.required !== undefined && !(Array.isArray(s.required) && s.required.every((n) => typeof n === 'string')))
    problems.push(`${at}.required: not a list of names`);
  if (s.enum !== undefined && !(Array.isArray(s.enum) && s.enum.length > 0)) problems.push(`${at}.enum: not a non-empty list`);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    if (s[key] !== undefined && !(Array.isArray(s[key]) && (s[key] as unknown[]).length > 0))
      problems.push(`${at}.${key}: not a non-empty list`);
  }
  for (const key of ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties']) {
    if (s[key] !== undefined && !(Number.isInteger(s[key]) && (s[key] as number) >= 0)) problems.push(`${at}.${key}: not a count`);
  }
  if (s.description !== undefined && typeof s.description !== 'string') problems.push(`${at}.description: not text`);
  for (const [where, child] of children(s)) problems.push(...structureProblems(child, `${at}.${where}`));
  return problems;
}

/** Every local `$ref` points at something in the schema (a reference that resolves nowhere is not a schema). */
function refProblems(root: Json): string[] {
  const problems: string[] = [];
  const walk = (s: unknown, at: string) => {
    if (!isObject(s)) return;
    if (typeof s.$ref === 'string') {
      let target: unknown = root;
      for (const part of s.$ref.replace(/^#/, '').split('/').filter(Boolean)) target = isObject(target) ? target[part] : undefined;
      if (!s.$ref.startsWith('#') || target === undefined) problems.push(`${at}.$ref: ${s.$ref} resolves to nothing`);
    }
    for (const [where, child] of children(s)) walk(child, `${at}.${where}`);
  };
  walk(root, '(root)');
  return problems;
}

function rootObjectProblems(s: Json, refused: readonly string[]): string[] {
  const problems: string[] = [];
  if (s.type !== 'object') problems.push(`(root).type: ${JSON.stringify(s.type)}, not "object"`);
  for (const key of refused) if (key in s) problems.push(`(root): ${key} at the top level`);
  return problems;
}

export function openaiProblems(name: string, parameters: unknown): string[] {
  if (!isObject(parameters)) return ['(root): not an object'];
  const problems = [
    ...rootObjectProblems(parameters, ['oneOf', 'anyOf', 'allOf', 'enum', 'not']),
    ...structureProblems(parameters, '(root)'),
    ...refProblems(parameters),
  ];
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name)) problems.push(`name ${JSON.stringify(name)}`);
  return problems;
}

export function anthropicProblems(name: string, inputSchema: unknown): string[] {
  if (!isObject(inputSchema)) return ['(root): not an object'];
  const problems = [
    ...rootObjectProblems(inputSchema, ['oneOf', 'allOf', 'anyOf']),
    ...structureProblems(inputSchema, '(root)'),
    ...refProblems(inputSchema),
  ];
  const walk = (s: unknown, at: string) => {
    if (!isObject(s)) return;
    if (Array.isArray(s.items)) problems.push(`${at}.items: an array (draft 2020-12 spells a tuple prefixItems)`);
    for (const [where, child] of children(s)) walk(child, `${at}.${where}`);
  };
  walk(inputSchema, '(root)');
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name)) problems.push(`name ${JSON.stringify(name)}`);
  return problems;
}

export function geminiProblems(name: string, parameters: unknown): string[] {
  if (!isObject(parameters)) return ['(root): not an object'];
  const problems = [...rootObjectProblems(parameters, []), ...structureProblems(parameters, '(root)'), ...refProblems(parameters)];
  const walk = (s: unknown, at: string, requiredPath: boolean, refsAbove: string[]) => {
    if (!isObject(s)) return;
    for (const key of Object.keys(s)) if (!GEMINI_KEYS.has(key)) problems.push(`${at}: ${key} is not supported`);
    if (Array.isArray(s.enum) && !s.enum.every((v) => typeof v === 'string' || typeof v === 'number')) {
      problems.push(`${at}.enum: only strings and numbers`);
    }
    if (typeof s.$ref === 'string') {
      const others = Object.keys(s).filter((k) => !k.startsWith('$'));
      if (others.length > 0) problems.push(`${at}: $ref with ${others.join(', ')} beside it`);
      if (refsAbove.includes(s.$ref) && requiredPath) problems.push(`${at}: a cycle through required properties`);
    }
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    for (const [where, child] of children(s)) {
      const key = where.startsWith('properties.') ? where.slice('properties.'.length) : undefined;
      const refs = typeof s.$ref === 'string' ? [...refsAbove, s.$ref] : refsAbove;
      walk(child, `${at}.${where}`, requiredPath && (key === undefined || required.has(key)), refs);
    }
  };
  walk(parameters, '(root)', true, []);
  if (!/^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/.test(name)) problems.push(`name ${JSON.stringify(name)}`);
  return problems;
}
