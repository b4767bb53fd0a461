// The built-in tools' heads (src/tools/framework/tool-head.ts), computed at build time from the
// tool files themselves: a bundle that imports every family's files eagerly, checks each with
// familyTools (one definition per file) and prints each tool's head, run by this Node. A tool
// whose registration runs its code (a description that depends on the run, `available`,
// `describeArgs`) gets a head module generated from its file (head-module.mjs), which must not
// reach zod. The product bundle then registers the catalog from the heads and those modules
// (tool-family.mjs), evaluating no tool's module.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { headModule, headModuleId, REGISTRATION_KEYS } from './head-module.mjs';
import { toolFamilyFiles } from './tool-family.mjs';

/** Every family folder under src/tools (a folder with an index.ts and tool files) and its tool files. */
export function toolFamilies(root) {
  const tools = path.join(root, 'src/tools');
  return readdirSync(tools, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(tools, d.name, 'index.ts')))
    .map((d) => ({ family: d.name, files: toolFamilyFiles(path.join(tools, d.name)) }))
    .filter((f) => f.files.length > 0);
}

/** The members of a head that registering the tool runs as code: they come from its head module. */
export const headModuleKeys = (head) => REGISTRATION_KEYS.filter((k) => head.present.includes(k));

/** The head with `keys` answered by its head module instead of the tool's module. */
export function withHeadModule(head, keys) {
  if (keys.length === 0) return head;
  return { ...head, present: head.present.filter((k) => !keys.includes(k)), companion: keys };
}

/** `{ [absolute tool file]: { export, head } }` for every built-in tool. */
export async function computeToolHeads(root, esbuildOptions) {
  const families = toolFamilies(root);
  const files = families.flatMap((f) => f.files.map((file) => ({ family: f.family, file })));
  const entry = [
    `import { toolHead } from ${JSON.stringify(path.join(root, 'src/tools/framework/tool-head.ts'))};`,
    `import { familyTools } from ${JSON.stringify(path.join(root, 'src/tools/framework/family.ts'))};`,
    ...files.map((f, i) => `import * as m${i} from ${JSON.stringify(f.file)};`),
    'const out = {};',
    'const add = (family, file, m) => {',
    '  const [tool] = familyTools(family, [{ file: file.split("/").pop(), exports: m }]);',
    '  out[file] = { export: Object.keys(m).find((k) => m[k] === tool), head: toolHead(tool) };',
    '};',
    ...files.map((f, i) => `add(${JSON.stringify(f.family)}, ${JSON.stringify(f.file)}, m${i});`),
    'process.stdout.write(JSON.stringify(out));',
  ].join('\n');
  const dir = mkdtempSync(path.join(tmpdir(), 'core-agent-heads-'));
  let heads;
  try {
    const outfile = path.join(dir, 'heads.mjs');
    const options = await esbuildOptions(path.join(root, 'src/main.ts'), outfile);
    delete options.entryPoints;
    await build({ ...options, stdin: { contents: entry, resolveDir: root, loader: 'js' }, minify: false });
    heads = JSON.parse(execFileSync(process.execPath, [outfile], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const withModules = Object.entries(heads).filter(([, e]) => headModuleKeys(e.head).length > 0);
  for (const [file, e] of withModules) {
    const made = headModule(readFileSync(file, 'utf8'), headModuleKeys(e.head), file);
    if (made.refused !== undefined) throw new Error(headModuleRefusal(root, file, e.head, made.refused));
  }
  const zod = await headModulesReachingZod(
    root,
    esbuildOptions,
    withModules.map(([file, e]) => ({ file, keys: headModuleKeys(e.head) })),
  );
  if (zod.length > 0) throw new Error(zod.map((z) => headModuleRefusal(root, z.file, heads[z.file].head, z.reason)).join('\n'));
  for (const [file, e] of withModules) heads[file] = { ...e, head: withHeadModule(e.head, headModuleKeys(e.head)) };
  return heads;
}

function headModuleRefusal(root, file, head, reason) {
  const keys = headModuleKeys(head).join(', ');
  return `tool ${head.fields.name} (${path.relative(root, file)}): registering it runs its ${keys}, which the build cannot cut out of the file: ${reason}`;
}

/**
 * Each head module that evaluates zod, with the chain of imports that reaches it: bundled
 * together, one output per module, as the product bundle would bundle each.
 */
export async function headModulesReachingZod(root, esbuildOptions, modules) {
  if (modules.length === 0) return [];
  const dir = mkdtempSync(path.join(tmpdir(), 'core-agent-head-modules-'));
  try {
    const options = await esbuildOptions(path.join(root, 'src/main.ts'), path.join(dir, 'unused.mjs'));
    delete options.outfile;
    const result = await build({
      ...options,
      entryPoints: modules.map((m, i) => ({ in: headModuleId(m.file, m.keys), out: `head-${i}` })),
      outdir: dir,
      write: false,
      minify: false,
    });
    const found = [];
    modules.forEach((m, i) => {
      const output = Object.entries(result.metafile.outputs).find(([out]) => path.basename(out) === `head-${i}.js`)?.[1];
      const chain = output === undefined ? undefined : importChain(result.metafile.inputs, output.entryPoint, isZod);
      if (chain !== undefined)
        found.push({
          file: m.file,
          reason: `it reaches zod (${chain.map((c) => c.replace(/^tool-head:[^?]*\?.*$/, 'its head module')).join(' → ')})`,
        });
    });
    return found;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const isZod = (input) => /(^|\/)node_modules\/zod\//.test(input);

/** The shortest chain of imports from `from` to an input `wanted` accepts, or undefined. */
function importChain(inputs, from, wanted) {
  const back = new Map([[from, undefined]]);
  const queue = [from];
  while (queue.length > 0) {
    const at = queue.shift();
    if (wanted(at)) {
      const chain = [];
      for (let step = at; step !== undefined; step = back.get(step)) chain.unshift(step);
      return chain;
    }
    for (const i of inputs[at]?.imports ?? []) {
      if (i.external || back.has(i.path)) continue;
      back.set(i.path, at);
      queue.push(i.path);
    }
  }
  return undefined;
}
