import { valueProblem, type ElicitAnswer, type ElicitForm, type FormField, type FormValue } from './elicit-form.ts';

/** Reads one line after showing a prompt; null when input has ended (runtime/choices.ts's ReadLine). */
export type ReadLine = (prompt: string) => Promise<string | null>;

/**
 * An elicitation form on a line terminal: the server's message, then accept /
 * decline / cancel, then one line per field. An empty line takes the field's
 * default (SEP-1034) or leaves an optional field out; a value that does not fit
 * is explained and asked again. Input ending mid-way answers nothing.
 */
export async function formOnLines(form: ElicitForm, read: ReadLine): Promise<ElicitAnswer | { unavailable: string }> {
  const ended = { unavailable: 'the input ended before the form was filled in' };
  const head = `\n? MCP server "${form.server}" asks:\n${indent(form.message)}\n`;
  let prompt = `${head}Fill in the form (${form.fields.length} field${form.fields.length === 1 ? '' : 's'})? [y]es / [n]o (decline) / [c]ancel: `;
  for (;;) {
    const reply = await read(prompt);
    if (reply === null) return ended;
    const r = reply.trim().toLowerCase();
    if (r === 'n' || r === 'no' || r === 'decline') return { action: 'decline' };
    if (r === 'c' || r === 'cancel') return { action: 'cancel' };
    if (r === 'y' || r === 'yes') break;
    prompt = 'Answer y (fill in), n (decline) or c (cancel): ';
  }
  const values: Record<string, FormValue> = {};
  for (const field of form.fields) {
    let prompt = fieldPrompt(field);
    for (;;) {
      const reply = await read(prompt);
      if (reply === null) return ended;
      const text = reply.trim();
      if (text === '') {
        if (field.default !== undefined) values[field.name] = field.default;
        else if (field.required) {
          prompt = `  ${field.label} is required: `;
          continue;
        }
        break;
      }
      const value = fromText(field, text);
      const bad = value === undefined ? 'is not understood' : valueProblem(field, value);
      if (bad === null && value !== undefined) {
        values[field.name] = value;
        break;
      }
      prompt = `  that ${bad}; ${field.label} again: `;
    }
  }
  return { action: 'accept', values };
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}

function fieldPrompt(f: FormField): string {
  const req = f.required ? ', required' : '';
  const def = f.default === undefined ? '' : `, default ${Array.isArray(f.default) ? f.default.join(', ') : String(f.default)}`;
  const about = f.description ? ` — ${f.description}` : '';
  switch (f.kind) {
    case 'text':
      return `  ${f.label}${about} (text${f.format ? `, ${f.format}` : ''}${req}${def}): `;
    case 'number':
      return `  ${f.label}${about} (${f.integer ? 'whole number' : 'number'}${range(f.minimum, f.maximum)}${req}${def}): `;
    case 'boolean':
      return `  ${f.label}${about} (yes/no${req}${def}): `;
    case 'choice':
    case 'multi': {
      const list = f.options.map((o, i) => `    ${i + 1}) ${o.label}`).join('\n');
      const how = f.kind === 'multi' ? 'numbers or values, comma-separated' : 'a number or a value';
      return `  ${f.label}${about}\n${list}\n  (${how}${req}${def}): `;
    }
  }
}

function range(min?: number, max?: number): string {
  if (min !== undefined && max !== undefined) return ` ${min}-${max}`;
  if (min !== undefined) return ` ≥ ${min}`;
  return max !== undefined ? ` ≤ ${max}` : '';
}

function fromText(f: FormField, text: string): FormValue | undefined {
  switch (f.kind) {
    case 'text':
      return text;
    case 'number':
      return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text) ? Number(text) : undefined;
    case 'boolean':
      return /^(y|yes|true|1)$/i.test(text) ? true : /^(n|no|false|0)$/i.test(text) ? false : undefined;
    case 'choice':
      return pick(f.options, text);
    case 'multi': {
      const picked = text.split(',').map((t) => pick(f.options, t.trim()));
      return picked.every((p) => p !== undefined) ? (picked as string[]) : undefined;
    }
  }
}

function pick(options: readonly { value: string; label: string }[], text: string): string | undefined {
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (n >= 1 && n <= options.length) return options[n - 1]!.value;
  return options.find((o) => o.value === text || o.label === text)?.value;
}
