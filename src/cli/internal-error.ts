// An internal error (a defect) is printed with its stack, for the bug report. The CLI's built
// script is minified without keepNames (scripts/bundle/esbuild-options.mjs, cliScriptOptions: the
// `__name` call per function cost ~0.05–0.07× `node -e 0` at every start), so its frames name
// minified functions at positions in one long line. The build ships the script's source map
// beside it; here, and only here, it is read, and each frame in the script is printed with the
// source file, line and column it came from, and the function's name as written.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The text for an internal error: one line of heading, then the stack mapped to the sources. */
export function internalErrorText(err: unknown): string {
  return `core-agent: internal error: ${mappedStack(err, scriptFile())}\n`;
}

/** The file this code runs from: the CLI's built script in dist/, or a source file. */
function scriptFile(): string | undefined {
  try {
    return fileURLToPath(import.meta.url);
  } catch {
    return undefined;
  }
}

interface Frame {
  /** The position in `script`, 1-based as V8 reports it. */
  line: number;
  column: number;
  /** The function's position (1-based), when V8 gives it: its name as written is found there. */
  enclosing?: { line: number; column: number };
}

/**
 * `err`'s stack with the frames in `script` mapped through `${script}.map`. Without the map (the
 * sources run as they are, in tests) or for an error that is not an Error, the stack as V8
 * wrote it. Never throws: a broken map leaves the frames as they were.
 */
export function mappedStack(err: unknown, script: string | undefined): string {
  if (!(err instanceof Error)) return String(err);
  const map = script === undefined ? undefined : readMap(`${script}.map`);
  if (map === undefined || script === undefined) return err.stack ?? String(err);
  const sites = callSites(err);
  const text = err.stack ?? String(err);
  try {
    return sites === undefined ? mapText(text, script, map) : mapSites(err, sites, script, map);
  } catch {
    return text;
  }
}

function readMap(file: string): SourceMap | undefined {
  try {
    return new SourceMap(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return undefined;
  }
}

/**
 * V8's call sites for `err`, when its stack has not been written yet: V8 writes it on first
 * read, through Error.prepareStackTrace. An error whose stack was already read gives none.
 */
function callSites(err: Error): NodeJS.CallSite[] | undefined {
  let sites: NodeJS.CallSite[] | undefined;
  const saved = Error.prepareStackTrace;
  Error.prepareStackTrace = (_error, structured) => {
    sites = structured;
    return saved === undefined ? defaultStack(_error, structured) : saved(_error, structured);
  };
  try {
    void err.stack;
  } finally {
    Error.prepareStackTrace = saved;
  }
  return sites;
}

function defaultStack(err: Error, sites: NodeJS.CallSite[]): string {
  return `${errorHeading(err)}${sites.map((s) => `\n    at ${String(s)}`).join('')}`;
}

function errorHeading(err: Error): string {
  const name = err.name || 'Error';
  return err.message ? `${name}: ${err.message}` : name;
}

function mapSites(err: Error, sites: NodeJS.CallSite[], script: string, map: SourceMap): string {
  let lines: string[] | undefined;
  const source = () => (lines ??= readFileSync(script, 'latin1').split('\n'));
  const frames = sites.map((site) => {
    const file = site.getFileName();
    const line = site.getLineNumber();
    const column = site.getColumnNumber();
    if (file !== script || line === null || column === null) return `    at ${String(site)}`;
    const enclosingLine = site.getEnclosingLineNumber?.();
    const enclosingColumn = site.getEnclosingColumnNumber?.();
    const frame: Frame = {
      line,
      column,
      enclosing: enclosingLine && enclosingColumn ? { line: enclosingLine, column: enclosingColumn } : undefined,
    };
    const where = original(map, frame);
    if (where === undefined) return `    at ${String(site)}`;
    const fn = (frame.enclosing && writtenName(map, source(), frame.enclosing)) ?? site.getFunctionName() ?? undefined;
    const prefix = site.isAsync() ? 'async ' : site.isConstructor() ? 'new ' : '';
    return fn === undefined ? `    at ${prefix}${where}` : `    at ${prefix}${fn} (${where})`;
  });
  return [errorHeading(err), ...frames].join('\n');
}

/**
 * The name a function was given in the sources. V8 gives the position its definition starts at:
 * `function`'s for a declaration or expression, the name's for a method. The map names the
 * minified identifier that follows with the identifier as written.
 */
function writtenName(map: SourceMap, lines: string[], at: { line: number; column: number }): string | undefined {
  const text = lines[at.line - 1]?.slice(at.column - 1, at.column + 200);
  const m =
    text === undefined ? null : /^(?:async\s*)?(?:function\s*\*?\s*|class\s+|(?:static\s+|get\s+|set\s+|async\s+)*\*?)([\w$#]+)/.exec(text);
  if (m === null) return undefined;
  const column = at.column - 1 + m[0].length - m[1]!.length;
  const entry = map.findEntry(at.line - 1, column);
  if (!('generatedColumn' in entry) || entry.generatedColumn !== column) return undefined;
  return 'name' in entry && typeof entry.name === 'string' ? entry.name : undefined;
}

/** The stack as text (already written): each `script:line:column` becomes the source's. */
function mapText(text: string, script: string, map: SourceMap): string {
  const at = new RegExp(`${script.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+):(\\d+)`, 'g');
  return text.replace(at, (whole, line: string, column: string) => original(map, { line: Number(line), column: Number(column) }) ?? whole);
}

/** `source:line:column` (1-based) for a position in the script, or undefined outside the map. */
function original(map: SourceMap, frame: Frame): string | undefined {
  const entry = map.findEntry(frame.line - 1, frame.column - 1);
  if (!entry || !('originalSource' in entry) || typeof entry.originalSource !== 'string') return undefined;
  return `${sourcePath(entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
}

/** The map names sources relative to dist/: `../src/x.ts` is printed as `src/x.ts`. */
function sourcePath(source: string): string {
  return source.replace(/^(\.\.\/)+/, '');
}
