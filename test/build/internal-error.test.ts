// An internal error's stack from the CLI's built script (minified without keepNames) is printed
// mapped back to the sources through the map the build writes beside the script
// (src/cli/internal-error.ts, scripts/bundle/esbuild-options.mjs finishCliScript). A fixture is built
// with the product's own options and run as src/startup/cli-script.ts runs the CLI: compiled
// through node:vm under its file name.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SourceMap } from 'node:module';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SCRIPT_RUNNER } from '../helpers/cli-script-runner.ts';
import { CLI_FILE, cliScriptOptions, esbuildOptions, finishCliScript, TOOLS_FILE } from '../../scripts/bundle/esbuild-options.mjs';

const root = path.resolve(import.meta.dirname, '../..');
let dir: string;
let script: string;

const INNER = `export function innerFunction(value: unknown): number {
  return (value as { deep: { x: number } }).deep.x;
}
export class Thrower {
  throwNow(): never {
    throw new RangeError('from a method');
  }
}
`;
// Each case of how the error reaches internalErrorText: thrown through nested calls, through an
// async function, from a class's method, with its stack already read, and not an Error at all.
const ENTRY = `import { internalErrorText } from ${JSON.stringify(path.join(root, 'src/cli/internal-error.ts'))};
import { innerFunction, Thrower } from './inner.ts';
function outerFunction(v: unknown): number {
  return innerFunction(v) + 1;
}
async function asyncMain(v: unknown): Promise<number> {
  await Promise.resolve();
  return outerFunction(v);
}
export async function start(how: string): Promise<string> {
  try {
    if (how === 'async') await asyncMain(null);
    else if (how === 'method') new Thrower().throwNow();
    else if (how === 'string') throw 'a plain string';
    else outerFunction(null);
    return 'no error';
  } catch (err) {
    if (how === 'read') void (err as Error).stack;
    return internalErrorText(err);
  }
}
`;

function run(how: string): string {
  const r = spawnSync(process.execPath, [path.join(dir, 'run.cjs'), script, how], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.stdout;
}
const frames = (text: string) => text.split('\n').filter((l) => l.startsWith('    at '));

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'internal-error-'));
  await writeFile(path.join(dir, 'inner.ts'), INNER);
  await writeFile(path.join(dir, 'entry.ts'), ENTRY);
  await writeFile(path.join(dir, 'run.cjs'), CLI_SCRIPT_RUNNER);
  script = path.join(dir, 'out', 'cli.js');
  const result = await build({ ...cliScriptOptions(await esbuildOptions(path.join(dir, 'entry.ts'), script)), absWorkingDir: root });
  await finishCliScript(script, result);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('an internal error from the built script', () => {
  it('names each frame’s function as written, at its source line', () => {
    const text = run('sync');
    expect(text.split('\n')[0]).toBe("core-agent: internal error: TypeError: Cannot read properties of null (reading 'deep')");
    const at = frames(text);
    expect(at[0]).toMatch(/^ {4}at innerFunction \(.*inner\.ts:2:\d+\)$/);
    expect(at[1]).toMatch(/^ {4}at outerFunction \(.*entry\.ts:4:\d+\)$/);
    expect(at[2]).toMatch(/^ {4}at start \(.*entry\.ts:15:\d+\)$/);
    expect(text).not.toContain('cli.js:');
  });

  it('maps an async function’s frames and a method’s', () => {
    const async = frames(run('async'));
    expect(async[0]).toMatch(/at innerFunction \(.*inner\.ts:2:/);
    expect(async[1]).toMatch(/at outerFunction \(.*entry\.ts:4:/);
    expect(async[2]).toMatch(/at asyncMain \(.*entry\.ts:8:/);
    expect(async.some((l) => /at async start \(.*entry\.ts:12:/.test(l))).toBe(true);
    const method = run('method');
    expect(method.split('\n')[0]).toBe('core-agent: internal error: RangeError: from a method');
    expect(frames(method)[0]).toMatch(/at .*throwNow \(.*inner\.ts:6:/);
  });

  it('maps the positions of a stack already read, keeping the names V8 wrote', () => {
    const text = run('read');
    expect(text.split('\n')[0]).toBe("core-agent: internal error: TypeError: Cannot read properties of null (reading 'deep')");
    expect(frames(text)[0]).toMatch(/inner\.ts:2:\d+\)$/);
    expect(frames(text)[1]).toMatch(/entry\.ts:4:\d+\)$/);
    expect(text).not.toContain('cli.js:');
  });

  it('prints a thrown value that is not an Error as it is', () => {
    expect(run('string')).toBe('core-agent: internal error: a plain string\n');
  });

  it('prints the stack unmapped when the map is missing or unreadable', async () => {
    const map = await readFile(`${script}.map`, 'utf8');
    try {
      await rm(`${script}.map`);
      expect(frames(run('sync'))[0]).toMatch(/cli\.js:\d+:\d+\)$/);
      await writeFile(`${script}.map`, '{ not json');
      expect(frames(run('sync'))[0]).toMatch(/cli\.js:\d+:\d+\)$/);
      await writeFile(`${script}.map`, JSON.stringify({ version: 3, sources: [], names: [], mappings: '' }));
      expect(frames(run('sync'))[0]).toMatch(/cli\.js:\d+:\d+\)$/);
    } finally {
      await writeFile(`${script}.map`, map);
    }
  });
});

describe.each([CLI_FILE, TOOLS_FILE])('dist’s script %s and its map', (name) => {
  const file = path.join(root, 'dist', name);

  it('is built without keepNames, with a map beside it that names no build directory', async () => {
    const text = await readFile(file, 'latin1');
    // keepNames' helper sets `name` on every function: `Object.defineProperty(f, "name", …)`.
    expect(text).not.toMatch(/\(\w+,"name",\{value:\w+,configurable:!0\}\)/);
    const map = JSON.parse(await readFile(`${file}.map`, 'utf8')) as { sources: string[]; mappings: string };
    expect(map.sources.some((s) => s.startsWith('../src/'))).toBe(true);
    expect(map.sources.filter((s) => s.includes(root))).toEqual([]);
    expect(map.mappings.startsWith(';')).toBe(true);
  });

  it('maps a position in the script to its source line, past the identity line', async () => {
    const lines = (await readFile(file, 'latin1')).split('\n');
    const sourceLines = (await readFile(path.join(root, 'src/cli/internal-error.ts'), 'utf8')).split('\n');
    const line = lines.findIndex((l) => l.includes('core-agent: internal error: '));
    const column = lines[line]!.indexOf('core-agent: internal error: ');
    const map = new SourceMap(JSON.parse(await readFile(`${file}.map`, 'utf8')));
    const entry = map.findEntry(line, column) as { originalSource: string; originalLine: number };
    expect(entry.originalSource).toMatch(/src\/cli\/internal-error\.ts$/);
    expect(sourceLines[entry.originalLine]).toContain('core-agent: internal error: ');
  });
});
