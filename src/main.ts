#!/usr/bin/env node
// The entry. --version and --help are answered from src/cli/main-help.ts alone; every other
// command line loads the CLI (src/cli/start.ts). The build makes this module a file of its own
// (dist/core-agent.mjs, a few KB) and the CLI another (dist/core-agent-cli.js, a script loaded by
// src/startup/cli-script.ts): --version never reads, compiles or evaluates the CLI's file
// (test/cli/startup.cases.ts holds it).
import { loadCli } from './startup/cli-script.ts';
import { fdOutput } from './util/fd-output.ts';
import { COMMANDS, impliedCommand, nodeVersionProblem, quickAnswer } from './cli/main-help.ts';
import { startAsDaemon, startsAsDaemon } from './startup/daemon-start.ts';
import { becomeNonDumpable } from './runtime/non-dumpable.ts';

const argv = process.argv.slice(2);
// First of all: an old Node would otherwise fail later, on a missing built-in (node:sqlite).
const oldNode = nodeVersionProblem(process.versions.node);
const answer = oldNode === undefined ? quickAnswer(argv) : undefined;
if (oldNode !== undefined) {
  fdOutput(2, () => undefined)(oldNode);
  process.exitCode = 2;
} else if (answer !== undefined) fdOutput(1, () => process.exit(0))(answer);
else {
  // First, before a secret is used or a child exists: no other process of this user may read
  // this one's memory. Where node's executable is readable this re-executes the command line
  // from an execute-only copy (same pid) and does not return (src/runtime/non-dumpable.ts).
  becomeNonDumpable(argv, process.env);
  // Before the CLI is compiled: evaluating it is what grows the young generation and what the
  // compilers would optimize, and V8 checks cached code against the flags it was made under,
  // so the daemons' code cache is a file of their own (src/startup/cli-script.ts).
  const daemon = startsAsDaemon(argv);
  if (daemon) startAsDaemon(process.env);
  const words = { commands: COMMANDS, impliedCommand };
  const cli = await loadCli(argv, process.env, { daemon, words, fromSources: () => import('./cli/start.ts') });
  await cli.start(argv, process.env);
}
