import path from 'node:path';
import { parseCommandLine, type Node } from './bash-parser.ts';

export const SEARCH_GATE_MODES = ['enforce', 'warn', 'allow'] as const;
export type SearchGateMode = (typeof SEARCH_GATE_MODES)[number];

/** Verbs that search a file tree, and the native tool each one should have been. */
export const SEARCH_VERBS: Readonly<Record<string, 'grep' | 'glob'>> = {
  grep: 'grep',
  egrep: 'grep',
  fgrep: 'grep',
  rgrep: 'grep',
  rg: 'grep',
  ag: 'grep',
  ack: 'grep',
  find: 'glob',
  fd: 'glob',
};

/** A find with one of these acts on files (the permission gate's own list): glob cannot replace it. */
const FIND_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fls', '-fprint', '-fprint0', '-fprintf']);

export interface SearchShaped {
  verb: string;
  tool: 'grep' | 'glob';
}

/**
 * The first search-shaped command in a command line, looking through `;`, `&&`,
 * `||`, subshells and blocks. Not gated, deliberately: a search on the right of a
 * pipe (it filters a stream), a find with an action predicate (a file
 * operation), and anything not literal — an expanded verb (`$TOOL`), `eval`,
 * `sh -c '…'` — or a line that does not parse: the gate fails open, because it
 * is steering, not security.
 */
export async function searchShaped(command: string, covered: ReadonlySet<'grep' | 'glob'>): Promise<SearchShaped | null> {
  if (covered.size === 0) return null;
  const root = await parseCommandLine(command);
  return root ? visit(root, covered) : null;
}

function visit(node: Node, covered: ReadonlySet<'grep' | 'glob'>): SearchShaped | null {
  switch (node.type) {
    case 'command':
      return classify(node, covered);
    case 'pipeline': {
      // Only the head of a pipeline reads files; the rest filter the stream.
      const head = node.namedChildren.find((c): c is Node => c !== null && c.type !== 'comment');
      return head ? visit(head, covered) : null;
    }
    default: {
      for (const child of node.namedChildren) {
        if (!child) continue;
        const hit = visit(child, covered);
        if (hit) return hit;
      }
      return null;
    }
  }
}

function classify(command: Node, covered: ReadonlySet<'grep' | 'glob'>): SearchShaped | null {
  const name = command.childForFieldName('name');
  // Only a literal verb: `$TOOL`, "$(which grep)" and friends pass through.
  if (!name || name.namedChildren.length !== 1 || name.namedChildren[0]?.type !== 'word') return null;
  const verb = path.basename(name.text);
  const tool = SEARCH_VERBS[verb];
  if (!tool || !covered.has(tool)) return null;
  if (tool === 'glob' && verb === 'find') {
    const args = command.childrenForFieldName('argument').map((a) => a?.text.replace(/^['"]|['"]$/g, '') ?? '');
    if (args.some((a) => FIND_ACTIONS.has(a))) return null;
  }
  return { verb, tool };
}

/** The refusal (enforce) or notice (warn), as the seed words it. */
export function searchGateMessage(hit: SearchShaped): string {
  if (hit.tool === 'grep') {
    return (
      `bash refused: \`${hit.verb}\` is a search-shaped command; use the native \`grep\` tool\n` +
      'instead. It returns structured {path, line, text} matches, honors the\n' +
      'permission gate and the path scope, and applies per-tool output caps. Piping\n' +
      'into a search binary is unaffected — `go test ./... | grep -v ok` filters a\n' +
      'stream, which the native tool does not do. Operator override:\n' +
      'safety.bash_search_gate = "warn" or "allow" (CLI: --bash-search-gate).'
    );
  }
  return (
    `bash refused: \`${hit.verb}\` is a search-shaped command; use the native \`glob\` tool\n` +
    'instead. It returns the matching paths, sorted, honors the permission gate and\n' +
    'the path scope, and applies per-tool output caps. A find with an action\n' +
    '(-exec, -delete, …) is unaffected — it operates on files, which the native tool\n' +
    'does not do. Operator override:\n' +
    'safety.bash_search_gate = "warn" or "allow" (CLI: --bash-search-gate).'
  );
}

/** The start-up line: the posture and what it covers, or INERT when nothing it could redirect to exists. */
export function searchGatePosture(mode: SearchGateMode, covered: ReadonlySet<'grep' | 'glob'>): string {
  if (mode === 'allow') return 'bash search gate: allow (off)';
  if (covered.size === 0)
    return `bash search gate: ${mode} but INERT (neither grep nor glob is registered, so there is nothing to redirect to)`;
  const verbs = Object.entries(SEARCH_VERBS)
    .filter(([, tool]) => covered.has(tool))
    .map(([verb]) => verb);
  return `bash search gate: ${mode} (${verbs.join(', ')})`;
}
