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
