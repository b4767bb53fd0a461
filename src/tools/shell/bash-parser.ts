import bashParserChunk from 'virtual:bash-parser-chunk';
import type { Node, Parser, Tree } from 'web-tree-sitter';
import { loadEmbeddedModule } from '../../startup/embedded.ts';
import { basename, commandWords, descendants, literalWord, mayExpand } from './shell-words.ts';
import { profileRefusal, VERB_PROFILES } from './verb-profiles.ts';
import { commandLayers } from './wrappers.ts';
import { monotonicMs } from '../../util/monotonic.ts';

let parser: Promise<Parser> | undefined;

/** The bash parser (tree-sitter, WebAssembly), created once, on first use. */
export function bashParser(): Promise<Parser> {
  parser ??= loadEmbeddedModule<typeof import('./bash-parser-entry.ts')>(bashParserChunk, 'bash-parser.cjs').then((m) =>
    m.createBashParser(),
  );
  return parser;
}

// One bash call parses its line three times (denylist, search gate, permission
// rules), and the denylist parses the scripts inside it: the last few trees are
// kept. Trees are freed by web-tree-sitter's finalizer once nothing holds them.
const recent = new Map<string, Tree | null>();
const RECENT = 4;

/**
 * Work a parse may take before it is given up (the line is then "does not
 * parse": the denylist reads it as text, the search gate and wildcard rules
 * step aside). tree-sitter's error recovery is superlinear on some inputs — 40 KB
 * of `x | x | … "` takes 7 s and 1.2 GB, 80 KB exhausts the 2 GB WebAssembly
 * heap and aborts the module — so a parse is bounded in time and in memory.
 */
const PARSE_BUDGET = { ms: 500, rssBytes: 128 * 1024 * 1024 } as const;

async function parse(command: string): Promise<Tree | null> {
  if (recent.has(command)) return recent.get(command)!;
  const p = await bashParser();
  const started = monotonicMs();
  const rssAtStart = process.memoryUsage.rss();
  let calls = 0;
  const overBudget = () =>
    monotonicMs() - started > PARSE_BUDGET.ms || (++calls % 16 === 0 && process.memoryUsage.rss() - rssAtStart > PARSE_BUDGET.rssBytes);
  let tree: Tree | null;
  try {
    tree = p.parse(command, null, { progressCallback: overBudget });
    // A cancelled parse resumes on the next call unless the parser is reset.
    if (tree === null) p.reset();
  } catch {
    // The module aborted (out of memory): it cannot be used again, so the next parse loads a fresh one.
    parser = undefined;
    tree = null;
  }
  recent.set(command, tree);
  if (recent.size > RECENT) recent.delete(recent.keys().next().value!);
  return tree;
}

/** The parse of a command line, or null when it does not parse cleanly (a tree with ERROR nodes). */
export async function parseCommandLine(command: string): Promise<Node | null> {
  const tree = await parse(command);
  if (!tree || tree.rootNode.hasError) return null;
  return tree.rootNode;
}

/** The parse tree whatever it holds, ERROR nodes included (the denylist falls back on the text then). */
export async function parseTree(command: string): Promise<Node | null> {
  return (await parse(command))?.rootNode ?? null;
}

export type { Node };

/** What the permission gate needs to know about a command line. */
export interface CommandShape {
  /**
   * The literal command names (`git`, `rm`, …), in order, by base name, with the
   * commands wrappers run (`sudo rm` → sudo, rm); unresolvable ones are left out.
   */
  verbs: string[];
  /**
   * Why no wildcard rule (`tool.bash:git *`, `tool.bash.cmd:git`) may auto-allow
   * the line, or undefined when one may: it must be one simple command with a
   * fully literal argv — no chaining, pipes, redirections, expansions or
   * substitutions — whose verb does not act (verb-profiles.ts).
   */
  wildcardRefusal: string | undefined;
}

const NOT_ONE_LITERAL = 'it is not one simple command with a literal argv (no ;, &&, pipes, redirections, expansions or substitutions)';

export async function commandShape(command: string): Promise<CommandShape> {
  const root = await parseCommandLine(command);
  if (!root) return { verbs: [], wildcardRefusal: 'the line does not parse as a shell command' };
  const verbs: string[] = [];
  for (const n of descendants(root)) {
    if (n.type !== 'command') continue;
    const argv = commandWords(n).map(literalWord);
    const literalPrefix = argv.findIndex((w) => w === null);
    const known = (literalPrefix === -1 ? argv : argv.slice(0, literalPrefix)) as string[];
    if (known.length === 0) continue;
    for (const layer of commandLayers(known)) verbs.push(basename(layer[0]!));
  }
  const only = root.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
  // `cmd &` runs in the background: not the one command a rule was written for.
  const background = root.children.some((c) => c?.type === '&');
  const single = only.length === 1 && only[0]!.type === 'command' && !background ? only[0]! : null;
  if (!single) return { verbs, wildcardRefusal: NOT_ONE_LITERAL };
  const literal = single.namedChildren.every(
    (c) => c !== null && (c.type === 'command_name' || c.type === 'variable_assignment' ? literalParts(c) : literalWord(c) !== null),
  );
  if (!literal) return { verbs, wildcardRefusal: NOT_ONE_LITERAL };
  const words = commandWords(single);
  const verb = basename(literalWord(words[0]!)!);
  if (VERB_PROFILES[verb] && words.slice(1).some(mayExpand)) {
    return { verbs, wildcardRefusal: `an unquoted pattern in a ${verb} line may expand to an option that acts (a file named -delete)` };
  }
  const refusal = profileRefusal(
    verb,
    words.slice(1).map((w) => literalWord(w)!),
  );
  return { verbs, wildcardRefusal: refusal ?? undefined };
}

/** A command name or an assignment whose value is literal (`FOO=$(evil) cat f` runs the substitution). */
function literalParts(node: Node): boolean {
  if (node.type === 'command_name') return literalWord(node) !== null;
  const value = node.childForFieldName('value');
  return value === null || literalWord(value) !== null;
}
