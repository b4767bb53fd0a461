import bashParserChunk from 'virtual:bash-parser-chunk';
import type { Node, Parser } from 'web-tree-sitter';
import { loadEmbeddedModule } from '../../embedded.ts';

let parser: Promise<Parser> | undefined;

/** The bash parser (tree-sitter, WebAssembly), created once, on first use. */
export function bashParser(): Promise<Parser> {
  parser ??= loadEmbeddedModule<typeof import('./bash-parser-entry.ts')>(bashParserChunk, 'bash-parser.cjs').then((m) =>
    m.createBashParser(),
  );
  return parser;
}

/** The simple commands of a command line, or null when it does not parse cleanly. */
export async function parseCommandLine(command: string): Promise<Node | null> {
  const tree = (await bashParser()).parse(command);
  if (!tree || tree.rootNode.hasError) return null;
  return tree.rootNode;
}

export type { Node };

/** What the permission gate needs to know about a command line. */
export interface CommandShape {
  /** The literal command names (`git`, `rm`, …), in order; unresolvable ones are left out. */
  verbs: string[];
  /**
   * One simple command with a fully literal argv: no chaining, pipes, redirections,
   * expansions or substitutions. Only such a command may be auto-allowed by a
   * wildcard rule (`tool.bash:git *`, `tool.bash.cmd:git`).
   */
  literal: boolean;
}

const LITERAL_ARG = new Set(['word', 'raw_string', 'number']);

export async function commandShape(command: string): Promise<CommandShape> {
  const root = await parseCommandLine(command);
  if (!root) return { verbs: [], literal: false };
  const verbs: string[] = [];
  const commands: Node[] = [];
  const walk = (n: Node) => {
    if (n.type === 'command') commands.push(n);
    for (const c of n.namedChildren) if (c) walk(c);
  };
  walk(root);
  for (const c of commands) {
    const name = c.childForFieldName('name');
    if (name && name.namedChildren.length === 1 && name.namedChildren[0]?.type === 'word') verbs.push(name.text.split('/').pop()!);
  }
  const only = root.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
  const single = only.length === 1 && only[0]!.type === 'command' ? only[0]! : null;
  const literal =
    single !== null &&
    verbs.length === 1 &&
    single.namedChildren.every(
      (c) =>
        c !== null &&
        (c.type === 'command_name' ||
          c.type === 'variable_assignment' ||
          LITERAL_ARG.has(c.type) ||
          (c.type === 'string' && c.namedChildren.every((s) => s?.type === 'string_content'))),
    );
  return { verbs, literal };
}
