import type { ParseArgsConfig } from 'node:util';

/** src/cli/command-table.ts's OptionTable: util.parseArgs's options (only the type: node:util is not loaded). */
type OptionTable = NonNullable<ParseArgsConfig['options']>;

// The command line as `util.parseArgs({ strict: true, allowPositionals: true })` reads it, for
// the forms nearly every command line takes — `--name`, `--name value`, `--name=value`, `-x`,
// `-x value`, `-xvalue`, positionals, `--` — without loading node:util: its module and the
// parser's first run cost ~1.5 ms of every start (~0.02× `node -e 0`, docs/benchmarks.md).
// Anything else — an unknown flag, a value missing or starting with "-", a boolean given a
// value, a group of short flags — is left to parseArgs itself (undefined here), which either
// reads it or throws the error src/cli/common-options.ts words for the user. So a command line
// is read exactly as parseArgs reads it, or by parseArgs: test/startup/quick-parse.test.ts holds the
// two equal over a matrix of command lines and every table of src/cli/command-table.ts.

export interface Parsed {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
}

/** `argv` read against `options`, or undefined where parseArgs must decide. */
export function quickParse(argv: readonly string[], options: OptionTable): Parsed | undefined {
  // parseArgs' own objects have no prototype: `values.constructor` is not a flag.
  const values: Parsed['values'] = Object.create(null) as Parsed['values'];
  const positionals: string[] = [];
  const set = (name: string, value: string | boolean): void => {
    if (options[name]!.multiple) ((values[name] ??= []) as Array<string | boolean>).push(value);
    else values[name] = value;
  };
  // A value taken from the next argument: parseArgs refuses one that looks like a flag.
  const next = (i: number): string | undefined => {
    const value = argv[i + 1];
    return value === undefined || (value.length > 1 && value[0] === '-') ? undefined : value;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.length < 2 || arg[0] !== '-') {
      positionals.push(arg);
      continue;
    }
    if (arg[1] === '-') {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      const spec = Object.hasOwn(options, name) ? options[name]! : undefined;
      if (spec === undefined) return undefined;
      if (spec.type === 'boolean') {
        if (eq !== -1) return undefined;
        set(name, true);
      } else if (eq !== -1) set(name, arg.slice(eq + 1));
      else {
        const value = next(i);
        if (value === undefined) return undefined;
        set(name, value);
        i++;
      }
      continue;
    }
    const name = shortName(arg[1]!, options);
    if (name === undefined) return undefined;
    const spec = options[name]!;
    if (arg.length > 2) {
      // `-xVALUE` for a string flag; for a boolean, a group of flags (`-hC`): parseArgs' to read.
      if (spec.type !== 'string') return undefined;
      set(name, arg.slice(2));
    } else if (spec.type === 'boolean') set(name, true);
    else {
      const value = next(i);
      if (value === undefined) return undefined;
      set(name, value);
      i++;
    }
  }
  return { values, positionals };
}

function shortName(char: string, options: OptionTable): string | undefined {
  for (const name in options) if (options[name]!.short === char) return name;
  return undefined;
}
