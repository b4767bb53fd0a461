// A tool family's members, found on disk. In a family folder (src/tools/<family>/),
// every `<name>.ts` with its model-facing description `<name>.md` beside it is a
// tool file; the family's index.ts imports `virtual:tool-family` and gets their
// modules, sorted by file name. Adding a tool to a family is then the tool file,
// its description and its test: no list to edit. The bundle (esbuild-options.mjs)
// and the vitest run (vitest.config.ts) both resolve the module through here.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { headModuleId } from './head-module.mjs';

export const TOOL_FAMILY = 'virtual:tool-family';

/** The tool files of the family folder `dir`, by file name. */
export function toolFamilyFiles(dir) {
  return (
    readdirSync(dir)
      // `<tool>.<dialect>.md` is a face's description (src/tools/framework/dialect.ts), not a tool file.
      .filter((f) => f.endsWith('.md') && !f.slice(0, -3).includes('.'))
      .map((f) => path.join(dir, `${f.slice(0, -3)}.ts`))
      .filter((f) => existsSync(f))
      .sort()
  );
}

/** The module `virtual:tool-family` is for an index.ts in `dir`: every tool file's exports, in order. */
export function toolFamilyModule(dir) {
  const files = toolFamilyFiles(dir);
  const imports = files.map((f, i) => `import * as m${i} from ${JSON.stringify(f)};`);
  return `${imports.join('\n')}\nexport default [${files.map((f, i) => `{ file: ${JSON.stringify(path.basename(f))}, exports: m${i} }`).join(', ')}];\n`;
}

/**
 * A tool's `load` in the tools' listing script (`bodies: false`), which holds no tool module: a
 * listing reads nothing of a module but, under a recipe, the tool's settings schema — cut out of
 * the tool file as a head module of its own (head-module.mjs), evaluated (with zod, from its
 * chunk: listing-zod.mjs) only when read. Anything else read throws, naming the tool and the key
 * (src/tools/framework/tool-head.ts, listingDefinition).
 */
function listingLoad(file, head) {
  const name = JSON.stringify(head.fields.name);
  if (!head.present.includes('settings')) return `() => listingDefinition(${name})`;
  return `() => listingDefinition(${name}, require(${JSON.stringify(headModuleId(file, ['settings']))}).default)`;
}

/**
 * The module `virtual:tool-family` is in the product bundle: each tool built from its head
 * (scripts/bundle/tool-heads.mjs computed them from the same files) and, where registering it
 * runs its code, its generated head module (head-module.mjs); its module `require()`d — which
 * esbuild turns into a lazy, synchronous evaluation of the bundled module — only when the
 * tool is first read past them (src/tools/framework/tool-head.ts). A tool file without a head
 * is a build mistake: the heads and the bundle were computed from different trees.
 */
export function toolFamilyLazyModule(dir, heads, headModule, { bodies = true } = {}) {
  const files = toolFamilyFiles(dir);
  const imports = [`import { lazyTool${bodies ? '' : ', listingDefinition'} } from ${JSON.stringify(headModule)};`];
  const members = files.map((f, i) => {
    const entry = heads[f];
    if (entry === undefined) throw new Error(`${f}: no tool head computed for it (scripts/bundle/tool-heads.mjs)`);
    const load = bodies ? `() => require(${JSON.stringify(f)})[${JSON.stringify(entry.export)}]` : listingLoad(f, entry.head);
    // What registering it runs (a description that depends on the run, `available`): its head
    // module, which the build checked reaches no zod.
    const keys = entry.head.companion ?? [];
    if (keys.length > 0) imports.push(`import h${i} from ${JSON.stringify(headModuleId(f, keys))};`);
    const opts = keys.length > 0 ? `, { companion: h${i} }` : '';
    return `{ file: ${JSON.stringify(path.basename(f))}, tool: lazyTool(${JSON.stringify(entry.head)}, ${load}${opts}) }`;
  });
  return `${imports.join('\n')}\nexport default [\n${members.join(',\n')}\n];\n`;
}
