import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { LogLevel } from '../log.ts';
import { parseLogLevel, parseMode, splitList, type FlagSettings } from '../runtime/settings.ts';
import { editDistance, suggestion, unknownName } from '../config/did-you-mean.ts';
import { quickParse } from '../startup/quick-parse.ts';
import { UsageError } from './usage.ts';
import { TASK_PRESETS } from './command-table.ts';
import { DIALECTS } from '../core/dialects.ts';

// The tables live with the command tree (data only), so the completion reads the same ones.
export { commonOptions, modeOptions } from './command-table.ts';

/**
 * node:util parseArgs, with its errors turned into usage errors for `command` that name the flag
 * and the fix. The forms nearly every command line takes are read without it (src/startup/quick-parse.ts).
 */
export function parse<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O, command: string) {
  const quick = quickParse(argv, options);
  if (quick !== undefined) return quick as ReturnType<typeof parseStrict<O>>;
  return parseStrict(argv, options, command);
}

function parseStrict<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O, command: string) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(argsError(argv, options, err as Error & { code?: string }), command);
  }
}

/**
 * What was wrong with the command line, said the way this CLI says things:
 * parseArgs' own text names internals (`<value>`, "positional argument") and
 * guesses nothing. The tokens of a lenient parse find the flag at fault.
 */
function argsError(argv: string[], options: NonNullable<ParseArgsConfig['options']>, err: Error & { code?: string }): string {
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
      const known = Object.keys(options).map(flag);
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

type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;

function pick<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag}: ${unknownName('value', value, allowed)}`);
}

export function flagSettings(values: Values): FlagSettings {
  const list = (v: unknown) => (Array.isArray(v) ? v.flatMap((s) => splitList(String(s))) : undefined);
  let mode = typeof values.mode === 'string' ? parseMode(values.mode, '--mode') : undefined;
  if (values.yolo === true) {
    if (mode !== undefined && mode !== 'yolo') throw new UsageError('--yolo and --mode are exclusive; give one');
    mode = 'yolo';
  }
  return {
    recipe: values.recipe as string | undefined,
    workspace: values.workspace as string | undefined,
    mode,
    disableTools: list(values['disable-tools']),
    enableTools: list(values['enable-tools']),
    dialect: typeof values.dialect === 'string' ? pick(values.dialect, DIALECTS, '--dialect') : undefined,
    logLevel:
      typeof values['log-level'] === 'string' ? parseLogLevel(values['log-level'], '--log-level') : (undefined as LogLevel | undefined),
    bashSearchGate:
      typeof values['bash-search-gate'] === 'string'
        ? pick(values['bash-search-gate'], ['enforce', 'warn', 'allow'] as const, '--bash-search-gate')
        : undefined,
    task: typeof values.task === 'string' ? pick(values.task, TASK_PRESETS, '--task') : undefined,
    noDigest: values['no-mcp-digest'] === true ? true : undefined,
    trustWorkspace: values['trust-workspace'] === true ? true : undefined,
  };
}
