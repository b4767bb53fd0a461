// The built-in tools' heads (src/tools/tool-head.ts), computed at build time from the tool
// files themselves: a bundle that imports every family's files eagerly, checks each with
// familyTools (one definition per file) and prints each tool's head, run by this Node. The
// product bundle then registers the catalog from the heads (scripts/bundle/tool-family.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { companionFile, toolFamilyFiles } from './tool-family.mjs';

/** Every family folder under src/tools (a folder with an index.ts and tool files) and its tool files. */
export function toolFamilies(root) {
  const tools = path.join(root, 'src/tools');
  return readdirSync(tools, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(tools, d.name, 'index.ts')))
    .map((d) => ({ family: d.name, files: toolFamilyFiles(path.join(tools, d.name)) }))
    .filter((f) => f.files.length > 0);
}

/** `{ [absolute tool file]: { export, head } }` for every built-in tool. */
export async function computeToolHeads(root, esbuildOptions) {
  const families = toolFamilies(root);
  const files = families.flatMap((f) => f.files.map((file) => ({ family: f.family, file })));
  const entry = [
    `import { toolHead } from ${JSON.stringify(path.join(root, 'src/tools/framework/tool-head.ts'))};`,
    `import { familyTools } from ${JSON.stringify(path.join(root, 'src/tools/framework/family.ts'))};`,
    ...files.map((f, i) => `import * as m${i} from ${JSON.stringify(f.file)};`),
    ...files.flatMap((f, i) => (companionFile(f.file) ? [`import * as h${i} from ${JSON.stringify(companionFile(f.file))};`] : [])),
    'const out = {};',
    'const add = (family, file, m, h) => {',
    '  const [tool] = familyTools(family, [{ file: file.split("/").pop(), exports: m }]);',
    '  out[file] = { export: Object.keys(m).find((k) => m[k] === tool), head: toolHead(tool, h) };',
    '};',
    ...files.map((f, i) => `add(${JSON.stringify(f.family)}, ${JSON.stringify(f.file)}, m${i}${companionFile(f.file) ? `, h${i}` : ''});`),
    'process.stdout.write(JSON.stringify(out));',
  ].join('\n');
  const dir = mkdtempSync(path.join(tmpdir(), 'core-agent-heads-'));
  try {
    const outfile = path.join(dir, 'heads.mjs');
    const options = await esbuildOptions(path.join(root, 'src/main.ts'), outfile);
    delete options.entryPoints;
    await build({ ...options, stdin: { contents: entry, resolveDir: root, loader: 'js' }, minify: false });
    return JSON.parse(execFileSync(process.execPath, [outfile], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
