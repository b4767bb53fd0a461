#!/usr/bin/env node
// The entry. --version and --help are answered from src/cli/main-help.ts alone; every other
// command line imports the CLI (src/cli/start.ts). In the one-file bundle esbuild keeps a module
// reached only through import() behind a lazy initialiser, so for --version none of the CLI's
// top-level code runs (test/cli/startup.cases.ts holds it).
import { nodeVersionProblem, quickAnswer } from './cli/main-help.ts';

const argv = process.argv.slice(2);
// First of all: an old Node would otherwise fail later, on a missing built-in (node:sqlite).
const oldNode = nodeVersionProblem(process.versions.node);
const answer = oldNode === undefined ? quickAnswer(argv) : undefined;
if (oldNode !== undefined) {
  process.stderr.write(oldNode);
  process.exitCode = 2;
} else if (answer !== undefined) process.stdout.write(answer);
else await (await import('./cli/start.ts')).start(argv, process.env);
