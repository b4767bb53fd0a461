// A tool's head module, generated from its tool file: what registering the tool runs of its
// code, cut out of the file so that the bundle can run it without evaluating the tool's module
// (zod and its schemas, the implementation). Registering a tool reads its head (the static
// fields, scripts/bundle/tool-heads.mjs) and, where the definition has them, three functions of
// the run: a description that depends on it (bash's search-gate sentence), `available` (update_plan
// is not offered in plan mode) and `describeArgs` (src/tools/framework/catalog.ts). Their
// expressions are taken from the `defineTool({…})` object literal, with the file's imports and
// top-level declarations they use, transitively, and nothing else:
//
//   import { fillDescription } from '../framework/describe.ts';   // kept: describe() uses it
//   import template from './bash.md';
//   function describe(mode, registered) { … }
//   export default { description: ({ services, registered }) => describe(…) };
//
// So a tool author writes the function where it belongs, in the definition or beside it in the
// tool file, and nothing else. What cannot be cut out is refused with the reason (the build then
// fails, naming the tool): a member the literal does not hold (a spread), a `let` or `var` the
// function would share with the module (two copies of state), or the definition itself. The
// module reaching zod is refused by the build too (tool-heads.mjs), with the chain of imports.
import ts from 'typescript';

/** The definition's members registration calls, beyond the head's data (src/tools/framework/catalog.ts). */
export const REGISTRATION_KEYS = ['description', 'available', 'describeArgs'];

/** The virtual module id of a tool file's head module: `tool-head:<file>?<keys>`. */
export const headModuleId = (file, keys) => `tool-head:${file}?${keys.join(',')}`;

/** `{ file, keys }` of a head module id, or undefined. */
export function parseHeadModuleId(id) {
  const m = /^tool-head:(.+)\?([\w,]+)$/.exec(id);
  return m ? { file: m[1], keys: m[2].split(',') } : undefined;
}

/**
 * The head module of the tool file `source` for the members `keys`: `{ source }`, a module whose
 * default export holds them, or `{ refused }`, a sentence saying why it cannot be made.
 */
export function headModule(source, keys, fileName = 'tool.ts') {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const definition = definitionOf(sf);
  if (definition === undefined) return { refused: 'no `export const … = defineTool({…})` with an object literal' };
  const members = [];
  for (const key of keys) {
    const member = definition.literal.properties.find((p) => p.name !== undefined && propertyName(p.name) === key);
    if (member === undefined) return { refused: `its definition's object literal has no member ${key} (a spread cannot be cut out)` };
    if (!ts.isPropertyAssignment(member) && !ts.isShorthandPropertyAssignment(member) && !ts.isMethodDeclaration(member))
      return { refused: `its ${key} is a ${ts.SyntaxKind[member.kind]}, not a property or a method` };
    members.push(member);
  }

  const declared = topLevelNames(sf);
  const kept = new Set();
  const usedImports = new Map(); // import statement → local names used
  const pending = members.flatMap((m) => referencedNames(m));
  const seen = new Set();
  while (pending.length > 0) {
    const name = pending.pop();
    if (seen.has(name)) continue;
    seen.add(name);
    const found = declared.get(name);
    if (found === undefined) continue; // a global, a parameter or a name of the expression's own
    if (found.import !== undefined) {
      usedImports.set(found.import, new Set([...(usedImports.get(found.import) ?? []), name]));
      continue;
    }
    const st = found.statement;
    if (st === definition.statement) return { refused: `its ${keys.join(', ')} use${keys.length === 1 ? 's' : ''} the definition itself` };
    if (ts.isVariableStatement(st) && (st.declarationList.flags & ts.NodeFlags.Const) === 0)
      return { refused: `it uses ${name}, a \`let\` or \`var\` the head module would hold a second copy of` };
    if (!kept.has(st)) {
      kept.add(st);
      pending.push(...referencedNames(st));
    }
  }

  const out = [];
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && usedImports.has(st)) {
      const imported = prunedImport(st, usedImports.get(st), sf);
      if (imported !== undefined) out.push(imported);
    } else if (kept.has(st)) out.push(st.getText(sf));
  }
  out.push(`export default {\n${members.map((m) => `  ${m.getText(sf)},`).join('\n')}\n};`);
  return { source: `${out.join('\n')}\n` };
}

/** The exported `const x = defineTool({…})` of the file: its statement and its object literal. */
function definitionOf(sf) {
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st) || !st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    for (const d of st.declarationList.declarations) {
      const init = d.initializer;
      if (init && ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'defineTool') {
        const [arg] = init.arguments;
        if (arg && ts.isObjectLiteralExpression(arg)) return { statement: st, literal: arg };
      }
    }
  }
  return undefined;
}

function propertyName(name) {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

/**
 * Each name the file declares at its top level: its import (for an imported name) or its
 * statement. A statement that declares several names (`const a = 1, b = 2`) is kept whole.
 */
function topLevelNames(sf) {
  const names = new Map();
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st)) {
      const clause = st.importClause;
      if (clause?.name) names.set(clause.name.text, { import: st });
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.set(bindings.name.text, { import: st });
      if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) names.set(e.name.text, { import: st });
    } else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) for (const n of bindingNames(d.name)) names.set(n, { statement: st });
    } else if (
      (ts.isFunctionDeclaration(st) ||
        ts.isClassDeclaration(st) ||
        ts.isInterfaceDeclaration(st) ||
        ts.isTypeAliasDeclaration(st) ||
        ts.isEnumDeclaration(st)) &&
      st.name
    ) {
      names.set(st.name.text, { statement: st });
    }
  }
  return names;
}

function bindingNames(name) {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(e.name)));
}

/**
 * The identifiers a node refers to: every identifier but a property's name after a dot or
 * before a colon. More than it uses (a parameter that shadows a top-level name counts) only
 * keeps more, never less.
 */
function referencedNames(node) {
  const names = new Set();
  const visit = (n) => {
    if (ts.isIdentifier(n)) {
      const p = n.parent;
      const isPropertyName =
        (p && ts.isPropertyAccessExpression(p) && p.name === n) ||
        (p && (ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isPropertySignature(p)) && p.name === n);
      if (!isPropertyName) names.add(n.text);
    }
    ts.forEachChild(n, visit);
  };
  // The members themselves: a shorthand `description` names the binding `description`.
  if (ts.isShorthandPropertyAssignment(node)) names.add(node.name.text);
  visit(node);
  return [...names];
}

/**
 * The import with only the values used, or undefined when it gives none. Type-only names go:
 * the module is never type-checked, and esbuild keeps an import whose names are all types as
 * an import for its side effects (verbatimModuleSyntax), which would evaluate the module.
 */
function prunedImport(st, used, sf) {
  const clause = st.importClause;
  if (clause.isTypeOnly) return undefined;
  const parts = [];
  if (clause.name && used.has(clause.name.text)) parts.push(clause.name.text);
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings) && used.has(bindings.name.text)) parts.push(`* as ${bindings.name.text}`);
  if (bindings && ts.isNamedImports(bindings)) {
    const named = bindings.elements.filter((e) => !e.isTypeOnly && used.has(e.name.text)).map((e) => e.getText(sf));
    if (named.length > 0) parts.push(`{ ${named.join(', ')} }`);
  }
  return parts.length === 0 ? undefined : `import ${parts.join(', ')} from ${st.moduleSpecifier.getText(sf)};`;
}
