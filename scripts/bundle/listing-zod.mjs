// zod out of the tools' listing script (dist/core-agent-tools.js, src/cli/start-tools.ts). A
// `tools list` evaluates no schema — tools register from their heads (tool-heads.mjs) — yet zod
// was 103 KiB of the script, which every listing read, copied into a string and compiled with
// the rest, and whose functions' records it deserialized from the code cache: 12% of the script
// (docs/startup.md has the figures). In this script each import of zod is a small CommonJS
// module that evaluates the `virtual:zod-chunk` embedded chunk (src/config/zod-entry.ts) the
// first time a module importing zod is evaluated, which a listing does only to read a recipe or
// a tool's settings. One chunk holds every entry the sources import, so they share one zod,
// as they do in the whole CLI, which keeps zod in its own script.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const EMBEDDED_TS = fileURLToPath(new URL('../../src/startup/embedded.ts', import.meta.url));

/** Each zod entry the sources import, and the chunk's export that stands for it (zod-entry.ts). */
export const ZOD_ENTRIES = { 'zod/v4': 'v4', 'zod/v4/mini': 'mini', 'zod/v4/locales/en.js': 'en' };

export const zodFromChunk = {
  name: 'zod-from-chunk',
  setup(b) {
    b.onResolve({ filter: /^zod(\/|$)/ }, (args) => {
      if (args.path in ZOD_ENTRIES) return { path: args.path, namespace: 'zod-from-chunk' };
      // An entry the chunk does not hold would bundle a second zod beside the chunk's.
      return { errors: [{ text: `${args.path}: not in the zod chunk; add it to src/config/zod-entry.ts and ZOD_ENTRIES` }] };
    });
    b.onLoad({ filter: /.*/, namespace: 'zod-from-chunk' }, (args) => ({
      contents: `const { default: source } = require('virtual:zod-chunk');
const { sharedEmbeddedModuleNow } = require(${JSON.stringify(EMBEDDED_TS)});
module.exports = sharedEmbeddedModuleNow(source, 'zod.cjs')[${JSON.stringify(ZOD_ENTRIES[args.path])}];
`,
      resolveDir: path.dirname(EMBEDDED_TS),
      loader: 'js',
    }));
  },
};
