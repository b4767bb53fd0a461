// Help, parsing and completion say the same flags, for every command of the tree
// (src/cli/command-table.ts). Each is read from what a user meets — the --help a command prints,
// the completion script it generates, what its parse accepts and refuses — never from the
// table alone, so a command that parsed with a table of its own, a help that left a flag out or
// named one no parse takes, a completion offering a flag the command refuses, would each fail
// here, naming the command and the flag.
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_MAX_STEPS } from '../../src/agent/agent.ts';
import { COMMAND_TREE, isRefused, type CommandNode, type FlagSpec, type FlagTable } from '../../src/cli/command-table.ts';
import { completionScript } from '../../src/cli/completion-command.ts';
import { ALL_COMMANDS } from '../../src/cli/commands.ts';
import { main } from '../../src/cli/main.ts';
import type { Io } from '../../src/cli/usage.ts';
import { ENV } from '../../src/runtime/settings.ts';

/** Every table a command's parse was handed, in order: the command's own, whatever it imported it as. */
const parsedWith = vi.hoisted(() => [] as FlagTable[]);
vi.mock('../../src/cli/common-options.ts', async (original) => {
  const real = await original<typeof import('../../src/cli/common-options.ts')>();
  return {
    ...real,
    parse: ((argv, node) => {
      parsedWith.push(node.options);
      return real.parse(argv, node);
    }) satisfies typeof real.parse,
  };
});

function io(): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    readStdin: async () => '',
    isTty: false,
    env: {},
    stdout: () => out,
    stderr: () => err,
  };
}

/** Every command path with its node: groups (`tools`) and leaves (`tools call`) alike. */
function commandPaths(): Array<[string, CommandNode]> {
  const out: Array<[string, CommandNode]> = [];
  const walk = (p: string, n: CommandNode) => {
    if (Object.keys(n.options).length > 0) out.push([p, n]);
    for (const [word, child] of Object.entries(n.subcommands ?? {})) walk(`${p} ${word}`, child);
  };
  for (const [word, n] of Object.entries(COMMAND_TREE)) walk(word, n);
  return out;
}

/** The words a flag is typed as. */
const spellings = (name: string, spec: FlagSpec) => [`--${name}`, ...(spec.short ? [`-${spec.short}`] : [])];

const accepted = (table: FlagTable) => Object.entries(table).filter(([, s]) => !isRefused(s));
const refused = (table: FlagTable) => Object.entries(table).filter(([, s]) => isRefused(s));

/** A value the flag's checks take. */
function goodValue(spec: FlagSpec): string[] {
  if (spec.type === 'boolean') return [];
  if (!isRefused(spec) && spec.choices) return [spec.choices[0]!];
  return ['1'];
}

/** The option rows of a help text: each flag's words and the text of its row (its wrapped lines joined). */
function helpRows(help: string): Map<string, { words: string[]; text: string }> {
  const rows = new Map<string, { words: string[]; text: string }>();
  let current: { words: string[]; text: string } | undefined;
  for (const line of help.split('\n')) {
    const m = /^ {2}(?:(-\w), )? {0,4}(--[a-z][\w-]*)(.*)$/.exec(line);
    if (m) {
      current = { words: [m[2]!, ...(m[1] ? [m[1]] : [])], text: m[3]! };
      rows.set(m[2]!, current);
    } else if (current && /^ {30}\S/.test(line)) current.text += ` ${line.trim()}`;
    else current = undefined;
  }
  return rows;
}

/** The flags the bash script completes at `path` (its node's line in `_core_agent_node`). */
function bashFlags(path: string): string[] {
  const line = completionScript('bash')
    .split('\n')
    .find((l) => l.startsWith(`    '${path}')`));
  expect(line, `no completion node for "${path}"`).toBeDefined();
  return (/flags='([^']*)'/.exec(line!)?.[1] ?? '').split(' ').filter(Boolean);
}

async function help(path: string): Promise<string> {
  const out = io();
  parsedWith.length = 0;
  expect(await main([...path.split(' '), '--help'], out, ALL_COMMANDS), `${path} --help: ${out.stderr()}`).toBe(0);
  return out.stdout();
}

describe('flags: help, parse and completion agree, for every command', () => {
  it.each(commandPaths())('%s', async (path, node) => {
    const text = await help(path);
    const leaf = node.subcommands === undefined && path !== 'completion';
    // The table the command parsed its line with is the one the tree (and so help and completion) holds.
    if (leaf) expect(parsedWith.at(-1), `${path} parsed with a table that is not the tree's`).toBe(node.options);

    const wanted = accepted(node.options)
      .flatMap(([name, spec]) => spellings(name, spec))
      .sort();

    // Listed in help, each flag the parse accepts, and nothing else.
    const rows = helpRows(text);
    const listed = [...rows.values()].flatMap((r) => r.words).sort();
    expect(listed, `${path}: --help lists other flags than the parse accepts`).toEqual(wanted);

    // Completed: the same words (the bash node; fish declares each long name on the same path).
    expect(bashFlags(path).sort(), `${path}: the completion offers other flags than the parse accepts`).toEqual(wanted);
    const fish = completionScript('fish');
    for (const [name, spec] of Object.entries(node.options))
      expect(fish.includes(`-n '__core_agent_at "${path}"' -l ${name}`), `${path} --${name} in the fish script`).toBe(!isRefused(spec));

    // Named anywhere in the help (prose included): a flag this command or one of its subcommands accepts.
    const known = new Set(
      [node, ...Object.values(node.subcommands ?? {})].flatMap((n) => accepted(n.options).map(([name]) => `--${name}`)),
    );
    const named = [...new Set(text.match(/(?<![\w-])--[a-z][\w-]*/g) ?? [])];
    expect(
      named.filter((f) => !known.has(f)),
      `${path}: --help names flags no parse of it accepts`,
    ).toEqual([]);

    // Each variable a help row names is the one runtime/settings.ts checks for that flag.
    for (const [flag, row] of rows) {
      const env = /\[env (CORE_AGENT_\w+)/.exec(row.text)?.[1];
      if (env === undefined) continue;
      const entry = Object.values(ENV).find((v) => v.name === env);
      expect(entry?.flag, `${path} ${flag}: [env ${env}] is not the variable of that flag`).toMatch(new RegExp(`(^|, )${flag}$`));
    }

    if (!leaf) return;
    // Parsed: every accepted flag, with a value its checks take.
    for (const [name, spec] of accepted(node.options)) {
      for (const word of spellings(name, spec)) {
        const out = io();
        const code = await main([...path.split(' '), word, ...goodValue(spec), '--help'], out, ALL_COMMANDS);
        expect([word, code, out.stderr()]).toEqual([word, 0, '']);
      }
    }
    // Refused, saying why: every flag the table recognises only to refuse.
    for (const [name, spec] of refused(node.options)) {
      const out = io();
      const code = await main([...path.split(' '), `--${name}`, ...goodValue(spec)], out, ALL_COMMANDS);
      expect([name, code, out.stderr()]).toEqual([name, 2, expect.stringContaining(`--${name} does not apply to ${path}`)]);
    }
  });
});

describe('flags: the defaults and variables help states are the ones that apply', () => {
  it('every CORE_AGENT_* variable that stands in for a flag is said beside that flag in some command', () => {
    const declared = new Set(
      commandPaths().flatMap(([, n]) => accepted(n.options).flatMap(([name, s]) => (!isRefused(s) && s.env ? [`${s.env} --${name}`] : []))),
    );
    for (const v of Object.values(ENV)) {
      const flag = /--[\w-]+$/.exec(v.flag)?.[0];
      if (flag === undefined) continue; // a variable with no flag (the compile cache, ripgrep)
      expect(declared, `${v.name} (${v.flag})`).toContain(`${v.name} ${flag}`);
    }
  });

  it("--max-steps' default is the agent's", () => {
    const spec = COMMAND_TREE.run!.options['max-steps']!;
    expect(!isRefused(spec) && spec.shownDefault).toBe(DEFAULT_MAX_STEPS);
  });

  it('a flag with a fallback has it when the line does not give it', async () => {
    const { parse } = await import('../../src/cli/common-options.ts');
    for (const [path, node] of commandPaths()) {
      const { values } = parse([], node) as { values: Record<string, unknown> };
      for (const [name, spec] of accepted(node.options))
        if (!isRefused(spec) && spec.fallback !== undefined) expect([path, name, values[name]]).toEqual([path, name, spec.fallback]);
    }
  });
});
