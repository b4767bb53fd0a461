/**
 * The layer checker on planted trees: a small tree that keeps its table, and one
 * change per case (a line appended to a file, a new file, or the table edited).
 * `expect` lists what each part of the report must say; a part not listed must
 * be empty. The base files' line counts fix the line numbers in the messages.
 */
export const BASE_TREE: Record<string, string> = {
  'src/core/json.ts': 'export type J = string;',
  'src/startup/chunks.ts': "export const chunk = () => 'data';",
  'src/util/text.ts': "import type { J } from '../core/json.ts';\nexport const t = (j: J) => j;",
  'src/net/fetch.ts': "import { t } from '../util/text.ts';\nexport const f = () => t('x');",
  'src/tools/framework/tool.ts': [
    "import { f } from '../../net/fetch.ts';",
    "export { t } from '../../util/text.ts';",
    "export const later = () => import('../../net/fetch.ts');",
    'export type Fetch = typeof import("../../net/fetch.ts");',
    'export const run = () => f();',
  ].join('\n'),
  'src/tools/shared/walk.ts': "import { run } from '../framework/tool.ts';\nexport const walk = () => run();",
  'src/tools/files/read.ts': "import { walk } from '../shared/walk.ts';\nexport const read = () => walk();",
  'src/tools/search/grep.ts': "import { run } from '../framework/tool.ts';\nexport const grep = () => run();",
  'src/tools/index.ts':
    "import { read } from './files/read.ts';\nimport { grep } from './search/grep.ts';\nexport const all = [read, grep];",
  'src/runtime/root.ts': [
    "import { homedir } from 'node:os';",
    "import { all as run } from '../tools/index.ts';",
    "import { t } from '../util/text.ts';",
    'export const start = () => [run(), t(process.env.HOME ?? homedir())];',
  ].join('\n'),
  'src/log.ts': "import { t } from './util/text.ts';\nexport const log = t;",
  'src/main.ts':
    "import { start } from './runtime/root.ts';\nimport { log } from './log.ts';\nlog(String(start()) + String(process.env.X));",
  'src/ambient.d.ts': "declare module '*.md' { const text: string; export default text; }",
  'src/tools/files/read.md': 'A description, imported as text.',
};

export const BASE_DOC = `# Architecture

| Folder | May import | Why |
|---|---|---|
| \`core\` | — | the leaf |
| \`startup\` | — | the start-up machinery |
| \`util\` | \`core\`, \`startup\` | helpers |
| \`log\` | \`core\`, \`util\` | logging |
| \`net\` | \`core\`, \`util\` | fetch |
| \`tools/framework\` | \`core\`, \`util\`, \`net\` | the framework |
| \`tools/shared\` | \`tools/framework\` | what families share |
| \`tools/*\` | \`tools/framework\`, \`tools/shared\` | a family |
| \`tools\` | \`tools/framework\`, \`tools/*\` | the families list |
| \`runtime\` | every folder but \`main\` | the root |
| \`main\` | \`runtime\`, \`log\` | the process |

**Environment.** \`process.env\` and \`homedir()\` appear only in \`main\` and \`runtime\`; everything below is handed them.
`;

export interface Expected {
  table?: RegExp[];
  imports?: RegExp[];
  cycles?: RegExp[];
  fileCycles?: RegExp[];
  env?: RegExp[];
}

export interface ArchitectureCase {
  what: string;
  /** Lines appended to base files, or whole new files. */
  add?: Record<string, string>;
  /** An edit of the table: [text to find, its replacement]. */
  doc?: [string, string];
  expect: Expected;
}

const NET_TOOLS = /^src\/net\/fetch\.ts:3: net may not import tools\/framework \(/;
const NET_RULE = /; net may import core, util \(docs\/architecture\.md\)$/;

// prettier-ignore
export const ARCHITECTURE_CASES: readonly ArchitectureCase[] = [
  { what: 'the tree as its table allows', expect: {} },
  { what: 'a back-edge', add: { 'src/net/fetch.ts': "import { run } from '../tools/framework/tool.ts';" }, expect: { imports: [/^src\/net\/fetch\.ts:3: net may not import tools\/framework \(an import of '\.\.\/tools\/framework\/tool\.ts'\); net may import core, util \(docs\/architecture\.md\)$/], cycles: [/^net → tools\/framework → net {2}\(src\/net\/fetch\.ts:3 imports src\/tools\/framework\/tool\.ts; src\/tools\/framework\/tool\.ts:1 imports src\/net\/fetch\.ts\)$/] , fileCycles: [/^src\/net\/fetch\.ts → src\/tools\/framework\/tool\.ts → src\/net\/fetch\.ts {2}\(the imports at src\/net\/fetch\.ts:3, src\/tools\/framework\/tool\.ts:1\)$/] } },
  { what: 'a type-only back-edge', add: { 'src/net/fetch.ts': "import type { run } from '../tools/framework/tool.ts';" }, expect: { imports: [/net may not import tools\/framework \(a type-only import of/], cycles: [/^net → tools\/framework → net /] , fileCycles: [/^src\/net\/fetch\.ts → src\/tools\/framework\/tool\.ts → src\/net\/fetch\.ts {2}\(the imports at src\/net\/fetch\.ts:3, src\/tools\/framework\/tool\.ts:1\)$/] } },
  { what: 'a back-edge of type-only names', add: { 'src/net/fetch.ts': "import { type Fetch } from '../tools/framework/tool.ts';" }, expect: { imports: [/net may not import tools\/framework \(a type-only import of/], cycles: [/^net → tools\/framework → net /] , fileCycles: [/^src\/net\/fetch\.ts → src\/tools\/framework\/tool\.ts → src\/net\/fetch\.ts {2}\(the imports at src\/net\/fetch\.ts:3, src\/tools\/framework\/tool\.ts:1\)$/] } },
  { what: 'a back-edge by typeof import()', add: { 'src/net/fetch.ts': "export type Tool = typeof import('../tools/framework/tool.ts');" }, expect: { imports: [/^src\/net\/fetch\.ts:3: net may not import tools\/framework \(a type-only import of '\.\.\/tools\/framework\/tool\.ts'\)/], cycles: [/^net → tools\/framework → net /] , fileCycles: [/^src\/net\/fetch\.ts → src\/tools\/framework\/tool\.ts → src\/net\/fetch\.ts {2}\(the imports at src\/net\/fetch\.ts:3, src\/tools\/framework\/tool\.ts:1\)$/] } },
  { what: 'a dynamic back-edge', add: { 'src/net/fetch.ts': "export const tools = () => import('../tools/framework/tool.ts');" }, expect: { imports: [/^src\/net\/fetch\.ts:3: net may not import tools\/framework \(a dynamic import of '\.\.\/tools\/framework\/tool\.ts'\)/], cycles: [/^net → tools\/framework → net /] , fileCycles: [/^src\/net\/fetch\.ts → src\/tools\/framework\/tool\.ts → src\/net\/fetch\.ts {2}\(the imports at src\/net\/fetch\.ts:3, src\/tools\/framework\/tool\.ts:1\)$/] } },
  { what: 'a back-edge by export-from', add: { 'src/net/fetch.ts': "export { run } from '../tools/framework/tool.ts';" }, expect: { imports: [NET_TOOLS], cycles: [/^net → tools\/framework → net /] , fileCycles: [/^src\/net\/fetch\.ts → src\/tools\/framework\/tool\.ts → src\/net\/fetch\.ts {2}\(the imports at src\/net\/fetch\.ts:3, src\/tools\/framework\/tool\.ts:1\)$/] } },
  { what: 'a back-edge by export *', add: { 'src/net/fetch.ts': "export * from '../tools/framework/tool.ts';" }, expect: { imports: [NET_RULE], cycles: [/^net → tools\/framework → net /] , fileCycles: [/^src\/net\/fetch\.ts → src\/tools\/framework\/tool\.ts → src\/net\/fetch\.ts {2}\(the imports at src\/net\/fetch\.ts:3, src\/tools\/framework\/tool\.ts:1\)$/] } },
  { what: 'a back-edge by import = require', add: { 'src/net/fetch.ts': "import tool = require('../tools/framework/tool.ts');" }, expect: { imports: [NET_TOOLS], cycles: [/^net → tools\/framework → net /] , fileCycles: [/^src\/net\/fetch\.ts → src\/tools\/framework\/tool\.ts → src\/net\/fetch\.ts {2}\(the imports at src\/net\/fetch\.ts:3, src\/tools\/framework\/tool\.ts:1\)$/] } },
  { what: 'a dynamic import nobody can check', add: { 'src/net/fetch.ts': "const where = '../tools/framework/tool.ts';\nexport const g = () => import(where);" }, expect: { imports: [/^src\/net\/fetch\.ts:4: a dynamic import with a computed specifier cannot be checked; name the module$/] } },
  { what: 'the leaf importing upward', add: { 'src/core/json.ts': "import { t } from '../util/text.ts';" }, expect: { imports: [/^src\/core\/json\.ts:2: core may not import util \(an import of '\.\.\/util\/text\.ts'\); core may import nothing of ours/], cycles: [/^core → util → core /] , fileCycles: [/^src\/core\/json\.ts → src\/util\/text\.ts → src\/core\/json\.ts /] } },
  { what: 'a top-level file is a folder of its own', add: { 'src/log.ts': "import { f } from './net/fetch.ts';" }, expect: { imports: [/^src\/log\.ts:3: log may not import net \(an import of '\.\/net\/fetch\.ts'\); log may import core, util/] } },
  { what: 'a top-level file imported from below', add: { 'src/util/text.ts': "import { log } from '../log.ts';" }, expect: { imports: [/^src\/util\/text\.ts:3: util may not import log /], cycles: [/^log → util → log /] , fileCycles: [/^src\/log\.ts → src\/util\/text\.ts → src\/log\.ts /] } },
  { what: 'a cycle of three folders', add: { 'src/util/text.ts': "import { run } from '../tools/framework/tool.ts';" }, expect: { imports: [/^src\/util\/text\.ts:3: util may not import tools\/framework /], cycles: [/^net → util → tools\/framework → net {2}\(src\/net\/fetch\.ts:1 imports src\/util\/text\.ts; src\/util\/text\.ts:3 imports src\/tools\/framework\/tool\.ts; src\/tools\/framework\/tool\.ts:1 imports src\/net\/fetch\.ts\)$/] , fileCycles: [/^src\/net\/fetch\.ts → src\/util\/text\.ts → src\/tools\/framework\/tool\.ts → src\/net\/fetch\.ts /] } },
  { what: 'two cycles, each printed', add: { 'src/util/text.ts': "import { log } from '../log.ts';", 'src/net/fetch.ts': "import { run } from '../tools/framework/tool.ts';" }, expect: { imports: [/net may not import tools/, /util may not import log/], cycles: [/^log → util → log /, /^net → tools\/framework → net /] , fileCycles: [/^src\/log\.ts → src\/util\/text\.ts → src\/log\.ts /, /^src\/net\/fetch\.ts → src\/tools\/framework\/tool\.ts → src\/net\/fetch\.ts /] } },
  { what: 'the root importing the process', add: { 'src/runtime/root.ts': "import './../main.ts';" }, expect: { imports: [/^src\/runtime\/root\.ts:5: runtime may not import main \(an import of '\.\/\.\.\/main\.ts'\); runtime may import core, startup, util, log, net, tools\/framework, tools\/shared, tools\/\*, tools/], cycles: [/^main → runtime → main /] , fileCycles: [/^src\/main\.ts → src\/runtime\/root\.ts → src\/main\.ts /] } },
  { what: 'an import reaching outside src/', add: { 'src/net/fetch.ts': "import pkg from '../../package.json' with { type: 'json' };" }, expect: { imports: [/^src\/net\/fetch\.ts:3: an import of '\.\.\/\.\.\/package\.json' reaches outside src\/$/] } },
  { what: 'packages, node: and virtual: modules are no folder', add: { 'src/core/json.ts': "import * as z from 'zod/v4';\nimport { readFile } from 'node:fs';\nimport chunk from 'virtual:k8s-chunk';" }, expect: {} },
  { what: 'a folder without a row', add: { 'src/fresh/a.ts': "import { t } from '../util/text.ts';" }, expect: { table: [/^src\/fresh has no row in the layer table: add one/], imports: [/^src\/fresh\/a\.ts:1: fresh may not import util \(an import of '\.\.\/util\/text\.ts'\); fresh has no row/] } },
  { what: 'a row naming no folder of the table', doc: ['| `net` | `core`, `util` |', '| `net` | `core`, `util`, `ghost` |'], expect: { table: [/^the row of net names ghost, which has no row of its own$/] } },
  { what: 'a table that allows a cycle', doc: ['| `util` | `core`, `startup` |', '| `util` | `core`, `startup`, `tools/framework` |'], expect: { table: [/^the table allows a cycle: net → util → tools\/framework → net$/] } },
  { what: 'process.env below the root', add: { 'src/tools/framework/tool.ts': 'export const home = process.env.HOME;' }, expect: { env: [/^src\/tools\/framework\/tool\.ts:6: process\.env below the composition root; only main, runtime read the environment — take env \/ home from the caller$/] } },
  { what: "process['env'] below the root", add: { 'src/net/fetch.ts': "export const e = process['env'];" }, expect: { env: [/^src\/net\/fetch\.ts:3: process\.env below/] } },
  { what: 'two reads on one line are one finding', add: { 'src/net/fetch.ts': 'export const e = process.env.A ?? process.env.B;' }, expect: { env: [/^src\/net\/fetch\.ts:3: process\.env below/] } },
  { what: 'os.homedir() below the root', add: { 'src/util/text.ts': "import os from 'node:os';\nexport const h = os.homedir();" }, expect: { env: [/^src\/util\/text\.ts:4: homedir\(\) below/] } },
  { what: 'homedir imported and called below the root', add: { 'src/log.ts': "import { homedir as home } from 'node:os';\nexport const h = home();" }, expect: { env: [/^src\/log\.ts:3: homedir imported from 'node:os' below/] } },
  { what: "env imported from 'node:process'", add: { 'src/core/json.ts': "import { env } from 'node:process';" }, expect: { env: [/^src\/core\/json\.ts:2: env imported from 'node:process' below/] } },
  { what: 'the words in a comment or a string are no read', add: { 'src/tools/framework/tool.ts': "// process.env and homedir() are the root's\nexport const say = 'process.env, homedir()';" }, expect: {} },
  { what: 'a family importing another family', add: { 'src/tools/files/read.ts': "import { grep } from '../search/grep.ts';" }, expect: { imports: [/^src\/tools\/files\/read\.ts:3: tools\/files may not import tools\/search \(a family never imports another: go through a port\) \(an import of '\.\.\/search\/grep\.ts'\); tools\/files may import tools\/framework, tools\/shared/] } },
  { what: 'a family importing another by type only', add: { 'src/tools/search/grep.ts': "import type { read } from '../files/read.ts';" }, expect: { imports: [/^src\/tools\/search\/grep\.ts:3: tools\/search may not import tools\/files \(a family never imports another: go through a port\) \(a type-only import/] } },
  { what: 'the framework importing a family', add: { 'src/tools/framework/tool.ts': "import { read } from '../files/read.ts';" }, expect: { imports: [/^src\/tools\/framework\/tool\.ts:6: tools\/framework may not import tools\/files \(an import of '\.\.\/files\/read\.ts'\); tools\/framework may import core, util, net/], cycles: [/^tools\/files → tools\/shared → tools\/framework → tools\/files /], fileCycles: [/^src\/tools\/files\/read\.ts → src\/tools\/shared\/walk\.ts → src\/tools\/framework\/tool\.ts → src\/tools\/files\/read\.ts /] } },
  { what: 'the framework importing shared code', add: { 'src/tools/framework/tool.ts': "import type { walk } from '../shared/walk.ts';" }, expect: { imports: [/^src\/tools\/framework\/tool\.ts:6: tools\/framework may not import tools\/shared \(a type-only import/], cycles: [/^tools\/framework → tools\/shared → tools\/framework /], fileCycles: [/^src\/tools\/framework\/tool\.ts → src\/tools\/shared\/walk\.ts → src\/tools\/framework\/tool\.ts /] } },
  { what: 'the families list is the one place that names every family', add: { 'src/tools/shared/walk.ts': "import { all } from '../index.ts';" }, expect: { imports: [/^src\/tools\/shared\/walk\.ts:3: tools\/shared may not import tools \(an import of '\.\.\/index\.ts'\)/], cycles: [/^tools → tools\/files → tools\/shared → tools /], fileCycles: [/^src\/tools\/files\/read\.ts → src\/tools\/shared\/walk\.ts → src\/tools\/index\.ts → src\/tools\/files\/read\.ts /] } },
  { what: 'a new family folder needs no row of its own', add: { 'src/tools/fresh/new-tool.ts': "import { run } from '../framework/tool.ts';\nimport { walk } from '../shared/walk.ts';\nexport const x = () => [run(), walk()];" }, expect: {} },
  { what: 'a layer importing the start-up machinery its row names', add: { 'src/util/text.ts': "import { chunk } from '../startup/chunks.ts';" }, expect: {} },
  { what: 'a layer whose row does not name the start-up machinery', add: { 'src/log.ts': "import { chunk } from './startup/chunks.ts';" }, expect: { imports: [/^src\/log\.ts:3: log may not import startup \(an import of '\.\/startup\/chunks\.ts'\); log may import core, util/] } },
  { what: 'the start-up machinery importing a layer', add: { 'src/startup/chunks.ts': "import { t } from '../util/text.ts';" }, expect: { imports: [/^src\/startup\/chunks\.ts:2: startup may not import util \(an import of '\.\.\/util\/text\.ts'\); startup may import nothing of ours/] } },
  { what: 'the CLI\'s loader importing the CLI it loads', add: { 'src/startup/chunks.ts': "export const cli = () => import('../main.ts');" }, expect: { imports: [/^src\/startup\/chunks\.ts:2: startup may not import main \(a dynamic import of '\.\.\/main\.ts'\); startup may import nothing of ours/] } },
  { what: 'a cycle between two files of one folder', add: { 'src/util/more.ts': "import { t } from './text.ts';\nexport const m = t;", 'src/util/text.ts': "import type { m } from './more.ts';" }, expect: { fileCycles: [/^src\/util\/more\.ts → src\/util\/text\.ts → src\/util\/more\.ts {2}\(the imports at src\/util\/more\.ts:1, src\/util\/text\.ts:3\)$/] } },
  { what: 'a cycle of files through a dynamic import', add: { 'src/util/more.ts': "import { t } from './text.ts';\nexport const m = t;", 'src/util/text.ts': "export const later = () => import('./more.ts');" }, expect: { fileCycles: [/^src\/util\/more\.ts → src\/util\/text\.ts → src\/util\/more\.ts /] } },
];
