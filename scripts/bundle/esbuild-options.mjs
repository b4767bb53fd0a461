// The esbuild settings shared by the product bundle (scripts/build.mjs) and the
// benchmark harness (bench/run.ts): Node 24 ESM, Markdown descriptions as text,
// the embedded sources and the tool families as virtual modules.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EMBEDDED, embeddedBundleModule, embeddedTrailer } from './embedded.mjs';
import { headModule, parseHeadModuleId } from './head-module.mjs';
import { pinoLean } from './pino-lean.mjs';
import { zodFromChunk } from './listing-zod.mjs';
import { TOOL_FAMILY, toolFamilyLazyModule, toolFamilyModule } from './tool-family.mjs';

export const root = fileURLToPath(new URL('../..', import.meta.url));

const embedded = {
  name: 'embedded-sources',
  setup(b) {
    b.onResolve({ filter: /^virtual:/ }, (args) => (args.path in EMBEDDED ? { path: args.path, namespace: 'embedded' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'embedded' }, (args) => ({
      contents: embeddedBundleModule(args.path),
      resolveDir: root,
      loader: 'js',
    }));
  },
};

// With the tools' heads (the product bundle), each family's tools answer from them and their
// modules are evaluated on first use; without (the heads' own build, tests, benchmarks), the
// family imports its files. `tool-head:<file>?<keys>` is a tool's head module, generated from
// its file (head-module.mjs): what registering it runs, without the rest of the module.
const toolFamily = (heads, { bodies = true } = {}) => ({
  name: 'tool-family',
  setup(b) {
    b.onResolve({ filter: /^tool-head:/ }, (args) => ({ path: args.path, namespace: 'tool-head' }));
    b.onLoad({ filter: /.*/, namespace: 'tool-head' }, async (args) => {
      const { file, keys } = parseHeadModuleId(args.path);
      const made = headModule(await readFile(file, 'utf8'), keys, file);
      if (made.refused !== undefined) return { errors: [{ text: `${file}: no head module: ${made.refused}` }] };
      return { contents: made.source, resolveDir: path.dirname(file), loader: 'ts' };
    });
    b.onResolve({ filter: /^virtual:tool-family$/ }, (args) => ({ path: args.resolveDir, namespace: 'tool-family' }));
    b.onLoad({ filter: /.*/, namespace: 'tool-family' }, (args) => ({
      contents:
        heads === undefined
          ? toolFamilyModule(args.path)
          : toolFamilyLazyModule(args.path, heads, path.join(root, 'src/tools/framework/tool-head.ts'), { bodies }),
      resolveDir: args.path,
      loader: 'js',
    }));
  },
});

// An `import … from 'node:http'` in a one-file ESM bundle stays a static import at the top of the
// output, so every built-in any module imports was loaded at start-up, for --version too (node:http
// alone pulls in Node's bundled undici, node:crypto the WebCrypto tables). Here a static import of a
// built-in becomes a module of its own whose exports load the built-in on first use: evaluating a
// module that imports node:child_process costs nothing until it spawns. The export names are this
// Node's (the build runs on the Node the bundle targets); `__esModule`, which esbuild's interop
// reads when the importing module is evaluated, is none of them. Dynamic import() of a built-in
// is bundled the same way (below).
export function lazyBuiltinModule(id) {
  const keys = Object.keys(requireHere(id)).filter((k) => k !== '__esModule');
  // The getters are defined once, on the prototype of the object the module exports, which owns
  // no property at all. An ES module importing a CommonJS one gets esbuild's __toESM of it: an
  // object whose prototype is the module's own, and a copy of the module's own properties — so
  // here one object with `default`, and nothing copied. With the getters on the object itself
  // each importer got a copy of every export (30 of node:fs's 104 exports at every start); a
  // facade's `export *` made it one copy per built-in, and still two layers of them (~500 KB
  // of a `tools list`). A plain object of getters, not a Proxy: a trap per key cost more than
  // the load it saved. Each getter a method: keepNames (the entry's build keeps names) wraps an
  // arrow function in a `__name(fn, "get")` call, one per export. The object starts with no
  // prototype, which puts V8 in dictionary mode from the first property: an ordinary object
  // took a new hidden class, and a copy of the growing list of properties, for each getter
  // defined (node:fs's 104 took 0.8-1.2 ms of every start, now ~0.2 ms; docs/benchmarks.md).
  // Object.prototype goes back on after: the default import inherits from this object, and
  // node:fs's own has Object.prototype's methods.
  return `let m;
const load = () => (m ??= require(${JSON.stringify(id)}));
const getters = Object.create(null);
for (const k of ${JSON.stringify(keys)}) Object.defineProperty(getters, k, { get() { return load()[k]; }, enumerable: true });
Object.setPrototypeOf(getters, Object.prototype);
module.exports = Object.create(getters);
`;
}

const requireHere = createRequire(import.meta.url);

const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    // import() of a built-in too: the CLI is a script compiled through node:vm (cliScriptOptions), where
    // import() needs an experimental option; bundled, it resolves to the same lazy namespace.
    b.onResolve({ filter: /^node:/ }, (args) =>
      args.kind === 'import-statement' || args.kind === 'dynamic-import'
        ? { path: args.path, namespace: 'lazy-builtin' }
        : { path: args.path, external: true },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({ contents: lazyBuiltinModule(args.path), loader: 'js' }));
  },
};

/** The CLI's own file, beside the entry in dist/: src/startup/cli-script.ts loads it when a command needs it. */
export const CLI_FILE = 'core-agent-cli.js';
/** The tools' script (src/cli/start-tools.ts), which the entry loads for `core-agent tools …` instead. */
export const TOOLS_FILE = 'core-agent-tools.js';
/** The embedded chunks' data, beside the CLI (read on a chunk's first use only). */
export const CHUNKS_FILE = 'core-agent-chunks.txt';

// The entry's build: src/startup/cli-script.ts loads the CLI's script or the tools' from the file
// beside it (__CORE_AGENT_CLI_SCRIPT__, __CORE_AGENT_TOOLS_SCRIPT__), and src/main.ts's import()
// of src/cli/start.ts, for the sources, is left out of the file: the entry holds only src/main.ts
// and what it imports (a few KB), and --version never reads either script.
export const entryOptions = (options) => ({
  ...options,
  define: {
    ...options.define,
    __CORE_AGENT_CLI_SCRIPT__: JSON.stringify(CLI_FILE),
    __CORE_AGENT_TOOLS_SCRIPT__: JSON.stringify(TOOLS_FILE),
  },
  plugins: [
    {
      name: 'cli-left-out',
      setup(b) {
        b.onResolve({ filter: /^\.\/cli\/start\.ts$/ }, (args) =>
          args.kind === 'dynamic-import' && args.importer === path.join(root, 'src/main.ts')
            ? { path: args.path, external: true }
            : undefined,
        );
      },
    },
    ...options.plugins,
  ],
});

/**
 * The CLI's build: a script, not a module — one function expression, `(module, require, url)`,
 * which src/startup/cli-script.ts compiles through node:vm with a code cache it makes after a run.
 * CommonJS output inside it (esbuild's `module.exports`), strict like the module it was, with
 * `import.meta.url` its URL. Its first line, added by finishCliScript, names its content.
 */
export const cliScriptOptions = (options) => ({
  ...options,
  format: 'cjs',
  // No keepNames: its `__name(fn, "name")` call for every function and class of every module the
  // CLI evaluates cost ~0.05× `node -e 0` of `tools list` and ~0.07× of a replayed `run`
  // (docs/benchmarks.md). Nothing reads those names but a stack trace: the error classes set
  // `name` themselves, and an internal error's stack is printed mapped back to the sources,
  // names included, through the map written beside the script (src/cli/internal-error.ts).
  keepNames: false,
  sourcemap: 'external',
  sourcesContent: false,
  define: { ...options.define, 'import.meta.url': '__coreAgentCliUrl' },
  banner: { js: '(function (module, require, __coreAgentCliUrl) {"use strict";' },
  footer: { js: '})' },
});

/**
 * Puts `//core-agent-cli <sha-256 of the rest>` before the script: the code cache's files are
 * named after it (src/startup/cli-script.ts), so another build never finds this one's cache; the
 * script's source map, when there is one, is moved down that line. Refuses a script with an
 * import() left (node:vm would reject it at run time: there is no loader) and one that is not
 * ASCII (esbuild escapes the rest; the loader's reading relies on it).
 */
export async function finishCliScript(file, result) {
  const output = Object.entries(result.metafile.outputs).find(([out]) => path.resolve(root, out) === path.resolve(file))?.[1];
  const dynamic = (output?.imports ?? []).filter((i) => i.kind === 'dynamic-import').map((i) => i.path);
  if (output === undefined || dynamic.length > 0)
    throw new Error(`${file}: the CLI's script must have no import() (found: ${dynamic.join(', ')})`);
  // The `require` src/startup/cli-script.ts gives the script loads Node's built-ins and nothing else.
  const required = output.imports.filter((i) => i.kind !== 'dynamic-import' && !isBuiltin(i.path)).map((i) => i.path);
  if (required.length > 0)
    throw new Error(`${file}: the CLI's script may require Node's built-ins only; bundle the rest (found: ${required.join(', ')})`);
  const text = await readFile(file, 'utf8');
  if (!/^[\x00-\x7f]*$/.test(text)) throw new Error(`${file}: the CLI's script must be ASCII`);
  let mapText;
  try {
    mapText = await readFile(`${file}.map`, 'utf8');
  } catch (err) {
    if (err.code !== 'ENOENT') throw err; // built without a map
  }
  await writeFile(file, `//core-agent-cli ${createHash('sha256').update(text).digest('hex')}\n${text}`);
  if (mapText === undefined) return;
  // The map's generated lines move down one, past the line just added (an empty line of mappings).
  // Virtual modules are named by the build's absolute directory: named from the project's root
  // instead, so the map (and the image) is the same whatever directory it was built in.
  const map = JSON.parse(mapText);
  const sources = map.sources.map((s) => s.replaceAll(root, ''));
  await writeFile(`${file}.map`, JSON.stringify({ ...map, sources, mappings: `;${map.mappings}` }));
}

/**
 * `toolHeads`: scripts/bundle/tool-heads.mjs's result, for a bundle that registers tools from their
 * heads. `listing`: the tools' listing script (src/cli/start-tools.ts), which holds no tool
 * module (tool-family.mjs, listingLoad) and keeps zod in a chunk (listing-zod.mjs).
 */
export async function esbuildOptions(entry, outfile, { toolHeads, listing = false } = {}) {
  const pkg = JSON.parse(await readFile(`${root}/package.json`, 'utf8'));
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    // Without an explicit target the WASM loader emits Uint8Array.fromBase64, which Node 24 lacks.
    target: 'node24',
    minify: true,
    keepNames: true,
    legalComments: 'none',
    loader: { '.md': 'text' },
    define: { __CORE_AGENT_VERSION__: JSON.stringify(pkg.version) },
    // CommonJS dependencies (pino) require() Node built-ins, which ESM output cannot do without this.
    banner: {
      js: "import { createRequire as __coreAgentRequire } from 'node:module'; const require = __coreAgentRequire(import.meta.url);",
    },
    plugins: [...(listing ? [zodFromChunk] : []), lazyBuiltins, pinoLean, embedded, toolFamily(toolHeads, { bodies: !listing })],
    metafile: true,
    logLevel: 'warning',
  };
}

/**
 * Builds one bundle, and writes the data of the embedded chunks it uses (scripts/bundle/embedded.mjs)
 * after its JavaScript or, with `chunksFile`, into that file beside it (src/startup/embedded.ts reads
 * it by the name the bundle is built with): the CLI keeps its 4 MB of chunks in a file of
 * their own, which no start-up reads or decodes; a bench harness stays one file. With
 * `writeChunks: false` the bundle reads a chunks file another build writes (the tools' script
 * reads the CLI's); the result's `usedChunks` says which chunks it needs.
 */
export async function buildBundle(
  entry,
  outfile,
  overrides = {},
  chunksFile = undefined,
  toolHeads = undefined,
  { writeChunks = true } = {},
) {
  const options = { ...(await esbuildOptions(entry, outfile, { toolHeads })), ...overrides };
  if (chunksFile !== undefined) options.define = { ...options.define, __CORE_AGENT_CHUNKS__: JSON.stringify(path.basename(chunksFile)) };
  const result = await build(options);
  const used = Object.keys(EMBEDDED).filter((id) => Object.values(result.metafile.outputs).some((o) => `embedded:${id}` in o.inputs));
  if (chunksFile === undefined) await appendFile(outfile, await embeddedTrailer(used));
  else if (writeChunks) await writeFile(chunksFile, await embeddedTrailer(used));
  return Object.assign(result, { usedChunks: used });
}
