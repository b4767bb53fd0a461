import { parseCommandLine, type Node } from './bash-parser.ts';
import { basename, commandWords, literalWord } from './shell-words.ts';
import { actingArgument } from './verb-profiles.ts';

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

/** The native tools the search gate can point to, among those registered. */
export function searchTargets(has: (name: string) => boolean): Set<'grep' | 'glob'> {
  return new Set((['grep', 'glob'] as const).filter((t) => has(t)));
}

export interface SearchShaped {
  verb: string;
  tool: 'grep' | 'glob';
}

/**
 * The first search-shaped command in a command line — a search verb whose
 * stdin is not a pipe — descending, as the Go original does, only through `;`,
 * `&&`, `||`, the left side of pipes, subshells, `{ }` blocks, `!` and
 * redirections. Not gated, deliberately:
 *   - a search on the right of a pipe, at any depth (`make | (grep x; cat)`): it
 *     filters a stream;
 *   - anything inside if/for/while/case, function bodies and command
 *     substitutions: a model writing a loop is not the reflex this interrupts;
 *   - a find/fd/rg with an option that acts (verb-profiles.ts: `-delete`,
 *     `fd -x`, `rg --pre`): a file operation the native tools cannot do;
 *   - anything not literal — an expanded verb (`$TOOL`), `eval`, `sh -c '…'` — and
 *     a line that does not parse: the gate fails open, because it is steering,
 *     not security.
 */
export async function searchShaped(command: string, covered: ReadonlySet<'grep' | 'glob'>): Promise<SearchShaped | null> {
  if (covered.size === 0) return null;
  const root = await parseCommandLine(command);
  return root ? visit(root, covered) : null;
}

/** Statement containers the gate looks through; every other node type is left alone. */
const SEQUENCES = new Set(['program', 'list', 'subshell', 'compound_statement', 'negated_command']);

function visit(node: Node, covered: ReadonlySet<'grep' | 'glob'>): SearchShaped | null {
  if (node.type === 'command') return classify(node, covered);
  if (node.type === 'redirected_statement') {
    const body = node.childForFieldName('body');
    return body ? visit(body, covered) : null;
  }
  if (node.type === 'pipeline') {
    // Only the head of a pipeline reads files; every later stage, however nested, reads a stream.
    const stages = node.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
    return stages[0] ? visit(stages[0], covered) : null;
  }
  if (!SEQUENCES.has(node.type)) return null;
  for (const child of node.namedChildren) {
    if (!child) continue;
    const hit = visit(child, covered);
    if (hit) return hit;
  }
  return null;
}

function classify(command: Node, covered: ReadonlySet<'grep' | 'glob'>): SearchShaped | null {
  const words = commandWords(command);
  // Only a literal verb: `$TOOL`, "$(which grep)" and friends pass through.
  const name = words[0] ? literalWord(words[0]) : null;
  if (name === null) return null;
  const verb = basename(name);
  const tool = SEARCH_VERBS[verb];
  if (!tool || !covered.has(tool)) return null;
  // Words decided at run time are skipped: only a literal acting option carves out.
  const args = words
    .slice(1)
    .map(literalWord)
    .filter((w): w is string => w !== null);
  if (actingArgument(verb, args) !== null) return null;
  return { verb, tool };
}

/** The refusal (enforce) or notice (warn), as the seed words it. */
export function searchGateMessage(hit: SearchShaped, toolName: (tool: string) => string | undefined = (t) => t): string {
  const tool = toolName(hit.tool) ?? hit.tool;
  if (hit.tool === 'grep') {
    return (
      `bash refused: \`${hit.verb}\` is a search-shaped command; use the native \`${tool}\` tool\n` +
      'instead. It returns structured {path, line, text} matches, honors the\n' +
      'permission gate and the path scope, and applies per-tool output caps. Piping\n' +
      'into a search binary is unaffected — `go test ./... | grep -v ok` filters a\n' +
      'stream, which the native tool does not do. Operator override:\n' +
      'safety.bash_search_gate = "warn" or "allow" (CLI: --bash-search-gate).'
    );
  }
  return (
    `bash refused: \`${hit.verb}\` is a search-shaped command; use the native \`${tool}\` tool\n` +
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
