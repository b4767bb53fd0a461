// src/startup/quick-parse.ts reads a command line exactly as util.parseArgs (strict, positionals
// allowed) does, or leaves it to parseArgs. Held here by comparison: every option table of
// src/cli/command-table.ts, every command line of up to two words from a pool of the forms a
// user or a script types (and the mistakes), and a few thousand longer ones.
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as tables from '../../src/cli/command-table.ts';
import type { OptionTable } from '../../src/cli/command-table.ts';
import { parse } from '../../src/cli/common-options.ts';
import { quickParse } from '../../src/startup/quick-parse.ts';
import { UsageError } from '../../src/cli/usage.ts';

/** Every option table the module exports: an object whose every value has a `type`. */
const isTable = (v: unknown): v is OptionTable =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  Object.values(v).every((o) => typeof (o as { type?: unknown }).type === 'string');
const TABLES: Array<[string, OptionTable]> = Object.entries(tables as Record<string, unknown>).flatMap(([name, v]) =>
  isTable(v) ? [[name, v] as [string, OptionTable]] : [],
);

const POOL = [
  ...['--json', '--help', '-h', '--yolo', '--all', '--no-mcp-digest', '--trust-workspace', '--continue', '-C', '--autonomous'],
  ...['--recipe', '-c', '--workspace', '-w', '--model', '-m', '--mode', '--output', '-o', '--disable-tools', '--allow'],
  ...['--recipe=r.yaml', '--recipe=', '--recipe==x', '-cr.yaml', '-c-x', '-ojson', '--output=json', '--mode=plan'],
  ...['r.yaml', 'json', 'a,b', 'replay:x.jsonl', 'hello world', '', '-', '--', '-5', '-1.5', '---x'],
  ...['--help=1', '--json=false', '-hC', '-Ch', '-hc', '--unknown', '-z', '--=x', '--', '--constructor', '--toString', '--__proto__', '-é'],
];

/** What parseArgs makes of `argv`, or undefined when it refuses it. */
function reference(argv: string[], options: OptionTable) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch {
    return undefined;
  }
}

function check(argv: string[], options: OptionTable): 'quick' | 'deferred' {
  const quick = quickParse(argv, options);
  if (quick === undefined) return 'deferred';
  const expected = reference(argv, options);
  // Never a reading where parseArgs refuses, and never another reading.
  expect({ argv, result: quick }).toStrictEqual({ argv, result: expected });
  return 'quick';
}

function* lines(): Generator<string[]> {
  yield [];
  for (const a of POOL) {
    yield [a];
    for (const b of POOL) yield [a, b];
  }
  // Longer lines from a fixed sequence: the same every run.
  let seed = 19;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  for (let n = 0; n < 3000; n++) {
    const length = 3 + Math.floor(random() * 5);
    yield Array.from({ length }, () => POOL[Math.floor(random() * POOL.length)]!);
  }
}

describe('quickParse', () => {
  it.each(TABLES)('reads every command line as parseArgs does, with %s', (_name, options) => {
    const counts = { quick: 0, deferred: 0 };
    for (const argv of lines()) counts[check(argv, options)]++;
    // The matrix exercises both sides.
    expect(counts.quick).toBeGreaterThan(300);
    expect(counts.deferred).toBeGreaterThan(1000);
  });

  it('reads the command lines users type without parseArgs', () => {
    const typed: Array<[string[], OptionTable]> = [
      [['--json'], tables.TOOLS_LIST_OPTIONS],
      [[], tables.TOOLS_LIST_OPTIONS],
      [['-c', 'recipes/incident.yaml', '--json', '--workspace', '/srv/app'], tables.TOOLS_LIST_OPTIONS],
      [['read_file', '{"path": "README.md"}', '--yolo'], tables.TOOLS_CALL_OPTIONS],
      [['-m', 'replay:/tmp/x.jsonl', '--session-db', ':memory:', 'hello'], tables.RUN_OPTIONS],
      [['-o', 'json', '--allow', 'bash(git *)', '--allow', 'read_file', '--', '-starts with a dash'], tables.RUN_OPTIONS],
      [['--recipe=incident.yaml', '--listen', '127.0.0.1:8080'], tables.WATCH_OPTIONS],
      [['--disable-tools', 'bash,web_fetch', '-ojson', 'fix the build'], tables.RUN_OPTIONS],
    ];
    for (const [argv, options] of typed) expect(check(argv, options)).toBe('quick');
    expect(quickParse(['--allow', 'a', '--allow', 'b'], tables.RUN_OPTIONS)?.values.allow).toEqual(['a', 'b']);
  });

  it('leaves the mistakes to parseArgs, so parse words them as before', () => {
    expect(quickParse(['--recipe'], tables.TOOLS_LIST_OPTIONS)).toBeUndefined();
    expect(() => parse(['--recipe'], tables.TOOLS_LIST)).toThrow(UsageError);
    expect(() => parse(['--recipe'], tables.TOOLS_LIST)).toThrow('--recipe needs a value: --recipe VALUE');
    expect(() => parse(['--jsno'], tables.TOOLS_LIST)).toThrow(/unknown option --jsno — did you mean "--json"\?/);
    expect(() => parse(['--model', '-x'], tables.RUN)).toThrow('--model: its value starts with "-"; write --model=VALUE');
    expect(() => parse(['--json=1'], tables.TOOLS_LIST)).toThrow('--json takes no value');
    // A group of short flags parseArgs reads itself.
    expect(parse(['-hC'], tables.RUN).values).toMatchObject({ help: true, continue: true });
  });
});
