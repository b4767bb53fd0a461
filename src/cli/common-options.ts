import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { LogLevel } from '../log.ts';
import { parseLogLevel, parseMode, splitList, type FlagSettings } from '../runtime/settings.ts';
import { unknownName } from '../config/did-you-mean.ts';
import { UsageError } from './usage.ts';

export const commonOptions = {
  recipe: { type: 'string', short: 'c' },
  workspace: { type: 'string', short: 'w' },
  'disable-tools': { type: 'string', multiple: true },
  'enable-tools': { type: 'string', multiple: true },
  'log-level': { type: 'string' },
  'bash-search-gate': { type: 'string' },
  task: { type: 'string' },
  'no-mcp-digest': { type: 'boolean' },
  'trust-workspace': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

export const modeOptions = {
  mode: { type: 'string' },
  yolo: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

/** node:util parseArgs, with its errors turned into usage errors for `command`. */
export function parse<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O, command: string) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/^TypeError \[\w+\]: /, ''), command);
  }
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
    logLevel:
      typeof values['log-level'] === 'string' ? parseLogLevel(values['log-level'], '--log-level') : (undefined as LogLevel | undefined),
    bashSearchGate:
      typeof values['bash-search-gate'] === 'string'
        ? pick(values['bash-search-gate'], ['enforce', 'warn', 'allow'] as const, '--bash-search-gate')
        : undefined,
    task: typeof values.task === 'string' ? pick(values.task, ['debug', 'research', 'review'] as const, '--task') : undefined,
    noDigest: values['no-mcp-digest'] === true ? true : undefined,
    trustWorkspace: values['trust-workspace'] === true ? true : undefined,
  };
}
