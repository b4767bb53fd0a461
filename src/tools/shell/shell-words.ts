import type { Node } from 'web-tree-sitter';

/**
 * Words of a parsed command line (tree-sitter-bash) as the shell hands them to
 * the program: quotes removed and backslash escapes applied, the way sh does —
 * `'-delete'`, `"-delete"`, `\-delete` and `-de'le'te` are all `-delete`.
 */

/** A word's value when it is fully literal; null when an expansion or substitution decides it at run time. */
export function literalWord(node: Node): string | null {
  return wordValue(node, false);
}

/**
 * A word's value with quotes removed but expansions kept as written (`"$HOME"/x`
 * is `$HOME/x`, `$(curl x)` stays `$(curl x)`), so the denylist can read a target
 * whose variable it knows or a substitution it must not run.
 */
export function looseWord(node: Node): string {
  return wordValue(node, true) ?? node.text;
}

function wordValue(node: Node, keep: boolean): string | null {
  switch (node.type) {
    case 'word':
    case 'command_name':
      return node.type === 'word' ? unescapeBare(node.text) : joinChildren(node, keep);
    case 'number':
      return node.text;
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'string':
    case 'translated_string':
      return stringValue(node, keep);
    case 'concatenation':
      return joinChildren(node, keep);
    case 'ansi_c_string':
      // $'…' decodes escapes; left to run time rather than decoded here.
      return keep ? node.text.slice(2, -1) : null;
    default:
      // $VAR, ${VAR}, $(…), `…`, $((…)), <(…), {a,b}: decided when the line runs.
      return keep ? node.text : null;
  }
}

function joinChildren(node: Node, keep: boolean): string | null {
  let out = '';
  for (const c of node.namedChildren) {
    if (!c) continue;
    const v = wordValue(c, keep);
    if (v === null) return null;
    out += v;
  }
  return out;
}

function stringValue(node: Node, keep: boolean): string | null {
  let out = '';
  for (const c of node.namedChildren) {
    if (!c) continue;
    if (c.type === 'string_content') out += c.text.replace(/\\([$`"\\\n])/g, (_m, ch: string) => (ch === '\n' ? '' : ch));
    else if (keep) out += c.text;
    else return null;
  }
  return out;
}

/** Outside quotes a backslash makes the next character literal; backslash-newline joins lines. */
function unescapeBare(text: string): string {
  return text.includes('\\') ? text.replace(/\\([\s\S])/g, (_m, ch: string) => (ch === '\n' ? '' : ch)) : text;
}

/**
 * Whether the shell may turn this word into other words before the program sees
 * it: an unquoted glob (`*`, `?`, `[`) or brace (`{a,b}`) character. `find . *`
 * in a directory holding a file named `-delete` runs `find . -delete`.
 */
export function mayExpand(node: Node): boolean {
  if (node.type === 'word') return /[*?[{]/.test(node.text.replace(/\\[\s\S]/g, ''));
  if (node.type === 'concatenation') return node.namedChildren.some((c) => c !== null && mayExpand(c));
  return node.type === 'brace_expression';
}

/** The words of a simple command — its name, then its arguments — without assignments and redirections. */
export function commandWords(command: Node): Node[] {
  const words: Node[] = [];
  const name = command.childForFieldName('name');
  if (name) words.push(name);
  for (const a of command.childrenForFieldName('argument')) if (a) words.push(a);
  return words;
}

/** A verb as rules and tables see it: the program's base name (`/usr/bin/grep` is `grep`). */
export function basename(word: string): string {
  const slash = word.lastIndexOf('/');
  return slash === -1 ? word : word.slice(slash + 1);
}

/** Every node of a tree, depth first, visited without recursion (a long line nests deep). */
export function* descendants(root: Node): Generator<Node> {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    yield n;
    const children = n.namedChildren;
    for (let i = children.length - 1; i >= 0; i--) {
      const c = children[i];
      if (c) stack.push(c);
    }
  }
}
