import { BUILTIN_TOOL_NAMES } from '../tools/index.ts';
import {
  COMMAND_TREE,
  COMPLETION,
  COMPLETION_SHELLS,
  isRefused,
  REPL_OPTIONS,
  RUN_OPTIONS,
  type CommandNode,
  type FlagSpec,
  type FlagTable,
  type Positional,
  type ValueKind,
} from './command-table.ts';
import { unknownName } from '../config/did-you-mean.ts';
import { commandHelp } from './help-text.ts';
import { EXIT, UsageError, type Io } from './usage.ts';

// `core-agent completion bash|zsh|fish`: a script generated from the tables the commands parse
// (command-table.ts), so a new flag, its values or a subcommand completes without anyone editing
// this file. A flag a command refuses is not offered. The modules imported here are the ones
// main.ts has already evaluated (settings reads the same constants); nothing that builds the
// agent runs.

export const completionHelp = (): string =>
  commandHelp(COMPLETION, {
    about: `Prints a shell completion script for core-agent: commands, subcommands, each
command's flags, and their values where they are known (output formats,
permission modes, log levels, recipe files, built-in tool names for tools call).

  bash   source <(core-agent completion bash)        (in ~/.bashrc)
  zsh    source <(core-agent completion zsh)         (in ~/.zshrc; uses bashcompinit)
  fish   core-agent completion fish > ~/.config/fish/completions/core-agent.fish`,
  });

/** What a flag's value completes to: its choices, else what its table says, else nothing (a free value). */
export function valueKind(spec: FlagSpec): ValueKind | undefined {
  if (isRefused(spec) || spec.type !== 'string') return undefined;
  return spec.choices ?? spec.complete;
}

/** One node of the tree flattened for a script: its path ("sessions list"), the words below it, its flags. */
export interface CompletionNode {
  path: string;
  subcommands: string[];
  flags: string[];
  /** The flags that take a value (the next word is that value, not a command). */
  valued: string[];
  positional: Positional | undefined;
}

/** The root takes the REPL's flags (`core-agent --model X` starts it), run's -p PROMPT (`core-agent -p "…"` runs it) and --version. */
const ROOT: CommandNode = {
  name: '',
  options: { ...REPL_OPTIONS, prompt: RUN_OPTIONS.prompt, version: { type: 'boolean', short: 'v', help: 'print the version' } },
  subcommands: COMMAND_TREE,
};

export function completionNodes(root: CommandNode = ROOT): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const walk = (path: string, node: CommandNode) => {
    nodes.push({ path, subcommands: Object.keys(node.subcommands ?? {}), ...flagWords(node.options), positional: node.positional });
    for (const [name, child] of Object.entries(node.subcommands ?? {})) walk(path ? `${path} ${name}` : name, child);
  };
  walk('', root);
  return nodes;
}

function flagWords(options: FlagTable): { flags: string[]; valued: string[] } {
  const flags: string[] = [];
  const valued: string[] = [];
  for (const [name, spec] of Object.entries(options)) {
    if (isRefused(spec)) continue;
    const words = [`--${name}`, ...(spec.short ? [`-${spec.short}`] : [])];
    flags.push(...words);
    if (spec.type === 'string') valued.push(...words);
  }
  return { flags, valued };
}

export function completionScript(shell: (typeof COMPLETION_SHELLS)[number]): string {
  const nodes = completionNodes();
  if (shell === 'fish') return fishScript(nodes);
  const bash = bashScript(nodes);
  // zsh runs the bash function through bashcompinit; ksh_arrays makes its arrays 0-based like bash's.
  if (shell === 'zsh') return `#compdef core-agent\nautoload -U +X bashcompinit && bashcompinit\n${bash}`;
  return bash;
}

export async function completionCommand(argv: string[], io: Io): Promise<number> {
  const [shell, ...rest] = argv;
  if (shell === undefined || shell === '--help' || shell === '-h' || shell === 'help') {
    (shell === undefined ? io.err : io.out)(`${completionHelp()}\n`);
    return shell === undefined ? EXIT.usage : EXIT.ok;
  }
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]!.slice(0, 60)}"`, 'completion');
  if (!(COMPLETION_SHELLS as readonly string[]).includes(shell))
    throw new UsageError(unknownName('shell', shell.slice(0, 60), COMPLETION_SHELLS), 'completion');
  io.out(completionScript(shell as (typeof COMPLETION_SHELLS)[number]));
  return EXIT.ok;
}

/** A word list as one single-quoted shell word (the words are flag names and fixed values: no quotes inside). */
const q = (words: readonly string[]) => `'${words.join(' ').replaceAll("'", '')}'`;

/**
 * Every flag of the tree that has values to complete, with its short form: the bash script reads
 * a value by the flag's name alone, so one name must complete the same way in every command.
 */
export function flagValues(root: CommandNode = ROOT): Map<string, { kind: ValueKind; short: string | undefined }> {
  const found = new Map<string, { kind: ValueKind; short: string | undefined }>();
  const walk = (node: CommandNode) => {
    for (const [name, spec] of Object.entries(node.options)) {
      const kind = valueKind(spec);
      if (kind === undefined) continue;
      const seen = found.get(name);
      if (seen && JSON.stringify(seen.kind) !== JSON.stringify(kind))
        throw new Error(`--${name} completes differently in two commands; give one of them another name`);
      found.set(name, { kind, short: seen?.short ?? spec.short });
    }
    for (const child of Object.values(node.subcommands ?? {})) walk(child);
  };
  walk(root);
  return found;
}

function bashValueCases(): string {
  const lines: string[] = [];
  for (const [name, { kind, short }] of flagValues()) {
    const pattern = `--${name}${short ? `|-${short}` : ''}`;
    const action =
      kind === 'recipe'
        ? '_core_agent_files recipe "$2"'
        : kind === 'file'
          ? '_core_agent_files file "$2"'
          : kind === 'dir'
            ? '_core_agent_files dir "$2"'
            : `_core_agent_words ${q(kind)} "$2"${kind.every((w) => w.endsWith(':')) ? '; compopt -o nospace 2>/dev/null' : ''}`;
    lines.push(`    ${pattern}) ${action} ;;`);
  }
  return lines.join('\n');
}

function positionalAction(p: Positional | undefined): string {
  if (p === undefined) return 'COMPREPLY=()';
  if (p === 'tool') return `_core_agent_words ${q(BUILTIN_TOOL_NAMES)} "$cur"`;
  if (p === 'recipe' || p === 'file') return `_core_agent_files ${p} "$cur"`;
  return `_core_agent_words ${q(p)} "$cur"`;
}

function bashScript(nodes: CompletionNode[]): string {
  const cases = nodes
    .map(
      (n) =>
        `    ${q([n.path])}) subs=${q(n.subcommands)}; flags=${q(n.flags)}; valued=${q(n.valued)}; _core_agent_positional() { ${positionalAction(n.positional)}; } ;;`,
    )
    .join('\n');
  return `# core-agent completion for bash, generated by \`core-agent completion\` from the flag tables the CLI parses.
_core_agent_node() {
  case "$1" in
${cases}
    *) subs=''; flags=''; valued=''; _core_agent_positional() { COMPREPLY=(); } ;;
  esac
}
_core_agent_words() {
  COMPREPLY=($(compgen -W "$1" -- "$2"))
}
_core_agent_files() {
  local IFS=$'\\n'
  case "$1" in
    dir) COMPREPLY=($(compgen -d -- "$2")) ;;
    file) COMPREPLY=($(compgen -f -- "$2")) ;;
    recipe) COMPREPLY=($(compgen -d -- "$2") $(compgen -f -X '!*.yaml' -- "$2") $(compgen -f -X '!*.yml' -- "$2")) ;;
  esac
  compopt -o filenames 2>/dev/null
}
_core_agent_values() {
  case "$1" in
${bashValueCases()}
    *) COMPREPLY=() ;;
  esac
}
_core_agent() {
  [[ -n \${ZSH_VERSION-} ]] && setopt local_options ksh_arrays sh_word_split
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" path="" w i subs flags valued
  ((COMP_CWORD > 0)) && prev="\${COMP_WORDS[COMP_CWORD - 1]}"
  _core_agent_node ''
  # Walk the words before the cursor: a subcommand moves down the tree; a flag that takes a
  # value skips it (also as --flag=value, which bash splits at "=").
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    if [[ $w == -* ]]; then
      if [[ " $valued " == *" $w "* ]]; then
        if [[ "\${COMP_WORDS[i + 1]-}" == "=" ]]; then ((i += 2)); else ((i += 1)); fi
      fi
      continue
    fi
    if [[ -n $subs && " $subs " == *" $w "* ]]; then
      path="\${path:+$path }$w"
      _core_agent_node "$path"
    fi
  done
  if [[ $cur == "=" && " $valued " == *" $prev "* ]]; then _core_agent_values "$prev" ""; return 0; fi
  if [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then _core_agent_values "\${COMP_WORDS[COMP_CWORD - 2]}" "$cur"; return 0; fi
  if [[ $cur == -*=* ]]; then _core_agent_values "\${cur%%=*}" "\${cur#*=}"; return 0; fi
  if [[ -n $prev && " $valued " == *" $prev "* ]]; then _core_agent_values "$prev" "$cur"; return 0; fi
  if [[ $cur == -* ]]; then _core_agent_words "$flags" "$cur"; return 0; fi
  if [[ -n $subs ]]; then _core_agent_words "$subs" "$cur"; return 0; fi
  _core_agent_positional
  return 0
}
complete -F _core_agent core-agent
`;
}

function fishScript(nodes: CompletionNode[]): string {
  const lines = [
    '# core-agent completion for fish, generated by `core-agent completion` from the flag tables the CLI parses.',
    'function __core_agent_subs',
    '    switch "$argv[1]"',
    ...nodes
      .filter((n) => n.subcommands.length > 0)
      .map((n) => `        case ${q([n.path])}\n            printf "%s\\n" ${n.subcommands.join(' ')}`),
    '    end',
    'end',
    'function __core_agent_valued',
    '    switch "$argv[1]"',
    ...nodes
      .filter((n) => n.valued.length > 0)
      .map((n) => `        case ${q([n.path])}\n            printf "%s\\n" -- ${n.valued.join(' ')}`),
    '    end',
    'end',
    '# true when the words before the cursor reach the command path $argv[1] ("" is core-agent itself)',
    'function __core_agent_at',
    '    set -l path ""',
    '    set -l skip 0',
    '    for t in (commandline -opc)[2..-1]',
    '        if test $skip = 1',
    '            set skip 0',
    '            continue',
    '        end',
    "        if string match -q -- '-*' $t",
    '            if contains -- $t (__core_agent_valued "$path")',
    '                set skip 1',
    '            end',
    '            continue',
    '        end',
    '        if contains -- $t (__core_agent_subs "$path")',
    '            set path (string trim -- "$path $t")',
    '        end',
    '    end',
    '    test "$path" = "$argv[1]"',
    'end',
    'complete -c core-agent -f',
  ];
  for (const n of nodes) {
    const at = `-n '__core_agent_at "${n.path}"'`;
    if (n.subcommands.length > 0) lines.push(`complete -c core-agent ${at} -a ${q(n.subcommands)}`);
    else if (n.positional === 'tool') lines.push(`complete -c core-agent ${at} -a ${q(BUILTIN_TOOL_NAMES)}`);
    else if (n.positional === 'recipe' || n.positional === 'file') lines.push(`complete -c core-agent ${at} -F`);
    else if (Array.isArray(n.positional)) lines.push(`complete -c core-agent ${at} -a ${q(n.positional as readonly string[])}`);
    const node = nodeAt(n.path);
    for (const [name, spec] of Object.entries(node.options)) {
      if (isRefused(spec)) continue;
      const kind = valueKind(spec);
      const value = spec.type !== 'string' ? '' : kind === undefined ? ' -r' : typeof kind === 'string' ? ' -r -F' : ` -r -f -a ${q(kind)}`;
      lines.push(`complete -c core-agent ${at} -l ${name}${spec.short ? ` -s ${spec.short}` : ''}${value}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function nodeAt(path: string): CommandNode {
  let node = ROOT;
  for (const word of path ? path.split(' ') : []) node = node.subcommands![word]!;
  return node;
}
