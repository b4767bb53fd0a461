/** Reading a tool's input JSON Schema the way the matrices need it (test support, not a test). */

export type Schema = Record<string, unknown> & {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  propertyNames?: Schema;
  enum?: unknown[];
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
};

/** Every place a string can go, with where it is (`paths[]`, `args{key}`): properties, items, record values and keys. */
export function stringPlaces(s: Schema, at = ''): Array<{ at: string; schema: Schema }> {
  const out: Array<{ at: string; schema: Schema }> = [];
  if (s.type === 'string') out.push({ at, schema: s });
  for (const [k, v] of Object.entries(s.properties ?? {})) out.push(...stringPlaces(v, at ? `${at}.${k}` : k));
  if (s.items && typeof s.items === 'object') out.push(...stringPlaces(s.items, `${at}[]`));
  if (s.additionalProperties && typeof s.additionalProperties === 'object') out.push(...stringPlaces(s.additionalProperties, `${at}{}`));
  if (s.propertyNames) out.push(...stringPlaces(s.propertyNames, `${at}{key}`));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const [i, v] of ((s[key] as Schema[] | undefined) ?? []).entries()) out.push(...stringPlaces(v, `${at}|${i}`));
  }
  return out;
}

/** A value the schema accepts, as small as possible. */
export function sampleValue(s: Schema): unknown {
  if (Array.isArray(s.enum)) return s.enum[0];
  switch (s.type) {
    case 'string':
      return 'a';
    case 'number':
    case 'integer':
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    case 'array':
      return [s.items ? sampleValue(s.items) : 'a'];
    default:
      return {};
  }
}

/** Arguments with every required field filled in with a sample value. */
export function minimalArgs(schema: Schema): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const name of schema.required ?? []) args[name] = sampleValue(schema.properties![name]!);
  return args;
}
