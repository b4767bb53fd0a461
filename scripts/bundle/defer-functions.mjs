// Moves the function declarations of the CLI script's lazily evaluated modules into the
// function that evaluates each module, so that a start creates them only for the modules it
// evaluates.
//
// esbuild bundles a module that something loads on demand (an import(), a require() of a tool's
// file) as a wrapper: `var a, b, init_x = __esm(() => { …the module's statements… })`. Its
// `var`s and its function declarations are hoisted out of the wrapper to the bundle's top level,
// where the other modules reach them by name. For the `var`s that costs nothing until they are
// set, but a function declaration at the top level of the CLI's one function is created every
// time that function runs, and V8 compiles the function with a SharedFunctionInfo for each of
// them in its code cache: ~1,050 functions of modules a `tools list` never evaluates (zod's, the
// tools' implementations, the REPL's), 28% of the code cache a `tools list` deserializes at every
// start (docs/benchmarks.md). Here each such `function f(…) {…}` becomes `var f;` where it was and
// `f = function f(…) {…};` at the start of its module's wrapper.
//
// Why that keeps the module's meaning: the other modules name `f` only after they have run
// `init_x()` (esbuild puts that call first in every importer, eager or lazy), and the wrapper
// sets `f` before anything else it runs, before its own imports' `init_*()` calls, so a module in
// an import cycle finds `f` set as it would with the declaration. The function keeps its name, and
// the source map its mapping of the name (src/cli/internal-error.ts names frames from it); inside
// it, `f` is the function itself, as before, since nothing assigns `f` (assignedNames).
// What is moved is checked, and anything else stays where it was: a function whose module the
// source map does not name, a module whose wrapper is not found or declares names of its own.
import { decode, encode } from '@jridgewell/sourcemap-codec';
import ts from 'typescript';

/**
 * esbuild's __esm helper as it minifies it (the version in package.json): `(fn, res, err) => () =>
 * { if (err) throw err[0]; try { return fn && (res = fn(fn = 0)), res } catch (e) { throw err =
 * [e], e } }`, names aside. Another shape means another esbuild, whose wrappers this pass has not
 * been checked against: the build stops and says so.
 */
const ESM_HELPER =
  /^\(([\w$]+),([\w$]+),([\w$]+)\)=>\(\)=>\{if\(\3\)throw \3\[0\];try\{return \1&&\(\2=\1\(\1=0\)\),\2\}catch\(([\w$]+)\)\{throw \3=\[\4\],\4\}\}$/;

/**
 * The script `code` (one function expression, the CLI's bundle) with its lazily evaluated
 * modules' function declarations moved into their wrappers, and its source map (v3, as JSON)
 * moved with them. `moved`: how many; `kept`: top-level function declarations left where they were.
 */
export function deferModuleFunctions(code, mapJson) {
  const map = JSON.parse(mapJson);
  const sf = ts.createSourceFile('cli.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  // TypeScript's parser records what it cannot read instead of throwing: a tree it misread is not edited.
  const [problem] = sf.parseDiagnostics;
  if (problem !== undefined)
    throw new Error(
      `defer-functions: the script does not parse at ${problem.start}: ${ts.flattenDiagnosticMessageText(problem.messageText, ' ')}`,
    );
  const body = scriptFunction(sf).body;
  const at = offsetsToLines(code);
  const sourceAt = sourceLookup(decode(map.mappings), map.sources, at);

  const helper = esmHelper(body, sf);
  const wrappers = new Map(); // source file → the wrapper's arrow function body, or null when two
  for (const st of body.statements) {
    if (!ts.isVariableStatement(st)) continue;
    for (const d of st.declarationList.declarations) {
      const block = wrapperBlock(d.initializer, helper);
      if (block === undefined) continue;
      const file = moduleOf(block, sf, sourceAt);
      if (file !== undefined) wrappers.set(file, wrappers.has(file) ? null : block);
    }
  }

  const cuts = [];
  const assigned = assignedNames(body);
  let kept = 0;
  for (const st of body.statements) {
    if (!ts.isFunctionDeclaration(st) || st.name === undefined) continue;
    const start = st.getStart(sf);
    const file = sourceAt(start);
    const block = file === undefined ? undefined : wrappers.get(file);
    if (!block || declaresNames(block) || assigned.has(st.name.text)) {
      kept++;
      continue;
    }
    cuts.push({ start, end: st.end, name: st.name.text, insertAt: afterPrologue(block, sf) });
  }

  // The new text as pieces: slices of the old one (whose mappings move with them) and text added.
  const pieces = [];
  const events = [
    ...cuts.map((c) => ({ at: c.start, cut: c })),
    ...[...Map.groupBy(cuts, (c) => c.insertAt)].map(([insertAt, group]) => ({ at: insertAt, group })),
  ].sort((a, b) => a.at - b.at);
  let cursor = 0;
  for (const e of events) {
    pieces.push({ from: cursor, to: e.at });
    if (e.cut) {
      pieces.push({ text: `var ${e.cut.name};` });
      cursor = e.cut.end;
    } else {
      for (const c of e.group) {
        pieces.push({ text: `${c.name}=` }, { from: c.start, to: c.end }, { text: ';' });
      }
      cursor = e.at;
    }
  }
  pieces.push({ from: cursor, to: code.length });

  let out = '';
  const moves = []; // [oldFrom, oldTo, newFrom]
  for (const p of pieces) {
    if (p.text !== undefined) out += p.text;
    else {
      if (p.to > p.from) moves.push([p.from, p.to, out.length]);
      out += code.slice(p.from, p.to);
    }
  }
  return {
    code: out,
    map: JSON.stringify({ ...map, mappings: encode(movedMappings(decode(map.mappings), at, moves, out)) }),
    moved: cuts.length,
    kept,
  };
}

/** The script's one function expression: `(function (module, require, url) { … })`. */
function scriptFunction(sf) {
  const [st] = sf.statements;
  const expr = st && ts.isExpressionStatement(st) && ts.isParenthesizedExpression(st.expression) ? st.expression.expression : undefined;
  if (sf.statements.length !== 1 || expr === undefined || !ts.isFunctionExpression(expr)) {
    throw new Error("defer-functions: the CLI's script is not one function expression");
  }
  return expr;
}

/** The name esbuild's __esm helper has in this script (ESM_HELPER), or undefined for a script with no lazily evaluated module. */
function esmHelper(body, sf) {
  const found = [];
  for (const st of body.statements) {
    if (!ts.isVariableStatement(st)) continue;
    for (const d of st.declarationList.declarations) {
      if (ts.isIdentifier(d.name) && d.initializer && ESM_HELPER.test(d.initializer.getText(sf))) found.push(d.name.text);
    }
  }
  if (found.length > 1) throw new Error(`defer-functions: more than one __esm helper (${found.join(', ')})`);
  if (found.length === 0 && /=>\(\)=>\{if\([\w$]+\)throw [\w$]+\[0\];try\{return/.test(body.getText(sf))) {
    throw new Error("defer-functions: the script has an __esm helper of another shape: check this pass against the new esbuild's wrappers");
  }
  return found[0];
}

/** The body of `helper(() => { … })`, the wrapper of one module. */
function wrapperBlock(init, helper) {
  if (helper === undefined || init === undefined || !ts.isCallExpression(init)) return undefined;
  if (!ts.isIdentifier(init.expression) || init.expression.text !== helper || init.arguments.length !== 1) return undefined;
  const fn = init.arguments[0];
  return ts.isArrowFunction(fn) && fn.parameters.length === 0 && ts.isBlock(fn.body) ? fn.body : undefined;
}

/** The one source file a wrapper's statements come from, or undefined (none mapped, or several). */
function moduleOf(block, sf, sourceAt) {
  const files = new Set(block.statements.map((s) => sourceAt(s.getStart(sf))).filter((f) => f !== undefined));
  return files.size === 1 ? [...files][0] : undefined;
}

/**
 * Whether the wrapper's own scope declares a name (a `var` anywhere in it; a function, class,
 * `let` or `const` among its statements): one could shadow a name a moved function uses.
 * esbuild hoists them all out, so none is expected; one found keeps the module's functions
 * where they were.
 */
function declaresNames(block) {
  if (block.statements.some((s) => ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isVariableStatement(s))) return true;
  let found = false;
  const visit = (node) => {
    // A function or a class has a scope of its own.
    if (found || ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isVariableDeclarationList(node) && (node.flags & ts.NodeFlags.BlockScoped) === 0) found = true;
    else ts.forEachChild(node, visit);
  };
  block.statements.forEach(visit);
  return found;
}

/**
 * Every identifier the script assigns to, in any scope. A moved function stays named (`f =
 * function f() {…}`: its name, and the map's name for it, are as before), and inside a named
 * function expression its name is bound to itself, read-only: a function whose name is ever
 * assigned (here or in a scope that reuses the minified name) stays a declaration.
 */
function assignedNames(body) {
  const names = new Set();
  // A destructuring target counts every identifier in it (property names too: more kept, never fewer).
  const target = (node) => {
    if (ts.isIdentifier(node)) names.add(node.text);
    else if (ts.isArrayLiteralExpression(node) || ts.isObjectLiteralExpression(node))
      node.forEachChild(function all(n) {
        if (ts.isIdentifier(n)) names.add(n.text);
        n.forEachChild(all);
      });
  };
  const visit = (node) => {
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken.kind;
      if (op >= ts.SyntaxKind.FirstAssignment && op <= ts.SyntaxKind.LastAssignment) target(node.left);
    }
    if (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) target(node.operand);
    if ((ts.isForOfStatement(node) || ts.isForInStatement(node)) && !ts.isVariableDeclarationList(node.initializer))
      target(node.initializer);
    ts.forEachChild(node, visit);
  };
  visit(body);
  return names;
}

/** Where the wrapper's statements start, after its directives (`"use strict"` stays first). */
function afterPrologue(block, sf) {
  let at = block.getStart(sf) + 1;
  for (const s of block.statements) {
    if (!ts.isExpressionStatement(s) || !ts.isStringLiteral(s.expression)) break;
    at = s.end;
  }
  return at;
}

/** Converts between offsets and (line, column) in `text`. */
function offsetsToLines(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return {
    starts,
    offset: (line, column) => starts[line] + column,
    position(offset) {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= offset) lo = mid;
        else hi = mid - 1;
      }
      return [lo, offset - starts[lo]];
    },
  };
}

/** The source file the mapping at exactly `offset` names (a token's start), or undefined. */
function sourceLookup(lines, sources, at) {
  const exact = new Map();
  lines.forEach((segments, line) => {
    for (const s of segments) if (s.length >= 4) exact.set(at.offset(line, s[0]), sources[s[1]]);
  });
  return (offset) => exact.get(offset);
}

/** The mappings with each segment where its text went (`moves`); a segment of text not kept is dropped. */
function movedMappings(lines, at, moves, out) {
  const sorted = [...moves].sort((a, b) => a[0] - b[0]);
  const newAt = offsetsToLines(out);
  const result = newAt.starts.map(() => []);
  lines.forEach((segments, line) => {
    for (const s of segments) {
      const old = at.offset(line, s[0]);
      let lo = 0;
      let hi = sorted.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (sorted[mid][0] <= old) lo = mid;
        else hi = mid - 1;
      }
      const m = sorted[lo];
      if (m === undefined || old < m[0] || old >= m[1]) continue;
      const [l, c] = newAt.position(m[2] + (old - m[0]));
      result[l].push([c, ...s.slice(1)]);
    }
  });
  for (const segments of result) segments.sort((a, b) => a[0] - b[0]);
  return result;
}
