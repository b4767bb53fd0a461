import { isRefused, type CommandNode, type Flag, type FlagTable } from './command-table.ts';

// A command's --help, its options written from the table the command parses (command-table.ts):
// each flag with its value, its help line, its default, its variable and its recipe key. Only the
// prose around them — what the command does, its exit statuses — is written by hand.

/** The width help is wrapped to, and the column flag descriptions start at. */
const WIDTH = 80;
const COLUMN = 30;

const NBSP = '\u00a0';

const GROUP_TITLES = { own: 'Options:', agent: 'Agent options:', common: 'Common options:' } as const;

const PRECEDENCE = 'Precedence: flags > environment > recipe > built-in defaults.';

export interface HelpProse {
  /** The usage lines; by default `Usage: core-agent WORDS SYNOPSIS [options]`. */
  usage?: string;
  /** What the command does, between the usage and the options; by default its summary. */
  about?: string;
  /** After the options: exit statuses, examples. */
  after?: string;
}

export function commandHelp(node: CommandNode, prose: HelpProse = {}): string {
  const parts = [prose.usage ?? usageLine(node)];
  const about = prose.about ?? (node.summary === undefined ? undefined : wrap(node.summary, 0, WIDTH).join('\n'));
  if (about !== undefined) parts.push(about);
  if (node.subcommands) parts.push(commandList(node));
  parts.push(optionsHelp(node.options));
  if (prose.after !== undefined) parts.push(prose.after);
  return parts.join('\n\n');
}

function usageLine(node: CommandNode): string {
  if (node.subcommands) return `Usage: core-agent ${node.name} <command> [options]`;
  return `Usage: core-agent ${[node.name, node.synopsis].filter(Boolean).join(' ')} [options]`;
}

/** A group's subcommands, each with its synopsis and summary, and where their own help is. */
function commandList(node: CommandNode): string {
  const rows = Object.entries(node.subcommands ?? {}).map(([word, sub]) => ({
    left: `  ${[word, sub.synopsis].filter(Boolean).join(' ')}`,
    text: sub.summary ?? '',
  }));
  const list = `Commands:\n${rows.map((r) => row(r.left, r.text)).join('\n')}`;
  return `${list}\n\nRun "core-agent ${node.name} <command> --help" for its options.`;
}

/** The flags a table accepts, grouped: the command's own, the agent's, every command's. */
export function optionsHelp(table: FlagTable): string {
  const groups: Record<keyof typeof GROUP_TITLES, string[]> = { own: [], agent: [], common: [] };
  for (const [name, spec] of Object.entries(table)) {
    if (isRefused(spec)) continue;
    groups[spec.group ?? 'own'].push(row(flagWords(name, spec), flagText(spec)));
  }
  const sections = (Object.keys(groups) as Array<keyof typeof GROUP_TITLES>)
    .filter((g) => groups[g].length > 0)
    .map((g) => `${GROUP_TITLES[g]}\n${groups[g].join('\n')}${g === 'common' ? `\n${PRECEDENCE}` : ''}`);
  return sections.join('\n\n');
}

/** `  -c, --recipe FILE`: the short form, the long one, and the value it takes. */
function flagWords(name: string, spec: Flag): string {
  const short = spec.short ? `-${spec.short}, ` : '    ';
  return `  ${short}--${name}${spec.type === 'string' ? ` ${valueName(spec)}` : ''}`;
}

/** A short list of choices is the value's name (`text|json`); a long one is said in the text. */
const shortChoices = (spec: Flag) => spec.choices !== undefined && spec.choices.join('|').length <= 24;

function valueName(spec: Flag): string {
  if (shortChoices(spec)) return spec.choices!.join('|');
  return spec.arg ?? 'VALUE';
}

function flagText(spec: Flag): string {
  const notes = [
    ...(spec.choices && !shortChoices(spec) ? [`one of ${spec.choices.join(', ')}`] : []),
    ...(spec.fallback !== undefined || spec.shownDefault !== undefined ? [`default: ${String(spec.fallback ?? spec.shownDefault)}`] : []),
  ];
  // `[env NAME]` is kept on one line (NBSP, made a space again by `row`).
  const where = [...(spec.env ? [`env ${spec.env}`] : []), ...(spec.recipeKey ? [`recipe ${spec.recipeKey}`] : [])].map((w) =>
    w.replace(' ', NBSP),
  );
  return [spec.help, ...(notes.length > 0 ? [`(${notes.join('; ')})`] : []), ...(where.length > 0 ? [`[${where.join('; ')}]`] : [])].join(
    ' ',
  );
}

/** The left column, then the text from COLUMN on, wrapped; a left column too wide puts the text under it. */
function row(left: string, text: string): string {
  const lines = wrap(text, COLUMN, WIDTH).map((l) => l.replaceAll(NBSP, ' '));
  if (left.length > COLUMN - 2) return [left, ...lines.map((l) => `${' '.repeat(COLUMN)}${l}`)].join('\n');
  return lines.map((l, i) => (i === 0 ? left.padEnd(COLUMN) : ' '.repeat(COLUMN)) + l).join('\n');
}

/** `text` in lines that fit from `indent` to `width` (a word longer than that has a line of its own). */
function wrap(text: string, indent: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/[ \n]+/).filter(Boolean)) {
    if (line !== '' && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}
