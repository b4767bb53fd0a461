// Builds dist/: the entry dist/core-agent.mjs (src/main.ts, a few KB: it answers --version and
// --help itself), the CLI dist/core-agent-cli.mjs it imports for every other command (ESM, self-
// contained, needs no node_modules), the embedded chunks' data dist/core-agent-chunks.txt (read
// when a chunk is first used), and the static ripgrep binary dist/rg, which grep and glob use
// when present; without it they fall back to the in-process RE2 engine. Run with
// `node dist/core-agent.mjs`; the files go together (the image copies dist/ whole).
import { chmod, copyFile, mkdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { stat } from 'node:fs/promises';
import { buildBundle, CHUNKS_FILE, CLI_FILE, cliAsSibling, esbuildOptions, root } from './esbuild-options.mjs';
import { computeToolHeads } from './tool-heads.mjs';

await rm(`${root}/dist`, { recursive: true, force: true });
await mkdir(`${root}/dist`, { recursive: true });
const entryOptions = await esbuildOptions(`${root}/src/main.ts`, `${root}/dist/core-agent.mjs`);
await buildBundle(`${root}/src/main.ts`, `${root}/dist/core-agent.mjs`, { plugins: [cliAsSibling, ...entryOptions.plugins] });
// The CLI registers the built-in tools from their heads, computed here from the tool files.
const toolHeads = await computeToolHeads(root, esbuildOptions);
await buildBundle(`${root}/src/cli/start.ts`, `${root}/dist/${CLI_FILE}`, {}, `${root}/dist/${CHUNKS_FILE}`, toolHeads);
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
  `build: dist/core-agent.mjs ${await kib('core-agent.mjs')}, dist/${CLI_FILE} ${await kib(CLI_FILE)}, dist/${CHUNKS_FILE} ${await kib(CHUNKS_FILE)} (+ dist/rg)`,
);
