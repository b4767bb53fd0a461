#!/usr/bin/env node
// The entry. --version and --help are answered from src/cli/main-help.ts alone; every other
// command line imports the CLI (src/cli/start.ts). The build makes this module a file of its own
// (dist/core-agent.mjs, a few KB) and the CLI another (dist/core-agent-cli.mjs): --version never
// reads, compiles or evaluates the CLI's file (test/cli/startup.cases.ts holds it).
import { enableCliCompileCache } from './cli/compile-cache.ts';
import { fdOutput } from './util/fd-output.ts';
import { nodeVersionProblem, quickAnswer } from './cli/main-help.ts';
import { startAsDaemon, startsAsDaemon } from './cli/daemon-start.ts';

const argv = process.argv.slice(2);
// First of all: an old Node would otherwise fail later, on a missing built-in (node:sqlite).
const oldNode = nodeVersionProblem(process.versions.node);
const answer = oldNode === undefined ? quickAnswer(argv) : undefined;
if (oldNode !== undefined) {
  fdOutput(2, () => undefined)(oldNode);
  process.exitCode = 2;
} else if (answer !== undefined) fdOutput(1, () => process.exit(0))(answer);
else {
  // Before the import: evaluating the CLI is what grows the young generation and what the
  // compilers would optimize. And before the code cache: V8 rejects code cached under other
  // flags, so the daemons get a cache directory of their own instead of recompiling the CLI
  // whenever the last command was another.
  if (startsAsDaemon(argv, process.env)) startAsDaemon(process.env);
  // Before the import: the code cache covers the modules loaded after it is on.
  enableCliCompileCache(process.env);
  await (await import('./cli/start.ts')).start(argv, process.env);
}
