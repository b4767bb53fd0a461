// A tool family's members, found on disk. In a family folder (src/tools/<family>/),
// every `<name>.ts` with its model-facing description `<name>.md` beside it is a
// tool file; the family's index.ts imports `virtual:tool-family` and gets their
// modules, sorted by file name. Adding a tool to a family is then the tool file,
// its description and its test: no list to edit. The bundle (esbuild-options.mjs)
// and the vitest run (vitest.config.ts) both resolve the module through here.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

export const TOOL_FAMILY = 'virtual:tool-family';

/** The tool files of the family folder `dir`, by file name. */
export function toolFamilyFiles(dir) {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join(dir, `${f.slice(0, -3)}.ts`))
    .filter((f) => existsSync(f))
    .sort();
}

/** The module `virtual:tool-family` is for an index.ts in `dir`: every tool file's exports, in order. */
export function toolFamilyModule(dir) {
  const files = toolFamilyFiles(dir);
  const imports = files.map((f, i) => `import * as m${i} from ${JSON.stringify(f)};`);
  return `${imports.join('\n')}\nexport default [${files.map((f, i) => `{ file: ${JSON.stringify(path.basename(f))}, exports: m${i} }`).join(', ')}];\n`;
}
