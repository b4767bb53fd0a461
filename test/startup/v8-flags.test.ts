// src/startup/v8-flags.ts: a code cache made after V8's flags changed mid-run is made under the
// flags the CLI was compiled with, so the next start (compiling under those) takes it. V8's
// flags are process-wide: each case runs in processes of its own — one that makes a cache the
// way the CLI does, and one that starts as the next start would and loads it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const flagsModule = JSON.stringify(path.resolve(import.meta.dirname, '../../src/startup/v8-flags.ts'));
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'v8-flags-'));
  // MAKE: the start's flags (before the CLI is compiled), the compile, the run's changes, the cache.
  writeFileSync(
    path.join(dir, 'make.mjs'),
    `import { Script } from 'node:vm';
import { writeFileSync } from 'node:fs';
const { setV8Flags, cliCompiled, asCompiled } = await import(${flagsModule});
const [start, during, how] = JSON.parse(process.env.PLAN);
setV8Flags(start);
cliCompiled(process.env);
const script = new Script('function f() { return 1 } f();' + ' '.repeat(64));
script.runInThisContext();
setV8Flags(during);
writeFileSync(process.env.OUT, how === 'asCompiled' ? asCompiled(() => script.createCachedData()) : script.createCachedData());
`,
  );
  // LOAD: the next start, with the start's flags only.
  writeFileSync(
    path.join(dir, 'load.mjs'),
    `import { Script } from 'node:vm';
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
for (const f of JSON.parse(process.env.PLAN)[0]) setFlagsFromString(f);
const script = new Script('function f() { return 1 } f();' + ' '.repeat(64), { cachedData: readFileSync(process.env.OUT) });
process.stdout.write(script.cachedDataRejected ? 'rejected' : 'accepted');
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function nextStart(plan: [string[], string[], 'asCompiled' | 'now'], nodeFlags: string[] = []): string {
  const out = path.join(dir, 'cache.bin');
  const env = { PATH: process.env.PATH, PLAN: JSON.stringify(plan), OUT: out };
  const made = spawnSync(process.execPath, [...nodeFlags, path.join(dir, 'make.mjs')], { encoding: 'utf8', env });
  expect(made.status, made.stderr).toBe(0);
  const loaded = spawnSync(process.execPath, [...nodeFlags, path.join(dir, 'load.mjs')], { encoding: 'utf8', env });
  expect(loaded.status, loaded.stderr).toBe(0);
  return loaded.stdout;
}

const WASM = ['--no-wasm-tier-up', '--no-wasm-dynamic-tiering'];
const DAEMON = ['--semi-space-growth-factor=1', '--no-opt', '--no-maglev', '--no-sparkplug', ...WASM];

describe('a cache made after the flags changed', () => {
  it.each([
    // The control: made under the changed flags, the next start refuses it.
    ['a command, WebAssembly held down mid-run, made as is', [[], WASM, 'now'], 'rejected'],
    ['a command, WebAssembly held down mid-run', [[], WASM, 'asCompiled'], 'accepted'],
    ['a command, nothing changed', [[], [], 'asCompiled'], 'accepted'],
    ['a command, flags set and set back', [[], ['--expose-gc', '--no-expose-gc'], 'asCompiled'], 'accepted'],
    ['a daemon, compilers back on, made as is', [DAEMON, ['--opt', '--maglev', '--sparkplug'], 'now'], 'rejected'],
    ['a daemon, compilers back on', [DAEMON, ['--opt', '--maglev', '--sparkplug'], 'asCompiled'], 'accepted'],
    // Already at that value since the start: no change at all.
    ['a daemon, WebAssembly held down again', [DAEMON, WASM, 'now'], 'accepted'],
    ['`_` and `-` alike', [[], ['--no-wasm_tier_up', '--no-wasm-dynamic-tiering'], 'asCompiled'], 'accepted'],
  ] as const)('%s', (_what, plan, expected) => {
    expect(nextStart(plan as unknown as [string[], string[], 'asCompiled' | 'now'])).toBe(expected);
  });

  // A flag the user gave Node was theirs at the start: setting it again changed nothing, and
  // setting it "back" would make the cache under flags no start has.
  it.each([
    ['on the command line', ['--no-wasm-tier-up']],
    ['spelled with _', ['--no-wasm_tier_up']],
    // The opposite of what the run sets: the cache is made under the user's value, not V8's default.
    ['with the other value', ['--wasm-tier-up']],
    ['twice, the last one theirs', ['--no-wasm-tier-up', '--wasm-tier-up']],
  ])('a flag the user gave Node (%s) is left as theirs', (_where, nodeFlags) => {
    expect(nextStart([[], WASM, 'asCompiled'], nodeFlags)).toBe('accepted');
  });

  it('the control: with the other value given, a cache made as is is refused', () => {
    expect(nextStart([[], WASM, 'now'], ['--wasm-tier-up'])).toBe('rejected');
  });
});
