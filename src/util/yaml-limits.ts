import type { Document, Node } from 'yaml';

/**
 * What these checks use of the yaml library, handed in by the caller that loaded it (the yaml
 * chunk, src/config/yaml-entry.ts): a recipe's parse (src/config/parse-config.ts) and a
 * kubeconfig's (src/k8s/kubeconfig.ts).
 */
export type YamlChecks = Pick<typeof import('yaml'), 'Lexer' | 'isAlias' | 'isCollection' | 'isPair' | 'isScalar'>;

/**
 * How many nodes aliases may add to a document once expanded. A recipe that
 * shares a list of rules between two places adds tens; the classic "billion
 * laughs" (nine levels of nine aliases) adds 387 million, which the yaml
 * library's toJS() hands over as shared objects and zod then walks one by one.
 */
export const MAX_ALIAS_NODES = 10_000;

/** Collections nested deeper than this are refused: a recipe nests about six levels, a kubeconfig five. */
export const MAX_DEPTH = 64;

export interface NodeProblem {
  node: Node;
  message: string;
}

/** Lexer tokens that mark a position without being source text (the next token is the scalar's text). */
const SCALAR_MARK = '\x1f';
const CONTROL = new Set(['\x02', '\x18', SCALAR_MARK]);

/**
 * Deep nesting found by the lexer, before the parser sees it: the yaml parser
 * spends time and memory per open collection per token (256 KiB of "[" took
 * 2.6 s and 385 MB), while its lexer is linear and flat. Flow collections ([ and
 * {) are counted as the lexer opens them, so brackets inside quotes, comments
 * and block scalars are not; so are "- " and "? " stacked on one line (the
 * block form of the same). Returns the offset of the first one too deep.
 */
export function nestingProblem({ Lexer }: YamlChecks, text: string): { offset: number; message: string } | null {
  let offset = 0;
  let flow = 0;
  let onLine = 0;
  let scalarText = false;
  for (const token of new Lexer().lex(text)) {
    const at = offset;
    if (!CONTROL.has(token)) offset += token.length;
    if (scalarText) {
      scalarText = false; // a scalar's text, whatever characters it holds
      continue;
    }
    if (token === SCALAR_MARK) scalarText = true;
    else if (token === '[' || token === '{') {
      if (++flow > MAX_DEPTH) return { offset: at, message: `flow collections ([ and {) nested more than ${MAX_DEPTH} levels deep` };
    } else if (token === ']' || token === '}') flow = Math.max(0, flow - 1);
    else if (token === '-' || token === '?') {
      if (flow === 0 && ++onLine > MAX_DEPTH) return { offset: at, message: `more than ${MAX_DEPTH} nested "${token}" on one line` };
    } else if (token === '\n' || token === '\r\n') onLine = 0;
  }
  return null;
}

/**
 * What toJS() and the schema would choke on, found on the parsed tree before
 * either runs, each at its node: an alias with no anchor before it, an alias
 * inside the node it names (a cycle: an object that contains itself), aliases
 * that expand past MAX_ALIAS_NODES, nesting past MAX_DEPTH, and a key that is
 * not a scalar (toJS() turns a collection key into a string of it, which for
 * nested "? " keys took minutes; no configuration key is a collection). Linear
 * in the document's size: each node's expanded size is computed once.
 */
export function treeProblems({ isAlias, isCollection, isPair, isScalar }: YamlChecks, doc: Document): NodeProblem[] {
  const problems: NodeProblem[] = [];
  // The latest node carrying each anchor, in document order (the yaml library's rule).
  const anchors = new Map<string, Node>();
  const targets = new Map<Node, Node>();
  const sizes = new Map<Node, number>();
  const open = new Set<Node>();
  let added = 0;
  let stop = false;

  const size = (node: unknown): number => {
    if (isAlias(node)) {
      const target = targets.get(node);
      return target ? size(target) : 1;
    }
    if (!isCollection(node)) return 1;
    let n = sizes.get(node);
    if (n === undefined) {
      n = 1;
      for (const item of node.items) n += isPair(item) ? size(item.key) + size(item.value) : size(item);
      sizes.set(node, n);
    }
    return n;
  };

  const walk = (node: unknown, depth: number): void => {
    if (stop || node === null || typeof node !== 'object') return;
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (!target) {
        problems.push({ node, message: `alias *${node.source} has no anchor &${node.source} before it` });
      } else if (open.has(target)) {
        problems.push({ node, message: `alias *${node.source} is inside the node it names (a cycle)` });
      } else {
        targets.set(node, target);
        added += size(target);
        if (added > MAX_ALIAS_NODES) {
          problems.push({
            node,
            message: `alias *${node.source}: aliases expand this file past ${MAX_ALIAS_NODES} nodes (an alias bomb?); write the values out or share fewer`,
          });
          stop = true;
        }
      }
      return;
    }
    const anchor = (node as { anchor?: string }).anchor;
    if (anchor) anchors.set(anchor, node as Node);
    if (!isCollection(node)) return;
    if (depth > MAX_DEPTH) {
      problems.push({ node, message: `nested more than ${MAX_DEPTH} levels deep` });
      stop = true;
      return;
    }
    open.add(node);
    for (const item of node.items) {
      if (isPair(item)) {
        if (item.key !== null && !isScalar(item.key)) {
          problems.push({ node: item.key as Node, message: 'a key must be a plain name, not a collection or an alias' });
          continue;
        }
        walk(item.key, depth + 1);
        walk(item.value, depth + 1);
      } else walk(item, depth + 1);
    }
    open.delete(node);
  };

  walk(doc.contents, 1);
  return problems;
}
