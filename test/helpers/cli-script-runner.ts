/**
 * A CommonJS program that runs a built CLI script as src/startup/cli-script.ts does — compiled
 * through node:vm under its file name, called with (module, require, url) — then calls the
 * script's `start(process.argv[3])` and prints the text it resolves to. Usage:
 * `node runner.cjs SCRIPT ARG` (test/build/internal-error.test.ts).
 */
export const CLI_SCRIPT_RUNNER = `const { readFileSync } = require('node:fs');
const { Script } = require('node:vm');
const { createRequire } = require('node:module');
const { pathToFileURL } = require('node:url');
const file = process.argv[2];
const body = new Script(readFileSync(file, 'latin1'), { filename: file }).runInThisContext();
const cli = { exports: {} };
body(cli, createRequire(file), pathToFileURL(file).href);
cli.exports.start(process.argv[3]).then((text) => process.stdout.write(text));
`;
