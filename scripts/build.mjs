// Builds dist/core-agent.mjs: one self-contained ESM file that runs with
// `node dist/core-agent.mjs` and needs no node_modules. Beside it goes one
// companion, the static ripgrep binary (dist/rg), which grep and glob use when
// present; without it they fall back to the in-process RE2 engine.
import { chmod, copyFile, mkdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { stat } from 'node:fs/promises';
import { buildBundle, root } from './esbuild-options.mjs';

await rm(`${root}/dist`, { recursive: true, force: true });
await mkdir(`${root}/dist`, { recursive: true });
await buildBundle(`${root}/src/main.ts`, `${root}/dist/core-agent.mjs`);
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

const { size: bytes } = await stat(`${root}/dist/core-agent.mjs`);
console.log(`build: dist/core-agent.mjs ${(bytes / 1024).toFixed(0)} KiB (+ dist/rg)`);
