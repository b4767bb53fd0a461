// Builds dist/: the entry dist/core-agent.mjs (src/main.ts, a few KB: it answers --version and
// --help itself), the CLI dist/core-agent-cli.js it loads for every other command (a script the
// entry compiles through node:vm with its code cache, src/startup/cli-script.ts; self-contained, needs
// no node_modules) and the tools' listing script dist/core-agent-tools.js it loads for `tools list` instead
// (src/cli/start-tools.ts: `tools list` and the tools' help, no tool module, zod in a chunk), the embedded chunks'
// data dist/core-agent-chunks.txt (read when a chunk is first used), and the static ripgrep binary dist/rg, which grep and glob use
// when present; without it they fall back to the in-process RE2 engine. Run with
// `node dist/core-agent.mjs`; the files go together (the image copies dist/ whole).
import { chmod, copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { stat } from 'node:fs/promises';
import {
  buildBundle,
  CHUNKS_FILE,
  CLI_FILE,
  cliScriptOptions,
  entryOptions,
  esbuildOptions,
  finishCliScript,
  root,
  TOOLS_FILE,
} from './bundle/esbuild-options.mjs';
import { embeddedTrailer } from './bundle/embedded.mjs';
import { computeToolHeads } from './bundle/tool-heads.mjs';

await rm(`${root}/dist`, { recursive: true, force: true });
await mkdir(`${root}/dist`, { recursive: true });
await buildBundle(
  `${root}/src/main.ts`,
  `${root}/dist/core-agent.mjs`,
  entryOptions(await esbuildOptions(`${root}/src/main.ts`, `${root}/dist/core-agent.mjs`)),
);
// The CLI registers the built-in tools from their heads, computed here from the tool files.
const toolHeads = await computeToolHeads(root, esbuildOptions);
const cli = `${root}/dist/${CLI_FILE}`;
const cliBuild = await buildBundle(
  `${root}/src/cli/start.ts`,
  cli,
  cliScriptOptions(await esbuildOptions(`${root}/src/cli/start.ts`, cli, { toolHeads })),
  `${root}/dist/${CHUNKS_FILE}`,
  toolHeads,
  { writeChunks: false },
);
await finishCliScript(cli, cliBuild);
// The tools' listing script (src/cli/start-tools.ts): the same build from another entry, with no
// tool module (scripts/bundle/tool-family.mjs, listingLoad) and zod in an embedded chunk
// (scripts/bundle/listing-zod.mjs).
const tools = `${root}/dist/${TOOLS_FILE}`;
const toolsBuild = await buildBundle(
  `${root}/src/cli/start-tools.ts`,
  tools,
  cliScriptOptions(await esbuildOptions(`${root}/src/cli/start-tools.ts`, tools, { toolHeads, listing: true })),
  `${root}/dist/${CHUNKS_FILE}`,
  toolHeads,
  { writeChunks: false },
);
await finishCliScript(tools, toolsBuild);
// One chunks file for both scripts: every chunk either uses.
await writeFile(`${root}/dist/${CHUNKS_FILE}`, await embeddedTrailer([...new Set([...cliBuild.usedChunks, ...toolsBuild.usedChunks])]));
await chmod(`${root}/dist/core-agent.mjs`, 0o755);

// The ripgrep binary ships inside the platform package of @vscode/ripgrep (nothing is downloaded).
try {
  const req = createRequire(import.meta.url);
  const rg = req.resolve(`@vscode/ripgrep-${process.platform}-${process.arch}/bin/rg`);
  await copyFile(rg, `${root}/dist/rg`);
  await chmod(`${root}/dist/rg`, 0o755);
} catch (err) {
  console.warn(
    `build: no ripgrep binary for ${process.platform}-${process.arch}; grep/glob will use the in-process engine (${err.message})`,
  );
}

const kib = async (file) => `${((await stat(`${root}/dist/${file}`)).size / 1024).toFixed(0)} KiB`;
console.log(
  `build: dist/core-agent.mjs ${await kib('core-agent.mjs')}, dist/${CLI_FILE} ${await kib(CLI_FILE)}, dist/${TOOLS_FILE} ${await kib(TOOLS_FILE)}, dist/${CHUNKS_FILE} ${await kib(CHUNKS_FILE)} (+ dist/rg)`,
);
