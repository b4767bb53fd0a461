import outlineChunk from 'virtual:outline-chunk';
import type { Node, Parser, Tree } from 'web-tree-sitter';
import { loadEmbeddedModule } from '../../startup/embedded.ts';
import type { GrammarId } from './outline-entry.ts';
import type { OutlineRules, ParsedLanguage } from './outline-languages.ts';
import { monotonicMs } from '../../util/monotonic.ts';

type Chunk = typeof import('./outline-entry.ts');
let chunk: Promise<Chunk> | undefined;
const parsers = new Map<GrammarId, Promise<Parser>>();

/** One parser per grammar, created on the first outline that needs it (the chunk loads then too). */
function parserFor(grammar: GrammarId): Promise<Parser> {
  let p = parsers.get(grammar);
  if (!p) {
    chunk ??= loadEmbeddedModule<Chunk>(outlineChunk, 'outline.cjs');
    p = chunk.then((m) => m.createOutlineParser(grammar));
    parsers.set(grammar, p);
  }
  return p;
}

/**
 * A parse may take this long before it is given up: tree-sitter's error
 * recovery is superlinear on some malformed inputs (see bash-parser.ts), and an
 * outline is a convenience, never worth a stalled turn.
 */
const PARSE_BUDGET_MS = 5000;

export type ParsedOutline =
  | { kind: 'outline'; lines: string[] }
  /** Syntax errors: the lines they are on and, when the parse recovered cleanly, the declarations around them. */
  | { kind: 'errors'; errorLines: number[]; brokenFrom: number[]; recovered: boolean; lines: string[] }
  | { kind: 'gave_up' };

export async function parseOutline(source: string, lang: ParsedLanguage): Promise<ParsedOutline> {
  const parser = await parserFor(lang.grammar);
  const started = monotonicMs();
  let tree: Tree | null;
  try {
    tree = parser.parse(source, null, { progressCallback: () => monotonicMs() - started > PARSE_BUDGET_MS });
    if (tree === null) parser.reset();
  } catch {
    // The module aborted (out of memory): the next outline loads a fresh parser.
    parsers.delete(lang.grammar);
    tree = null;
  }
  if (!tree) return { kind: 'gave_up' };
  try {
    const root = tree.rootNode;
    const lines = new Outliner(source, lang.rules).members(root, 0);
    if (!root.hasError) return { kind: 'outline', lines };
    const errorLines = syntaxErrorLines(root);
    // Where the broken top-level declarations start: a MISSING `}` is reported at the end of
    // the file, far from the unclosed brace that caused it.
    const brokenFrom = [...new Set(root.children.filter((n) => n !== null && n.hasError).map((n) => n!.startPosition.row + 1))];
    return { kind: 'errors', errorLines, brokenFrom, recovered: recoveredCleanly(root, source), lines };
  } finally {
    tree.delete();
  }
}

/** The 1-based lines holding an ERROR or a MISSING node, in order. */
function syntaxErrorLines(root: Node): number[] {
  const lines = new Set<number>();
  const walk = (n: Node) => {
    if (!n.hasError && !n.isMissing) return;
    if (n.isError || n.isMissing) lines.add(n.startPosition.row + 1);
    for (const c of n.children) if (c) walk(c);
  };
  walk(root);
  return [...lines].sort((a, b) => a - b);
}

/**
 * Whether the parser got back in step after its errors, so the declarations it
 * found around them are the file's: the broken top-level nodes cover at most a
 * quarter of the file (or ten lines of a short one). An unclosed brace or string
 * swallows everything after it into one broken node, and fails this.
 */
function recoveredCleanly(root: Node, source: string): boolean {
  const rows = source.trimEnd().split('\n').length;
  let brokenRows = 0;
  for (const n of root.children) {
    if (n && (n.hasError || n.isError || n.isMissing)) brokenRows += n.endPosition.row - n.startPosition.row + 1;
  }
  return brokenRows <= Math.max(10, rows / 4);
}

/** Renders the declarations under a node, one entry per declaration, bodies elided. */
class Outliner {
  constructor(
    private readonly source: string,
    private readonly rules: OutlineRules,
  ) {}

  members(parent: Node, depth: number): string[] {
    const out: string[] = [];
    const children = parent.namedChildren.filter((c): c is Node => c !== null);
    const broken = (n: Node | undefined) => n !== undefined && (n.isError || n.isMissing);
    // Text that shares a line with an ERROR is the parser's guess at where it got back in
    // step (`int template(int this) {…}` leaves `int this) {…}` as a "function"; a Go
    // func cut off before its body reads as a bodiless declaration): not listed.
    children.forEach((child, i) => {
      if (broken(child)) return;
      const before = children[i - 1];
      const after = children[i + 1];
      if (broken(before) && before!.endPosition.row >= child.startPosition.row) return;
      if (broken(after) && after!.startPosition.row <= child.endPosition.row) return;
      out.push(...this.declaration(child, depth));
    });
    return out;
  }

  private declaration(node: Node, depth: number): string[] {
    const { rules } = this;
    // Broken text is never presented as a declaration.
    if (node.isError || node.isMissing) return [];
    if (rules.transparent.has(node.type)) return this.members(node, depth);
    let inner: Node | null = node;
    let self = rules.leaf.has(node.type);
    if (!self && !(node.type in rules.container)) {
      const wrapped = rules.wrap[node.type]?.(node) ?? null;
      if (wrapped === 'self') self = true;
      else inner = wrapped;
    }
    if (!inner) return [];
    const bodyField = rules.container[inner.type];
    const body = bodyField ? inner.childForFieldName(bodyField) : null;
    // A container without a body (`mod inner;`) is listed like a leaf.
    if (bodyField && body) {
      // The header is listed if it parsed; the members each on their own merits.
      if (this.hasErrorOutside(node, body)) return [];
      const header = this.render(node, node.startIndex, body.startIndex);
      return [entry(node, depth, header), ...this.members(body, depth + 1)];
    }
    if (!self && !bodyField && !rules.leaf.has(inner.type)) return [];
    if (node.hasError) return [];
    const cutAt = rules.cut?.[inner.type];
    const rest = cutAt ? inner.namedChildren.find((c) => c?.type === cutAt) : undefined;
    if (rest) return [entry(node, depth, `${this.render(node, node.startIndex, rest.startIndex)} ${ELIDED_BLOCK}`)];
    return [entry(node, depth, this.render(node, node.startIndex, node.endIndex))];
  }

  private hasErrorOutside(node: Node, body: Node): boolean {
    const walk = (n: Node): boolean => {
      if (n.equals(body) || !(n.hasError || n.isMissing)) return false;
      if (n.isError || n.isMissing) return true;
      return n.children.some((c) => c !== null && walk(c));
    };
    return walk(node);
  }

  /** The source of [from, to) within node, bodies and long values elided, continuation lines dedented. */
  private render(node: Node, from: number, to: number): string {
    let text = this.elided(node, from, to).trimEnd();
    if (text.endsWith('{')) text = text.slice(0, -1).trimEnd();
    const column = node.startPosition.column;
    const [first = '', ...rest] = text.split('\n');
    return [first, ...rest.map((l) => dedent(l, column))].join('\n');
  }

  private elided(node: Node, from: number, to: number): string {
    const { rules } = this;
    if (node.endIndex <= from || node.startIndex >= to) return '';
    const start = Math.max(from, node.startIndex);
    const end = Math.min(to, node.endIndex);
    if (node.startIndex >= from && node.endIndex <= to && node.startIndex > from && rules.bodies.has(node.type)) {
      return node.text.startsWith('{') ? ELIDED_BLOCK : ELIDED;
    }
    const valueField = rules.values[node.type];
    const value = valueField ? node.childForFieldName(valueField) : null;
    let text = '';
    let at = start;
    for (const child of node.children) {
      if (!child || child.endIndex <= at || child.startIndex >= end) continue;
      const gap = this.slice(at, child.startIndex);
      let part = this.elided(child, Math.max(at, from), end);
      if (value && child.equals(value) && part.includes('\n')) part = ELIDED;
      // An elided body joins its header with one space, whatever stood between them.
      text = part === ELIDED || part === ELIDED_BLOCK ? `${(text + gap).trimEnd()} ${part}` : text + gap + part;
      at = Math.min(end, child.endIndex);
    }
    return text + this.slice(at, end);
  }

  private slice(from: number, to: number): string {
    return to > from ? this.source.slice(from, to) : '';
  }
}

const ELIDED = '…';
const ELIDED_BLOCK = '{ … }';

function dedent(line: string, column: number): string {
  let i = 0;
  while (i < column && (line[i] === ' ' || line[i] === '\t')) i += 1;
  return line.slice(i);
}

/** One listing entry: the start line, the nesting, the declaration (its continuation lines aligned). */
function entry(node: Node, depth: number, text: string): string {
  const indent = '  '.repeat(depth);
  const [first, ...rest] = text.split('\n');
  const line = String(node.startPosition.row + 1).padStart(5);
  return [`${line}  ${indent}${first}`, ...rest.map((l) => `       ${indent}${l}`)].join('\n');
}
