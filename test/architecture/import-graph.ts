import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The layer checker: every import between folders of src/, against the table in
 * docs/architecture.md. Kept apart from the test on the real tree so it can be
 * tested on planted trees (import-graph.test.ts) — a layer test that cannot fail
 * would hold nothing.
 */

/** One import or export-from of a file inside src/, with where it is. */
export interface ImportRef {
  /** The importing file, relative to the tree's root: `src/net/undici.ts`. */
  file: string;
  line: number;
  specifier: string;
  /** The imported file, relative to the root, or undefined for a package or a builtin. */
  target: string | undefined;
  typeOnly: boolean;
  dynamic: boolean;
}

export interface LayerTable {
  /** Folder → the folders it may import (itself always). */
  allowed: Map<string, Set<string>>;
  /** The folders that may read `process.env` and call `homedir()`. */
  envReaders: Set<string>;
}

export interface ArchitectureReport {
  /** The table itself: a folder without a row, a name that is no row, a cycle the table would allow. */
  table: string[];
  /** Imports a folder may not make, naming the file, the line and the rule. */
  imports: string[];
  /** Cycles between folders, each with one import per step. */
  cycles: string[];
  /** Cycles between files (inside a folder too), each with one import per step. */
  fileCycles: string[];
  /** `process.env` / `homedir()` outside the folders that may read the environment. */
  env: string[];
}

/** Check `root/src` against the table in `root/docs/architecture.md`. */
export function checkArchitecture(root: string, doc = 'docs/architecture.md'): ArchitectureReport {
  const table = parseLayerTable(readFileSync(path.join(root, doc), 'utf8'));
  const files = sourceFiles(root);
  const refs = files.flatMap((f) => importsOf(root, f));
  return {
    table: tableProblems(table, new Set(files.map(folderOf))),
    imports: importViolations(refs, table, doc),
    cycles: folderCycles(refs),
    fileCycles: fileCycles(refs),
    // Two reads on one line (`process.env.A ?? process.env.B`) are one finding.
    env: [...new Set(files.flatMap((f) => envReads(root, f, table.envReaders)))],
  };
}

/** Every TypeScript file under src/, relative to the root; ambient `.d.ts` declarations import nothing of ours. */
export function sourceFiles(root: string): string[] {
  return (readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' }) as string[])
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => path.posix.join('src', f.split(path.sep).join('/')))
    .sort();
}

/**
 * The folder a file belongs to: `src/net/x.ts` → net; a top-level file is its own folder
 * (`src/main.ts` → main). Inside `src/tools/` each subfolder is a folder of its own — the
 * framework, the shared helpers, each family (`src/tools/grep/x.ts` → tools/grep) — and
 * `src/tools/index.ts`, the families list, is `tools`.
 */
export function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts[1] === 'tools' && parts.length > 3) return `tools/${parts[2]}`;
  return parts.length > 2 ? parts[1]! : parts[1]!.replace(/\.(ts|md)$/, '');
}

/** `tools/*` in the table: the row of every family (a `tools/<name>` folder without a row of its own). */
export const FAMILY_ROW = 'tools/*';

/** The row a folder is judged by: its own, else the families' for a folder under tools/. */
function rowOf(folder: string, rows: ReadonlyMap<string, unknown>): string {
  return rows.has(folder) || !folder.startsWith('tools/') ? folder : FAMILY_ROW;
}

/** Static, type-only and dynamic imports, export-froms and `typeof import()` of one file. */
export function importsOf(root: string, file: string): ImportRef[] {
  const source = parse(root, file);
  const out: ImportRef[] = [];
  const add = (node: ts.Node, spec: ts.Expression | ts.TypeNode | undefined, typeOnly: boolean, dynamic: boolean) => {
    const literal = spec && ts.isLiteralTypeNode(spec) ? spec.literal : spec;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    if (!literal || !ts.isStringLiteralLike(literal)) {
      // A computed specifier cannot be checked: say so rather than let it pass.
      out.push({ file, line, specifier: '(computed)', target: '(computed)', typeOnly, dynamic });
      return;
    }
    out.push({ file, line, specifier: literal.text, target: resolve(file, literal.text), typeOnly, dynamic });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const typeOnly =
        clause?.isTypeOnly === true ||
        (clause !== undefined &&
          clause.name === undefined &&
          clause.namedBindings !== undefined &&
          ts.isNamedImports(clause.namedBindings) &&
          clause.namedBindings.elements.length > 0 &&
          clause.namedBindings.elements.every((e) => e.isTypeOnly));
      add(node, node.moduleSpecifier, typeOnly, false);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      add(node, node.moduleSpecifier, node.isTypeOnly, false);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, node.isTypeOnly, false);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node, node.arguments[0], false, true);
    } else if (ts.isImportTypeNode(node)) {
      add(node, node.argument, true, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** A relative specifier as a path from the root; packages, `node:` and `virtual:` modules are no folder of ours. */
function resolve(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  return path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
}

/**
 * The layer table of docs/architecture.md: the markdown table whose header starts
 * `| Folder | May import |`. A row's first cell names the folder in backticks; the
 * second lists the folders it may import in backticks, `—` for none, or `every
 * folder but …` for the composition root and the CLI. The env readers are the
 * folders named after "only in" on the line starting `**Environment.**`.
 */
export function parseLayerTable(markdown: string): LayerTable {
  const lines = markdown.split('\n');
  const header = lines.findIndex((l) => /^\|\s*Folder\s*\|\s*May import\s*\|/i.test(l));
  if (header === -1) throw new Error('no layer table: a markdown table whose header is "| Folder | May import | … |"');
  const rows: Array<{ folder: string; cell: string }> = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.trim().startsWith('|')) break;
    const cells = line.split('|').slice(1, -1);
    const folder = names(cells[0] ?? '')[0];
    if (folder === undefined) throw new Error(`a layer table row names no folder in backticks: ${line}`);
    rows.push({ folder, cell: cells[1] ?? '' });
  }
  const all = rows.map((r) => r.folder);
  const allowed = new Map<string, Set<string>>();
  for (const { folder, cell } of rows) {
    const listed = names(cell);
    const except = /^\s*every folder but\b/i.test(cell);
    allowed.set(folder, new Set(except ? all.filter((f) => f !== folder && !listed.includes(f)) : listed));
  }
  const envLine = lines.find((l) => l.startsWith('**Environment.**')) ?? '';
  const envReaders = new Set(names(/only in (.*?)(;|$)/.exec(envLine)?.[1] ?? ''));
  if (envReaders.size === 0) throw new Error('no env readers: a line "**Environment.** … only in `a`, `b`; …"');
  return { allowed, envReaders };
}

function names(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

/** A folder of src/ without a row, a name in a row that is no row, and a cycle the table itself allows. */
export function tableProblems(table: LayerTable, folders: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const f of [...folders].sort()) {
    if (!table.allowed.has(rowOf(f, table.allowed)))
      out.push(`src/${f} has no row in the layer table: add one saying what it may import, and why`);
  }
  for (const [folder, allowed] of table.allowed) {
    for (const a of allowed) if (!table.allowed.has(a)) out.push(`the row of ${folder} names ${a}, which has no row of its own`);
  }
  for (const f of [...table.envReaders].filter((r) => !table.allowed.has(r))) out.push(`the env readers name ${f}, which has no row`);
  const edges = new Map([...table.allowed].map(([f, a]) => [f, [...a].filter((x) => x !== f)]));
  for (const cycle of cyclesOf(edges)) out.push(`the table allows a cycle: ${cycle.join(' → ')}`);
  return out;
}

/** Each import across folders that the table does not allow. */
export function importViolations(refs: readonly ImportRef[], table: LayerTable, doc = 'docs/architecture.md'): string[] {
  const out: string[] = [];
  for (const r of refs) {
    if (r.target === undefined) continue;
    const from = folderOf(r.file);
    const how = `${r.dynamic ? 'a dynamic ' : r.typeOnly ? 'a type-only ' : 'an '}import of '${r.specifier}'`;
    if (r.target === '(computed)') {
      out.push(`${r.file}:${r.line}: ${how.replace(" of '(computed)'", '')} with a computed specifier cannot be checked; name the module`);
      continue;
    }
    if (!r.target.startsWith('src/')) {
      out.push(`${r.file}:${r.line}: ${how} reaches outside src/`);
      continue;
    }
    const to = folderOf(r.target);
    if (to === from) continue;
    const allowed = table.allowed.get(rowOf(from, table.allowed));
    // A family is imported as `tools/*` (any family) by the rows that may; never by another family.
    if (allowed?.has(to) || (allowed?.has(FAMILY_ROW) && rowOf(to, table.allowed) === FAMILY_ROW)) continue;
    const rule = allowed ? `${from} may import ${allowed.size > 0 ? [...allowed].join(', ') : 'nothing of ours'}` : `${from} has no row`;
    const family =
      rowOf(from, table.allowed) === FAMILY_ROW && rowOf(to, table.allowed) === FAMILY_ROW
        ? ' (a family never imports another: go through a port)'
        : '';
    out.push(`${r.file}:${r.line}: ${from} may not import ${to}${family} (${how}); ${rule} (${doc})`);
  }
  return out;
}

/** Each cycle between folders, as `a → b → a`, with one import that makes each step. */
export function folderCycles(refs: readonly ImportRef[]): string[] {
  const edges = new Map<string, string[]>();
  const example = new Map<string, ImportRef>();
  for (const r of refs) {
    if (r.target === undefined || !r.target.startsWith('src/')) continue;
    const from = folderOf(r.file);
    const to = folderOf(r.target);
    if (from === to) continue;
    const key = `${from}\0${to}`;
    if (!example.has(key)) {
      example.set(key, r);
      edges.set(from, [...(edges.get(from) ?? []), to]);
    }
  }
  return cyclesOf(edges).map((cycle) => {
    const steps = cycle.slice(1).map((to, i) => {
      const r = example.get(`${cycle[i]}\0${to}`)!;
      return `${r.file}:${r.line} imports ${r.target}`;
    });
    return `${cycle.join(' → ')}  (${steps.join('; ')})`;
  });
}

/**
 * Each cycle between files — type-only and dynamic imports included, inside one folder
 * too: a module that needs its importer back cannot be read (or evaluated lazily) alone.
 */
export function fileCycles(refs: readonly ImportRef[]): string[] {
  const edges = new Map<string, string[]>();
  const example = new Map<string, ImportRef>();
  for (const r of refs) {
    if (r.target === undefined || !r.target.startsWith('src/') || r.target === r.file) continue;
    const key = `${r.file}\0${r.target}`;
    if (!example.has(key)) {
      example.set(key, r);
      edges.set(r.file, [...(edges.get(r.file) ?? []), r.target]);
    }
  }
  return cyclesOf(edges).map((cycle) => {
    const steps = cycle.slice(1).map((to, i) => `${cycle[i]}:${example.get(`${cycle[i]}\0${to}`)!.line}`);
    return `${cycle.join(' → ')}  (the imports at ${steps.join(', ')})`;
  });
}

/**
 * One shortest cycle per strongly connected group of folders (Tarjan), starting
 * and ending at its first folder in name order.
 */
function cyclesOf(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flat()])].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const strong = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) strong(v);
  return groups
    .sort((a, b) => a[0]!.localeCompare(b[0]!))
    .map((group) => {
      const members = new Set(group);
      const start = group[0]!;
      // Breadth-first inside the group, back to the start: the shortest cycle through it.
      const previous = new Map<string, string>();
      const queue = [start];
      while (queue.length > 0) {
        const v = queue.shift()!;
        for (const w of [...(edges.get(v) ?? [])].sort()) {
          if (!members.has(w) || previous.has(w)) continue;
          previous.set(w, v);
          if (w === start) queue.length = 0;
          else queue.push(w);
        }
      }
      const cycle = [start];
      for (let v = previous.get(start)!; v !== start; v = previous.get(v)!) cycle.unshift(v);
      return [start, ...cycle];
    });
}

/** `process.env`, `homedir()` and their imports in a file of a folder that may not read the environment. */
export function envReads(root: string, file: string, readers: ReadonlySet<string>): string[] {
  if (readers.has(folderOf(file))) return [];
  const source = parse(root, file);
  const out: string[] = [];
  const flag = (node: ts.Node, what: string) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    out.push(
      `${file}:${line}: ${what} below the composition root; only ${[...readers].join(', ')} read the environment — take env / home from the caller`,
    );
  };
  const isProcess = (e: ts.Expression) => ts.isIdentifier(e) && e.text === 'process';
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAccessExpression(node) && isProcess(node.expression) && node.name.text === 'env') flag(node, 'process.env');
    else if (
      ts.isElementAccessExpression(node) &&
      isProcess(node.expression) &&
      ts.isStringLiteralLike(node.argumentExpression) &&
      node.argumentExpression.text === 'env'
    )
      flag(node, 'process.env');
    else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (
        (ts.isIdentifier(callee) && callee.text === 'homedir') ||
        (ts.isPropertyAccessExpression(callee) && callee.name.text === 'homedir')
      ) {
        flag(node, 'homedir()');
      }
    } else if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const spec = node.moduleSpecifier.text.replace(/^node:/, '');
      const bindings = node.importClause?.namedBindings;
      const named = bindings && ts.isNamedImports(bindings) ? bindings.elements.map((e) => (e.propertyName ?? e.name).text) : [];
      if (spec === 'process' && named.includes('env')) flag(node, "env imported from 'node:process'");
      if (spec === 'os' && named.includes('homedir')) flag(node, "homedir imported from 'node:os'");
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function parse(root: string, file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}
