/**
 * An MCP server's elicitation form (`elicitation/create`, form mode) as core-agent
 * shows it: a flat list of typed fields, bounded and made safe for a terminal,
 * with the server's defaults (SEP-1034). Pure — no SDK — so an asker (stdin, the
 * REPL) can render it without loading the MCP chunk.
 */

import type { ElicitAnswer, ElicitForm, FormField, FormValue, Option } from '../tools/framework/form.ts';

export type { ElicitAnswer, ElicitForm, FormField, FormValue, Option };

/** What a form may hold: a person reads it, and a server must not flood a terminal. */
export const FORM_LIMITS = { messageChars: 4_000, fields: 24, options: 100, textChars: 500, nameChars: 64, schemaBytes: 32 * 1024 };

const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

/**
 * The server's text with every control character (ANSI escapes, carriage returns,
 * bidirectional overrides) shown as `\u{..}`, so it cannot move the cursor, recolour
 * the terminal or disguise what it says. Newlines stay in the message only.
 */
export function printable(text: string, keepNewlines = false): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) =>
    keepNewlines && c === '\n' ? c : `\\u{${c.codePointAt(0)!.toString(16)}}`,
  );
}

type Parsed = { form: ElicitForm } | { error: string };

/** The form a server sent, or why core-agent cannot show it (the server is told, in a decline). */
export function parseForm(server: string, message: unknown, requestedSchema: unknown): Parsed {
  if (typeof message !== 'string') return { error: 'the message is not a string' };
  if (message.length > FORM_LIMITS.messageChars) {
    return { error: `the message is ${message.length} characters, above the ${FORM_LIMITS.messageChars} a form may show` };
  }
  const bytes = Buffer.byteLength(JSON.stringify(requestedSchema ?? null));
  if (bytes > FORM_LIMITS.schemaBytes)
    return { error: `requestedSchema is ${bytes} bytes, above the ${FORM_LIMITS.schemaBytes} a form may carry` };
  const schema = requestedSchema as { type?: unknown; properties?: unknown; required?: unknown } | null;
  if (!isObject(schema) || schema.type !== 'object' || !isObject(schema.properties)) {
    return { error: 'requestedSchema must be {"type": "object", "properties": {...}}' };
  }
  const names = Object.keys(schema.properties);
  if (names.length > FORM_LIMITS.fields)
    return { error: `the form has ${names.length} fields, above the ${FORM_LIMITS.fields} core-agent shows` };
  const required = schema.required ?? [];
  if (!Array.isArray(required) || !required.every((r) => typeof r === 'string')) return { error: 'required must be a list of field names' };
  const missing = required.find((r) => !names.includes(r));
  if (missing !== undefined)
    return { error: `required names "${printable(missing.slice(0, FORM_LIMITS.nameChars))}", which is not a field` };
  const fields: FormField[] = [];
  for (const name of names) {
    const field = parseField(name, (schema.properties as Record<string, unknown>)[name], required.includes(name));
    if ('error' in field) return { error: `field "${printable(name.slice(0, FORM_LIMITS.nameChars))}": ${field.error}` };
    fields.push(field.field);
  }
  return { form: { server, message: printable(message, true), fields } };
}

function parseField(name: string, raw: unknown, required: boolean): { field: FormField } | { error: string } {
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) return { error: 'a field name must be 1-64 letters, digits, "_", "." or "-"' };
  if (!isObject(raw)) return { error: 'its schema is not an object' };
  const s = raw as Record<string, unknown>;
  for (const key of ['title', 'description'] as const) {
    if (s[key] !== undefined && typeof s[key] !== 'string') return { error: `${key} is not a string` };
    if (typeof s[key] === 'string' && s[key].length > FORM_LIMITS.textChars) {
      return { error: `${key} is ${s[key].length} characters, above ${FORM_LIMITS.textChars}` };
    }
  }
  const base = {
    name,
    label: printable((s.title as string | undefined) ?? name),
    description: typeof s.description === 'string' ? printable(s.description) : undefined,
    required,
  };
  const options = optionsOf(s);
  if (typeof options === 'string') return { error: options };
  if (s.type === 'string' && options) {
    if (s.default !== undefined && !options.some((o) => o.value === s.default)) return { error: 'its default is not one of its options' };
    return { field: { ...base, kind: 'choice', options, ...(typeof s.default === 'string' ? { default: s.default } : {}) } };
  }
  if (s.type === 'array' && options) {
    const d = s.default;
    if (d !== undefined && !(Array.isArray(d) && d.every((v) => options.some((o) => o.value === v)))) {
      return { error: 'its default is not a list of its options' };
    }
    return {
      field: { ...base, kind: 'multi', options, ...num(s, 'minItems', 'maxItems'), ...(d !== undefined ? { default: d as string[] } : {}) },
    };
  }
  if (s.type === 'string') {
    if (s.default !== undefined && typeof s.default !== 'string') return { error: 'its default is not a string' };
    if (s.format !== undefined && !FORMATS.has(s.format as string))
      return { error: `format "${printable(String(s.format).slice(0, 40))}" is not one MCP defines` };
    const f = { ...base, kind: 'text' as const, ...num(s, 'minLength', 'maxLength'), ...(s.format ? { format: s.format as string } : {}) };
    if (typeof s.default === 'string') {
      const bad = textProblem(f, s.default);
      if (bad) return { error: `its default ${bad}` };
    }
    return { field: { ...f, ...(typeof s.default === 'string' ? { default: s.default } : {}) } };
  }
  if (s.type === 'number' || s.type === 'integer') {
    const f = { ...base, kind: 'number' as const, integer: s.type === 'integer', ...num(s, 'minimum', 'maximum') };
    if (s.default !== undefined) {
      const bad = typeof s.default === 'number' ? numberProblem(f, s.default) : 'is not a number';
      if (bad) return { error: `its default ${bad}` };
    }
    return { field: { ...f, ...(typeof s.default === 'number' ? { default: s.default } : {}) } };
  }
  if (s.type === 'boolean') {
    if (s.default !== undefined && typeof s.default !== 'boolean') return { error: 'its default is not true or false' };
    return { field: { ...base, kind: 'boolean', ...(typeof s.default === 'boolean' ? { default: s.default } : {}) } };
  }
  return {
    error: `type ${printable(JSON.stringify(s.type ?? null).slice(0, 40))} is not a form field (string, number, integer, boolean, or a list of options)`,
  };
}

/** enum (+ legacy enumNames), oneOf [{const, title}], or for arrays items.enum / items.anyOf; a string is an error. */
function optionsOf(s: Record<string, unknown>): Option[] | undefined | string {
  const src = s.type === 'array' ? (isObject(s.items) ? (s.items as Record<string, unknown>) : undefined) : s;
  if (s.type === 'array' && !src) return 'a list field needs "items" with its options';
  if (!src) return undefined;
  let options: Option[] | undefined;
  const names = Array.isArray(s.enumNames) ? s.enumNames : undefined;
  if (Array.isArray(src.enum)) {
    if (!src.enum.every((v) => typeof v === 'string')) return 'its options must be strings';
    options = (src.enum as string[]).map((v, i) => ({ value: v, label: typeof names?.[i] === 'string' ? (names[i] as string) : v }));
  }
  const titled = src.oneOf ?? src.anyOf;
  if (Array.isArray(titled)) {
    if (!titled.every((o) => isObject(o) && typeof o.const === 'string')) return 'its options need "const" strings';
    options = (titled as Array<{ const: string; title?: unknown }>).map((o) => ({
      value: o.const,
      label: typeof o.title === 'string' ? o.title : o.const,
    }));
  }
  if (s.type === 'array' && !options) return 'a list field needs "items" with its options';
  if (!options) return undefined;
  if (options.length === 0) return 'it offers no options';
  if (options.length > FORM_LIMITS.options) return `it offers ${options.length} options, above the ${FORM_LIMITS.options} core-agent shows`;
  if (options.some((o) => o.value.length > FORM_LIMITS.textChars || o.label.length > FORM_LIMITS.textChars)) {
    return `an option is longer than ${FORM_LIMITS.textChars} characters`;
  }
  return options.map((o) => ({ value: o.value, label: printable(o.label) }));
}

function num<K extends string>(s: Record<string, unknown>, ...keys: K[]): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const k of keys) if (typeof s[k] === 'number' && Number.isFinite(s[k])) out[k] = s[k];
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function textProblem(f: Extract<FormField, { kind: 'text' }>, v: string): string | null {
  if (f.minLength !== undefined && v.length < f.minLength) return `is shorter than ${f.minLength} characters`;
  if (f.maxLength !== undefined && v.length > f.maxLength) return `is longer than ${f.maxLength} characters`;
  if (f.format === 'email' && !/^[^\s@]+@[^\s@]+$/.test(v)) return 'is not an email address';
  if (f.format === 'uri' && !URL.canParse(v)) return 'is not a URI';
  if (f.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(v)) return 'is not a date (YYYY-MM-DD)';
  if (f.format === 'date-time' && Number.isNaN(Date.parse(v))) return 'is not a date-time (e.g. 2026-12-01T14:00:00Z)';
  return null;
}

function numberProblem(f: Extract<FormField, { kind: 'number' }>, v: number): string | null {
  if (!Number.isFinite(v)) return 'is not a number';
  if (f.integer && !Number.isInteger(v)) return 'is not a whole number';
  if (f.minimum !== undefined && v < f.minimum) return `is below ${f.minimum}`;
  if (f.maximum !== undefined && v > f.maximum) return `is above ${f.maximum}`;
  return null;
}

/** Why `value` does not fit `field`, or null. */
export function valueProblem(field: FormField, value: unknown): string | null {
  switch (field.kind) {
    case 'text':
      return typeof value === 'string' ? textProblem(field, value) : 'is not text';
    case 'number':
      return typeof value === 'number' ? numberProblem(field, value) : 'is not a number';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'is not true or false';
    case 'choice':
      return typeof value === 'string' && field.options.some((o) => o.value === value) ? null : 'is not one of its options';
    case 'multi': {
      if (!Array.isArray(value) || !value.every((v) => field.options.some((o) => o.value === v))) return 'is not a list of its options';
      if (field.minItems !== undefined && value.length < field.minItems) return `has fewer than ${field.minItems} choices`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `has more than ${field.maxItems} choices`;
      return null;
    }
  }
}

/**
 * An accepted form's content: the operator's values, each field they left empty
 * filled with the server's default (SEP-1034), checked against the form. An
 * error names the field.
 */
export function completeAnswer(
  form: ElicitForm,
  values: Readonly<Record<string, unknown>>,
): { content: Record<string, FormValue> } | { error: string } {
  const unknown = Object.keys(values).find((k) => !form.fields.some((f) => f.name === k));
  if (unknown !== undefined) return { error: `"${printable(unknown.slice(0, 64))}" is not a field of the form` };
  const content: Record<string, FormValue> = {};
  for (const f of form.fields) {
    const v = values[f.name] ?? f.default;
    if (v === undefined) {
      if (f.required) return { error: `"${f.name}" is required and has no default` };
      continue;
    }
    const bad = valueProblem(f, v);
    if (bad) return { error: `"${f.name}" ${bad}` };
    content[f.name] = v as FormValue;
  }
  return { content };
}
