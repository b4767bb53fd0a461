// The build moves the function declarations of the CLI script's lazily evaluated modules into
// their wrappers (scripts/bundle/defer-functions.mjs, run by finishCliScript): a start then creates,
// and its code cache holds, the functions of the modules it evaluates only. A fixture is built
// with the product's own options — modules reached through import(), an import cycle whose
// modules call each other's functions while they are evaluated, async functions, generators, a
// function whose name is assigned — and run as src/startup/cli-script.ts runs the CLI.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { encode } from '@jridgewell/sourcemap-codec';
import { build } from 'esbuild';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SCRIPT_RUNNER } from '../helpers/cli-script-runner.ts';
import { deferModuleFunctions } from '../../scripts/bundle/defer-functions.mjs';
import { CLI_FILE, cliScriptOptions, esbuildOptions, finishCliScript, TOOLS_FILE } from '../../scripts/bundle/esbuild-options.mjs';

const root = path.resolve(import.meta.dirname, '../..');

const FILES: Record<string, string> = {
  // Evaluated first: esbuild wraps it (and what it imports) because it is reached through import().
  'entry.ts': `export async function start(how: string): Promise<string> {
  const lazy = await import('./lazy.ts');
  return lazy.run(how);
}
`,
  'lazy.ts': `import { internalErrorText } from ${JSON.stringify(path.join(root, 'src/cli/internal-error.ts'))};
import { fromCycle, twice } from './cycle-b.ts';
export function double(n: number): number {
  return n * 2;
}
export function factorial(n: number): number {
  return n <= 1 ? 1 : n * factorial(n - 1);
}
export async function later(n: number): Promise<number> {
  await Promise.resolve();
  return double(n) + 1;
}
export function* count(n: number): Generator<number> {
  for (let i = 0; i < n; i++) yield i;
}
function throwsHere(value: unknown): number {
  return (value as { deep: { x: number } }).deep.x;
}
export function counter(): number {
  counter.calls = (counter.calls ?? 0) + 1;
  return counter.calls;
}
counter.calls = 0 as number | undefined;
let replaced = function original(): string {
  return 'original';
};
export function swap(): string {
  return replaced();
}
replaced = function other(): string {
  return 'replaced';
};
export async function run(how: string): Promise<string> {
  if (how === 'throw') {
    try {
      throwsHere(null);
    } catch (err) {
      return internalErrorText(err);
    }
  }
  const values = [double(4), factorial(5), await later(3), [...count(3)].join(','), counter(), counter(), swap(), fromCycle, twice(5)];
  return JSON.stringify(values) + ' ' + [double.name, later.name, count.name].join(',');
}
`,
  // The cycle: lazy.ts imports this module, which calls lazy.ts's double() while it is evaluated.
  'cycle-b.ts': `import { double } from './lazy.ts';
export const fromCycle = double(21);
export function twice(n: number): number {
  return double(n);
}
`,
};

let dir: string;
let script: string;
let plain: string;
let deferred: { moved: number; kept: number };

async function buildFixture(out: string): Promise<import('esbuild').BuildResult<{ metafile: true }>> {
  const result = await build({ ...cliScriptOptions(await esbuildOptions(path.join(dir, 'entry.ts'), out)), absWorkingDir: root });
  return result as import('esbuild').BuildResult<{ metafile: true }>;
}

function run(file: string, how: string): string {
  const r = spawnSync(process.execPath, [path.join(dir, 'run.cjs'), file, how], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.stdout;
}

/** The names of the function declarations at the top level of the script's one function. */
function topLevelFunctions(text: string): string[] {
  const sf = ts.createSourceFile('cli.js', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  let fn: ts.FunctionExpression | undefined;
  sf.forEachChild(function find(n) {
    if (fn === undefined && ts.isFunctionExpression(n)) fn = n;
    else if (fn === undefined) n.forEachChild(find);
  });
  return fn!.body.statements.filter(ts.isFunctionDeclaration).map((f) => f.name!.text);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'defer-functions-'));
  for (const [name, text] of Object.entries(FILES)) await writeFile(path.join(dir, name), text);
  await writeFile(path.join(dir, 'run.cjs'), CLI_SCRIPT_RUNNER);
  await mkdir(path.join(dir, 'out'));
  script = path.join(dir, 'out', 'cli.js');
  deferred = await finishCliScript(script, await buildFixture(script));
  // The same build as esbuild wrote it, for comparison: no map, so nothing is moved.
  plain = path.join(dir, 'out', 'plain.js');
  const result = await buildFixture(plain);
  await rm(`${plain}.map`);
  expect(await finishCliScript(plain, result)).toEqual({ moved: 0, kept: 0 });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('deferring the lazily evaluated modules’ functions', () => {
  it('moves them out of the top level, and the script computes what esbuild’s did', async () => {
    expect(deferred.moved).toBeGreaterThanOrEqual(8);
    const before = topLevelFunctions(await readFile(plain, 'latin1'));
    const after = topLevelFunctions(await readFile(script, 'latin1'));
    expect(before.length).toBeGreaterThanOrEqual(deferred.moved);
    expect(after.length).toBe(before.length - deferred.moved);
    expect(after.length).toBe(deferred.kept);
    const expected = '[8,120,7,"0,1,2",1,2,"replaced",42,10]';
    expect(run(plain, 'values')).toMatch(new RegExp(`^${expected.replace(/[[\]]/g, '\\$&')} `));
    // The functions keep their names (the minified ones: the script is minified without keepNames).
    expect(run(script, 'values')).toBe(run(plain, 'values'));
  });

  it('leaves a function whose name is assigned a declaration', async () => {
    // counter() assigns counter.calls, a property: moved. A module-level `f = …` keeps f.
    const text = 'var x=1;function keep(){return 1}keep=function(){return 2};';
    const code = `(function(){var y=(e,t,n)=>()=>{if(n)throw n[0];try{return e&&(t=e(e=0)),t}catch(r){throw n=[r],r}};${text}var w=y(()=>{x=3});})`;
    // One source for everything: the wrapper and both functions map to m.ts.
    const map = mapOneSource(code, 'm.ts');
    const r = deferModuleFunctions(code, map);
    expect(r).toMatchObject({ moved: 0, kept: 1 });
    expect(r.code).toBe(code);
  });

  it('moves a function with its mappings, so an internal error names it at its source line', () => {
    const text = run(script, 'throw');
    expect(text.split('\n')[0]).toBe("core-agent: internal error: TypeError: Cannot read properties of null (reading 'deep')");
    const frames = text.split('\n').filter((l) => l.startsWith('    at '));
    expect(frames[0]).toMatch(/^ {4}at throwsHere \(.*lazy\.ts:17:\d+\)$/);
    expect(frames[1]).toMatch(/^ {4}at run \(.*lazy\.ts:\d+:\d+\)$/);
    expect(text).not.toContain('cli.js:');
  });

  it('refuses an __esm helper of another shape', () => {
    const code = `(function(){var y=(e,t,n)=>()=>{if(n)throw n[0];try{return e&&(t=e()),t}catch(r){throw n=[r],r}};function f(){}var w=y(()=>{f()});})`;
    expect(() => deferModuleFunctions(code, mapOneSource(code, 'm.ts'))).toThrow(/__esm helper of another shape/);
  });

  it('refuses a script that does not parse', () => {
    const code = '(function(){var a = ;})';
    expect(() => deferModuleFunctions(code, mapOneSource(code, 'm.ts'))).toThrow(/does not parse at \d+/);
  });

  it('refuses a script that is not one function expression', () => {
    expect(() => deferModuleFunctions('var a = 1;', mapOneSource('var a = 1;', 'm.ts'))).toThrow(/not one function expression/);
  });
});

describe.each([CLI_FILE, TOOLS_FILE])('dist’s script %s', (name) => {
  it('keeps few function declarations at its top level: the lazily evaluated modules’ went into their wrappers', async () => {
    const text = await readFile(path.join(root, 'dist', name), 'latin1');
    // ~1,050 before the pass; what stays are modules whose wrapper maps to no source.
    expect(topLevelFunctions(text.slice(text.indexOf('\n') + 1)).length).toBeLessThan(100);
  });
});

/** A map that puts every token of `code` (one line) in `source`, at its line 1, column 0. */
function mapOneSource(code: string, source: string): string {
  const segments: Array<[number, number, number, number]> = [];
  const re = /[\w$]+|[^\s\w$]/g;
  for (let m = re.exec(code); m !== null; m = re.exec(code)) segments.push([m.index, 0, 0, 0]);
  return JSON.stringify({ version: 3, sources: [source], names: [], mappings: encode([segments]) });
}
