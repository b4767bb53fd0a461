import { parseArgs } from 'node:util';
import type { LogLevel } from '../log.ts';
import type { PermissionMode } from '../permissions/gate.ts';
import type { Dialect } from '../core/dialects.ts';
import type { SearchGateMode } from '../tools/shell/search-gate.ts';
import { shown, splitList, type FlagSettings } from '../runtime/settings.ts';
import { editDistance, suggestion, unknownName } from '../config/did-you-mean.ts';
import { quickParse } from '../startup/quick-parse.ts';
import { UsageError } from './usage.ts';
import { isRefused, type CommandNode, type Flag, type FlagSpec, type FlagTable, type TASK_PRESETS } from './command-table.ts';

/** What the parse makes of one flag: its checks and conversions are the table's (command-table.ts). */
export type FlagValue<F> = F extends { type: 'boolean' }
  ? boolean
  : F extends { integer: string }
    ? number
    : F extends { decimal: string }
      ? number
      : F extends { multiple: true }
        ? string[]
        : F extends { choices: readonly (infer C)[] }
          ? C
          : string;

type Accepted<T extends FlagTable> = { [K in keyof T as T[K] extends { refused: string } ? never : K]: T[K] };

/** A command line's flags: each given one checked, each with a `fallback` present. */
export type FlagValues<T extends FlagTable> = { readonly [K in keyof Accepted<T>]?: FlagValue<Accepted<T>[K]> } & {
  readonly [K in keyof Accepted<T> as Accepted<T>[K] extends { fallback: unknown } ? K : never]-?: FlagValue<Accepted<T>[K]>;
};

export interface CommandLine<T extends FlagTable> {
  values: FlagValues<T>;
  positionals: string[];
}

/**
 * The command line read against the command's table: node:util parseArgs (or, for the forms
 * nearly every line takes, src/startup/quick-parse.ts, which reads them the same without it), then
 * the table's checks — a refused flag, a value outside its choices, a number that is not one —
 * each a usage error for the command naming the flag and the fix. A line asking for --help is
 * not checked: help is how one finds out what a flag accepts.
 */
export function parse<T extends FlagTable>(argv: string[], node: CommandNode<T>): CommandLine<T> {
  const read = quickParse(argv, node.options) ?? parseStrict(argv, node.options, node.name);
  if (read.values.help === true) return read as unknown as CommandLine<T>;
  return { values: checked(read.values, node.options, node.name) as FlagValues<T>, positionals: read.positionals };
}

function parseStrict(argv: string[], options: FlagTable, command: string) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(argsError(argv, options, err as Error & { code?: string }), command);
  }
}

type RawValues = Record<string, string | boolean | Array<string | boolean> | undefined>;

/** The given values checked against their flags, in the table's order, and the fallbacks of the absent ones. */
function checked(values: RawValues, table: FlagTable, command: string): Record<string, unknown> {
  // parseArgs' own objects have no prototype: `values.constructor` is not a flag.
  const out = Object.create(null) as Record<string, unknown>;
  for (const [name, spec] of Object.entries(table)) {
    const given = values[name];
    if (given === undefined) {
      if (!isRefused(spec) && spec.fallback !== undefined) out[name] = spec.fallback;
      continue;
    }
    out[name] = checkedValue(name, spec, given, command);
  }
  return out;
}

function checkedValue(name: string, spec: FlagSpec, given: string | boolean | Array<string | boolean>, command: string): unknown {
  if (isRefused(spec)) throw new UsageError(`--${name} ${spec.refused}`, command);
  if (typeof given !== 'string') return given;
  if (spec.choices && !spec.choices.includes(given))
    throw new UsageError(`--${name}: ${unknownName(spec.noun ?? 'value', shown(given), spec.choices)}`, command);
  if (spec.integer) return wholeNumber(name, spec, given, command);
  if (spec.decimal) return positiveNumber(name, given, command);
  return given;
}

function positiveNumber(name: string, given: string, command: string): number {
  const n = Number(given);
  if (given.trim() === '' || !Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a number above 0 (e.g. 0.50)`, command);
  return n;
}

function wholeNumber(name: string, spec: Flag, given: string, command: string): number {
  const n = Number(given);
  const least = spec.integer === 'positive' ? 1 : 0;
  if (given.trim() === '' || !Number.isInteger(n) || n < least)
    throw new UsageError(`--${name} must be a ${spec.integer === 'positive' ? 'positive' : 'non-negative'} integer`, command);
  return n;
}

/**
 * What was wrong with the command line, said the way this CLI says things:
 * parseArgs' own text names internals (`<value>`, "positional argument") and
 * guesses nothing. The tokens of a lenient parse find the flag at fault.
 */
function argsError(argv: string[], options: FlagTable, err: Error & { code?: string }): string {
  const flag = (name: string) => `--${name}`;
  // "Option '-p, --prompt' …", or "Option '-p' …" when the short form was typed.
  const ambiguous = /^Option '(?:-\w, )?--([\w-]+)' argument is ambiguous|^Option '-(\w)' argument is ambiguous/.exec(err.message);
  const name = ambiguous?.[1] ?? Object.entries(options).find(([, o]) => ambiguous?.[2] !== undefined && o.short === ambiguous[2])?.[0];
  if (name !== undefined) return `${flag(name)}: its value starts with "-"; write ${flag(name)}=VALUE`;
  const { tokens } = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true });
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    const spec = options[t.name];
    const raw = t.rawName.slice(0, 60);
    if (!spec) {
      // A refused flag is known (its own error says why), so it is not a near miss to offer.
      const known = Object.entries(options)
        .filter(([, s]) => !isRefused(s))
        .map(([k]) => flag(k));
      return `unknown option ${raw}${closestFlags(raw, known)} (a PROMPT that starts with "-" goes after "--")`;
    }
    if (spec.type === 'string' && t.value === undefined) return `${flag(t.name)} needs a value: ${flag(t.name)} VALUE`;
    if (spec.type === 'boolean' && t.inlineValue) return `${flag(t.name)} takes no value`;
  }
  return (err.message.split('\n')[0] ?? '').slice(0, 200);
}

/**
 * ` — did you mean "--model"?`, or both flags a typo is equally close to
 * (`--modle`: `--model` or `--mode`), a same-length one first (a swap is the
 * likelier slip); the empty string when none is close.
 */
function closestFlags(raw: string, known: readonly string[]): string {
  const limit = Math.max(2, Math.floor(raw.length / 3));
  const scored = known.map((k) => ({ k, d: editDistance(raw, k) })).filter((x) => x.d <= limit);
  if (scored.length === 0) return suggestion(raw, known);
  const best = Math.min(...scored.map((x) => x.d));
  const ties = scored
    .filter((x) => x.d === best)
    .map((x) => x.k)
    .sort((a, b) => Number(b.length === raw.length) - Number(a.length === raw.length));
  return ` — did you mean ${ties
    .slice(0, 3)
    .map((k) => `"${k}"`)
    .join(' or ')}?`;
}

/** The flags of the common table, as the command line gave them (already checked by `parse`). */
export interface CommonValues {
  readonly recipe?: string;
  readonly workspace?: string;
  readonly mode?: PermissionMode;
  readonly yolo?: boolean;
  readonly 'disable-tools'?: readonly string[];
  readonly 'enable-tools'?: readonly string[];
  readonly dialect?: Dialect;
  readonly 'log-level'?: LogLevel;
  readonly 'bash-search-gate'?: SearchGateMode;
  readonly task?: (typeof TASK_PRESETS)[number];
  readonly 'no-mcp-digest'?: boolean;
  readonly 'trust-workspace'?: boolean;
}

export function flagSettings(values: CommonValues): FlagSettings {
  const list = (v: readonly string[] | undefined) => v?.flatMap((s) => splitList(s));
  let mode = values.mode;
  if (values.yolo === true) {
    if (mode !== undefined && mode !== 'yolo') throw new UsageError('--yolo and --mode are exclusive; give one');
    mode = 'yolo';
  }
  return {
    recipe: values.recipe,
    workspace: values.workspace,
    mode,
    disableTools: list(values['disable-tools']),
    enableTools: list(values['enable-tools']),
    dialect: values.dialect,
    logLevel: values['log-level'],
    bashSearchGate: values['bash-search-gate'],
    task: values.task,
    noDigest: values['no-mcp-digest'] === true ? true : undefined,
    trustWorkspace: values['trust-workspace'] === true ? true : undefined,
  };
}
