/**
 * Descriptions follow the catalog. A description template may wrap a passage
 * that names another tool in `{{#name}}…{{/name}}`: it is kept only when that
 * tool is registered. `{{^name}}…{{/name}}` is the reverse. A sentence naming a
 * tool the model cannot call asserts a capability it does not have, and the
 * model spends turns finding that out. Inside, `{{@name}}` is the name the model
 * calls that tool by in this catalog's dialect (golem's `ReadFile` for read_file).
 */
const SECTION = /\{\{([#^])([a-z0-9_]+)\}\}([\s\S]*?)\{\{\/\2\}\}/g;
const MODEL_NAME = /\{\{@([a-z0-9_]+)\}\}/g;

/** What rendering asks of the catalog: is a tool registered, and under which name does the model see it. */
export interface RegisteredNames {
  has(tool: string): boolean;
  /** The model-facing name of a registered tool (undefined when it is not registered). */
  modelName(tool: string): string | undefined;
}

export function renderDescription(template: string, registered: RegisteredNames | ((tool: string) => boolean)): string {
  const names: RegisteredNames =
    typeof registered === 'function' ? { has: registered, modelName: (n) => (registered(n) ? n : undefined) } : registered;
  const isRegistered = (n: string) => names.has(n);
  // Sections may nest (different names): render until nothing changes.
  let rendered = template;
  for (let before = ''; before !== rendered;) {
    before = rendered;
    rendered = rendered.replace(SECTION, (_all, kind: string, name: string, body: string) =>
      (kind === '#') === isRegistered(name) ? body : '',
    );
  }
  rendered = rendered.replace(MODEL_NAME, (_all, name: string) => {
    const shown = names.modelName(name);
    // A name the model cannot call must sit inside its {{#name}} section, which is gone by now.
    if (shown === undefined) throw new Error(`a tool description names ${name} outside a {{#${name}}} section, and it is not registered`);
    return shown;
  });
  if (rendered.includes('{{')) throw new Error(`unbalanced {{…}} section in a tool description: ${template.slice(0, 80)}`);
  return rendered
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** The tool names a template refers to in sections and by `{{@name}}` (for tests and checks). */
export function referencedTools(template: string): string[] {
  return [...new Set([...[...template.matchAll(SECTION)].map((m) => m[2]!), ...[...template.matchAll(MODEL_NAME)].map((m) => m[1]!)])];
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
