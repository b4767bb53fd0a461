import type { AnyTool } from './tool.ts';

/**
 * One tool file of a family, as `virtual:tool-family` hands it over (scripts/tool-family.mjs):
 * the module's exports (vitest, and the build step that computes the heads), or, in the
 * bundle, the tool itself, answering from its head until its module is needed (tool-head.ts).
 */
export type FamilyMember =
  { readonly file: string; readonly exports: Readonly<Record<string, unknown>> } | { readonly file: string; readonly tool: AnyTool };

/**
 * A family's tools, one per tool file (a `.ts` with its `.md` beside it), in
 * file-name order. The folder is the registration: there is no list to keep in
 * step with the files, so a tool file that exports no definition, or two, is a
 * build mistake and fails at start-up (and in the tests, and in the build, which
 * reads every file's exports to compute the heads), naming the file.
 */
export function familyTools(family: string, members: readonly FamilyMember[]): readonly AnyTool[] {
  return members.map((m) => {
    if ('tool' in m) return m.tool;
    const defs = Object.entries(m.exports).filter(([, v]) => isToolDefinition(v));
    if (defs.length !== 1) {
      const found = defs.length === 0 ? 'none' : defs.map(([k]) => k).join(', ');
      throw new Error(
        `src/tools/${family}/${m.file}: a tool file (a .ts with its .md beside it) exports exactly one tool definition; found ${found}`,
      );
    }
    return defs[0]![1] as AnyTool;
  });
}

function isToolDefinition(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const d = v as Partial<Record<keyof AnyTool, unknown>>;
  return typeof d.name === 'string' && typeof d.kind === 'string' && typeof d.run === 'function' && typeof d.args === 'object';
}
