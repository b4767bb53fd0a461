import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { bundle } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';

// tree-sitter's bash grammar has one 160 KB lexer function; tiered up to TurboFan it took
// ~600 MB of compiler memory for every bash call of more than a few words. src/startup/embedded.ts
// keeps WebAssembly on Liftoff by setting V8's flags before the first embedded chunk (every
// WebAssembly module is in one) is decoded. V8's own trace says which compiler compiled each
// function: with the flags, only Liftoff. (Without them, this command line was compiled by
// TurboFan twice in every one of four runs, and the process peaked at 603 MiB.)
const LINE = `echo ${'a b c d e f g h i j k l m n o p q r s t u v w x y z '.repeat(2)}| tr a-z A-Z | grep -v Q | sed s/A/B/ | cat`;

describe('WebAssembly stays on the baseline compiler', () => {
  it('a bash call of sixty words parses with Liftoff only, never TurboFan', async () => {
    const cwd = await tempDir();
    const r = spawnSync(
      process.execPath,
      ['--trace-wasm-compilation-times', bundle, 'tools', 'call', 'bash', JSON.stringify({ command: LINE }), '--yolo'],
      { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: cwd }, maxBuffer: 64 * 1024 * 1024 },
    );
    expect(r.status, r.stderr).toBe(0);
    const trace = `${r.stdout}\n${r.stderr}`;
    expect(trace).toMatch(/using Liftoff/);
    expect(trace.match(/using TurboFan.*/g) ?? []).toEqual([]);
  });
});
