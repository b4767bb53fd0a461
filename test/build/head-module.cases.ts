/**
 * Tool files the build cuts a head module out of (scripts/bundle/head-module.mjs): what
 * registering the tool runs, with the imports and declarations it uses and nothing else, or a
 * refusal with the reason. `keeps`: text the module must hold; `drops`: text it must not;
 * `refused`: the refusal. Each source is one file, its lines joined by `\n`.
 */
export interface HeadModuleCase {
  what: string;
  source: string;
  keys: string[];
  keeps?: string[];
  drops?: string[];
  refused?: RegExp;
}

const ZOD = "import * as z from 'zod/v4';";
const DEFINE = "import { defineTool } from '../framework/tool.ts';";
const ARGS = 'args: z.strictObject({ x: z.string().max(9) }), run: () => ({})';

// prettier-ignore
export const HEAD_MODULE_CASES: readonly HeadModuleCase[] = [
  { what: 'a description function beside the definition, and what it uses', keys: ['description'], source: [ZOD, DEFINE, "import { fillDescription } from '../framework/describe.ts';", "import template from './t.md';", 'function describe(n: number) { return fillDescription(template, { n }); }', `export const tTool = defineTool({ name: 't', description: ({ services }) => describe(services.n ?? 1), ${ARGS} });`].join('\n'), keeps: ["import { fillDescription } from '../framework/describe.ts';", "import template from './t.md';", 'function describe(', 'description: ({ services }) => describe(services.n ?? 1),'], drops: ['zod', 'defineTool', 'strictObject', 'run:'] },
  { what: 'a shorthand member naming a function declared in the file', keys: ['description'], source: [ZOD, DEFINE, 'function description() { return "d"; }', `export const tTool = defineTool({ name: 't', description, ${ARGS} });`].join('\n'), keeps: ['function description()', '  description,'], drops: ['zod'] },
  { what: 'a shorthand member naming an import', keys: ['available'], source: [ZOD, DEFINE, "import { available } from './gate.ts';", `export const tTool = defineTool({ name: 't', available, ${ARGS} });`].join('\n'), keeps: ["import { available } from './gate.ts';", '  available,'], drops: ['zod', 'defineTool'] },
  { what: 'an inline available that uses only its parameter keeps no import', keys: ['available'], source: [ZOD, DEFINE, "import { helper } from './helper.ts';", `export const tTool = defineTool({ name: 't', available: (s) => (s.mode === 'plan' ? 'not in plan mode' : null), ${ARGS}, x: helper });`].join('\n'), keeps: ["available: (s) => (s.mode === 'plan' ? 'not in plan mode' : null),"], drops: ['import', 'helper'] },
  { what: 'a method member', keys: ['description'], source: [ZOD, DEFINE, 'const WORD = "w";', `export const tTool = defineTool({ name: 't', description({ services }) { return WORD + services.x; }, ${ARGS} });`].join('\n'), keeps: ['const WORD = "w";', 'description({ services }) { return WORD + services.x; },'], drops: ['zod'] },
  { what: 'two members, describeArgs with a helper const', keys: ['description', 'describeArgs'], source: [ZOD, DEFINE, 'const maxResults = (n: number) => `at most ${n}`;', `export const tTool = defineTool({ name: 't', description: () => 'd', describeArgs: (s) => ({ n: maxResults(s.n ?? 5) }), ${ARGS} });`].join('\n'), keeps: ['const maxResults =', "description: () => 'd',", 'describeArgs: (s) => ({ n: maxResults(s.n ?? 5) }),'], drops: ['zod'] },
  { what: 'what a kept declaration uses is kept, transitively', keys: ['description'], source: [ZOD, DEFINE, "import { VERBS } from './verbs.ts';", 'const list = () => VERBS.join(", ");', 'function describe() { return `use ${list()}`; }', 'const unused = z.string();', `export const tTool = defineTool({ name: 't', description: () => describe(), ${ARGS} });`].join('\n'), keeps: ["import { VERBS } from './verbs.ts';", 'const list =', 'function describe()'], drops: ['zod', 'unused'] },
  { what: 'an import cut to the names used', keys: ['description'], source: [ZOD, DEFINE, "import { a, b, c as d } from './m.ts';", `export const tTool = defineTool({ name: 't', description: () => a() + d(), ${ARGS} });`].join('\n'), keeps: ["import { a, c as d } from './m.ts';"], drops: [' b,', 'zod'] },
  { what: 'a default and a namespace import used', keys: ['description'], source: [ZOD, DEFINE, "import text from './t.md';", "import * as words from './words.ts';", `export const tTool = defineTool({ name: 't', description: () => text + words.one, ${ARGS} });`].join('\n'), keeps: ["import text from './t.md';", "import * as words from './words.ts';"], drops: ['zod'] },
  { what: 'type-only imports go (esbuild would keep an all-type import for its side effects)', keys: ['description'], source: [ZOD, "import { defineTool, type DescribeEnv } from '../framework/tool.ts';", "import type { Mode } from './mode.ts';", `export const tTool = defineTool({ name: 't', description: ({ services }: DescribeEnv) => String(services.mode as Mode), ${ARGS} });`].join('\n'), keeps: ['description: ({ services }: DescribeEnv) => String(services.mode as Mode),'], drops: ['import', 'zod'] },
  { what: 'a type the function names is kept as the file declares it (erased when bundled)', keys: ['description'], source: [ZOD, DEFINE, 'type Mode = "a" | "b";', `export const tTool = defineTool({ name: 't', description: ({ services }) => (services.mode as Mode), ${ARGS} });`].join('\n'), keeps: ['type Mode = "a" | "b";'], drops: ['zod'] },
  { what: 'a name after a dot or before a colon is no reference', keys: ['description'], source: [ZOD, DEFINE, 'const helper = z.string();', `export const tTool = defineTool({ name: 't', description: ({ services }) => ({ helper: 1 }).helper + services.helper, ${ARGS} });`].join('\n'), drops: ['const helper', 'zod'] },
  { what: 'a parameter shadowing a top-level name keeps its declaration (more kept, never less)', keys: ['description'], source: [ZOD, DEFINE, 'const mode = "x";', `export const tTool = defineTool({ name: 't', description: ({ services: { mode } }) => String(mode), ${ARGS} });`].join('\n'), keeps: ['const mode = "x";'], drops: ['zod'] },
  { what: 'a statement of several declarators is kept whole', keys: ['description'], source: [ZOD, DEFINE, 'const A = "a", B = "b";', `export const tTool = defineTool({ name: 't', description: () => A, ${ARGS} });`].join('\n'), keeps: ['const A = "a", B = "b";'] },
  { what: 'a let the function reads is refused: two copies of its state', keys: ['description'], source: [ZOD, DEFINE, 'let calls = 0;', `export const tTool = defineTool({ name: 't', description: () => String(++calls), ${ARGS} });`].join('\n'), refused: /^it uses calls, a `let` or `var`/ },
  { what: 'a var reached through a helper is refused', keys: ['description'], source: [ZOD, DEFINE, 'var seen = new Set();', 'const note = (n: string) => seen.add(n);', `export const tTool = defineTool({ name: 't', description: () => { note('x'); return 'd'; }, ${ARGS} });`].join('\n'), refused: /^it uses seen, a `let` or `var`/ },
  { what: 'a function that uses the definition itself is refused', keys: ['description'], source: [ZOD, DEFINE, `export const tTool = defineTool({ name: 't', description: () => tTool.name, ${ARGS} });`].join('\n'), refused: /^its description uses the definition itself$/ },
  { what: 'a member brought in by a spread is refused', keys: ['available'], source: [ZOD, DEFINE, "import { common } from './common.ts';", `export const tTool = defineTool({ name: 't', ...common, ${ARGS} });`].join('\n'), refused: /^its definition's object literal has no member available \(a spread cannot be cut out\)$/ },
  { what: 'a getter member is refused', keys: ['description'], source: [ZOD, DEFINE, `export const tTool = defineTool({ name: 't', get description() { return 'd'; }, ${ARGS} });`].join('\n'), refused: /^its description is a GetAccessor, not a property or a method$/ },
  { what: 'a definition not written as defineTool({…}) is refused', keys: ['description'], source: [ZOD, DEFINE, 'const spec = { name: "t" };', 'export const tTool = defineTool(spec);'].join('\n'), refused: /^no `export const … = defineTool\(\{…\}\)`/ },
  { what: 'a definition that is not exported is refused', keys: ['description'], source: [ZOD, DEFINE, `const tTool = defineTool({ name: 't', description: () => 'd', ${ARGS} });`, 'export default tTool;'].join('\n'), refused: /^no `export const … = defineTool/ },
];
