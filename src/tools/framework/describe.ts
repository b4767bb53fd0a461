/**
 * Descriptions follow the catalog. A description template may wrap a passage
 * that names another tool in `{{#name}}…{{/name}}`: it is kept only when that
 * tool is registered. `{{^name}}…{{/name}}` is the reverse. A sentence naming a
 * tool the model cannot call asserts a capability it does not have, and the
 * model spends turns finding that out.
 */
const SECTION = /\{\{([#^])([a-z0-9_]+)\}\}([\s\S]*?)\{\{\/\2\}\}/g;

export function renderDescription(template: string, isRegistered: (tool: string) => boolean): string {
  // Sections may nest (different names): render until nothing changes.
  let rendered = template;
  for (let before = ''; before !== rendered;) {
    before = rendered;
    rendered = rendered.replace(SECTION, (_all, kind: string, name: string, body: string) =>
      (kind === '#') === isRegistered(name) ? body : '',
    );
  }
  if (rendered.includes('{{')) throw new Error(`unbalanced {{…}} section in a tool description: ${template.slice(0, 80)}`);
  return rendered
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** The tool names a template refers to in sections (for tests and checks). */
export function referencedTools(template: string): string[] {
  return [...template.matchAll(SECTION)].map((m) => m[2]!);
}

/**
 * Put values into a description's slots: `{{=name}}` takes a string or number
 * (a default the code owns appears in the `.md` as a slot, so the text cannot
 * drift from the constant), `{{?name}}…{{/?name}}` keeps its passage when the
 * value is true (record_plan's text for the plan mode). Every slot must be
 * filled, and every value must have a slot.
 */
export function fillDescription(template: string, values: Readonly<Record<string, string | number | boolean>>): string {
  const slots = new Set([...template.matchAll(/\{\{[=?]([a-z0-9_]+)\}\}/g)].map((m) => m[1]!));
  const value = (name: string) => {
    if (!Object.hasOwn(values, name)) throw new Error(`tool description: no value for "${name}"`);
    return values[name]!;
  };
  const filled = template
    .replace(/\{\{\?([a-z0-9_]+)\}\}([\s\S]*?)\{\{\/\?\1\}\}/g, (_all, name: string, body: string) => (value(name) === true ? body : ''))
    .replace(/\{\{=([a-z0-9_]+)\}\}/g, (_all, name: string) => String(value(name)));
  const unused = Object.keys(values).filter((k) => !slots.has(k));
  if (unused.length > 0) throw new Error(`tool description: no {{=${unused[0]}}} slot`);
  return filled;
}
