import type { Document, LineCounter, Node } from 'yaml';
import yamlChunk from 'virtual:yaml-chunk';
import type { z } from 'zod/v4';
import { sharedEmbeddedModule } from '../startup/embedded.ts';
import { unknownName } from './did-you-mean.ts';
import { jsonSyntaxError } from './json-syntax.ts';
import { MAX_ALIAS_NODES, nestingProblem, treeProblems } from '../util/yaml-limits.ts';

/** A configuration file that cannot be used, with every problem found as `file:line:col: message`. */
export class RecipeError extends Error {
  override readonly name = 'RecipeError';
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

/** What a recipe's top level must be, said when it is something else. */
export const RECIPE_SHAPE = 'a recipe is a mapping of keys (tools, tool_output, permissions)';

/** A broken file can hold thousands of problems (one per level of `[[[[…`): the first ones are the useful ones. */
export const MAX_PROBLEMS = 20;

/**
 * yaml's own alias limit, set explicitly as a backstop only: treeProblems() has
 * already bounded the expansion, at the alias's position. yaml counts aliases its
 * own way and could refuse a document the budget accepts, so it is set well above.
 */
const YAML_MAX_ALIAS_COUNT = MAX_ALIAS_NODES * 100;

export type Yaml = typeof import('./yaml-entry.ts');
let yamlModule: Promise<Yaml> | undefined;

/** The YAML parser, loaded once and only when a file needs it: a run without a recipe should not pay for it. */
export function loadYaml(): Promise<Yaml> {
  yamlModule ??= sharedEmbeddedModule<Yaml>(yamlChunk, 'yaml.cjs');
  return yamlModule;
}

export interface ParseOptions {
  /** The file is JSON (.agents/mcp.json): what YAML accepts beyond JSON is an error. */
  json?: boolean;
}

/**
 * Parse YAML (or JSON) and validate it against a schema, reporting every
 * problem as `file:line:col: message` (recipes, .agents/mcp.json, SKILL.md front
 * matter). Never throws anything but RecipeError for what the file holds: syntax
 * errors and warnings at their own position, aliases checked before they are
 * expanded, anything toJS() still throws turned into a sentence.
 */
export async function parseConfigText<T>(
  text: string,
  file: string,
  schema: z.ZodType<T>,
  shape: string,
  opts: ParseOptions = {},
): Promise<T> {
  return (await parseConfigTextAt(text, file, schema, shape, opts)).value;
}

/** A parsed file and where each of its values was written (`line:col` of the node at a path, or its nearest ancestor). */
export interface Positioned<T> {
  value: T;
  at: (path: readonly PropertyKey[]) => string;
}

/** parseConfigText, keeping the positions: a later check on the value (a workspace's untrusted keys) can name them. */
export async function parseConfigTextAt<T>(
  text: string,
  file: string,
  schema: z.ZodType<T>,
  shape: string,
  opts: ParseOptions = {},
): Promise<Positioned<T>> {
  if (opts.json) {
    const bad = jsonSyntaxError(text);
    if (bad) throw new RecipeError([`${file}:${lineCol(text, bad.offset)}: not JSON: ${bad.message}`]);
  }
  const yaml = await loadYaml();
  const deep = nestingProblem(yaml, text);
  if (deep) throw new RecipeError([`${file}:${lineCol(text, deep.offset)}: ${deep.message}`]);
  const { doc, lines } = parseYaml(yaml, text);
  const at = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return `${line}:${col}`;
  };
  // Warnings too (an unknown tag, an unknown directive): a value read differently than written is not "fine".
  const syntax = [...doc.errors, ...doc.warnings]
    .sort((a, b) => a.pos[0] - b.pos[0])
    .map((e) => `${file}:${at(e.pos[0])}: YAML ${firstLine(e.message)}`);
  const duplicates = duplicateKeys(yaml, doc, lines, file);
  if (syntax.length > 0 || duplicates.length > 0) throw bounded(file, [...syntax, ...duplicates]);
  const tree = treeProblems(yaml, doc);
  if (tree.length > 0)
    throw bounded(
      file,
      tree.map((p) => `${file}:${position(p.node, lines)}: ${p.message}`),
    );
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: YAML_MAX_ALIAS_COUNT }) ?? {};
  } catch (err) {
    // The backstop: a position where one exists (the first alias), and the library's sentence.
    let firstAlias: Node | null = null;
    yaml.visit(doc, { Alias: (_k, node) => ((firstAlias = node), yaml.visit.BREAK) });
    throw new RecipeError([
      `${file}:${position(firstAlias ?? (doc.contents as Node | null), lines)}: YAML ${firstLine((err as Error).message)}`,
    ]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'list' : value === null ? 'null' : typeof value;
    throw new RecipeError([`${file}:${position(doc.contents as Node | null, lines)}: ${shape}, not a ${kind}`]);
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { value: parsed.data, at: (path) => position(nodeAt(doc, path), lines) };
  // Described only up to the limit: finding a key's node is a search, and 40 000 unknown keys took 17 s.
  const problems: string[] = [];
  let more = 0;
  for (const issue of parsed.error.issues) {
    const room = MAX_PROBLEMS - problems.length;
    const count = issue.code === 'unrecognized_keys' ? issue.keys.length : 1;
    if (room > 0) problems.push(...describeIssue(yaml, schema, issue, doc, lines, file, room));
    more += Math.max(0, count - room);
  }
  throw bounded(file, problems, more);
}

function parseYaml({ LineCounter, parseDocument }: Yaml, text: string) {
  const lines = new LineCounter();
  // Each syntax error is an Error object; their JS stacks are never shown (positions are), and
  // capturing them is most of what an error-dense file costs (a third of the time, 180 MB at 256 KiB).
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    // Duplicate keys are found below, so they can be reported where the second one is.
    const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
    return { doc, lines };
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** At most MAX_PROBLEMS, then a count of the rest (`more`: ones not even described). */
function bounded(file: string, problems: string[], more = 0): RecipeError {
  const rest = Math.max(0, problems.length - MAX_PROBLEMS) + more;
  if (rest === 0) return new RecipeError(problems);
  return new RecipeError([...problems.slice(0, MAX_PROBLEMS), `${file}: … and ${rest} more problems`]);
}

/** The first line of a library message, cut: it must never echo a large input. */
function firstLine(message: string): string {
  const line = message.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** `line:col` (1-based) of a UTF-16 offset in text. */
export function lineCol(text: string, offset: number): string {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return `${line}:${offset - start + 1}`;
}

function describeIssue(
  yaml: Yaml,
  schema: z.ZodType,
  issue: z.core.$ZodIssue,
  doc: Document,
  lines: LineCounter,
  file: string,
  limit: number,
): string[] {
  const dotted = (p: readonly PropertyKey[]) => p.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const known = keysAt(schema, issue.path);
    return issue.keys.slice(0, limit).map((key) => {
      const where = position(keyNode(yaml, doc, issue.path, key) ?? nodeAt(doc, issue.path), lines);
      const under = issue.path.length > 0 ? `${dotted(issue.path)}: ` : '';
      return `${file}:${where}: ${under}${unknownName('key', key, known)}`;
    });
  }
  const where = position(nodeAt(doc, issue.path), lines);
  // A record key that fails its pattern: the pattern's own message says what a name may be.
  const message = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
  return [`${file}:${where}: ${dotted(issue.path) || '(top level)'}: ${message}`];
}

function duplicateKeys({ visit, isScalar }: Yaml, doc: Document, lines: LineCounter, file: string): string[] {
  const found: string[] = [];
  visit(doc, {
    Map(_key, map) {
      const seen = new Map<string, Node>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const name = String(pair.key.value);
        const first = seen.get(name);
        if (first) found.push(`${file}:${position(pair.key, lines)}: duplicate key "${name}" (first at ${position(first, lines)})`);
        else seen.set(name, pair.key);
      }
    },
  });
  return found;
}

/**
 * `line:col` of the node at exactly `path` in a config file's text, or undefined when the text has
 * none there: for a check that runs after loading (a profile's skills, known once the skills
 * directories are read) to point at the line as the load's own checks do.
 */
export async function positionOf(text: string, path: readonly PropertyKey[]): Promise<string | undefined> {
  const { doc, lines } = parseYaml(await loadYaml(), text);
  const node = doc.getIn(path as unknown[], true) as Node | undefined;
  return node && typeof node === 'object' && 'range' in node ? position(node, lines) : undefined;
}

/** The node at `path`, or the nearest ancestor that exists (for a missing key). */
export function nodeAt(doc: Document, path: readonly PropertyKey[]): Node | null {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as unknown[], true) as Node | undefined;
    if (node && typeof node === 'object' && 'range' in node) return node;
  }
  return doc.contents as Node | null;
}

function keyNode({ isMap, isScalar }: Yaml, doc: Document, path: readonly PropertyKey[], key: string): Node | null {
  const parent = path.length === 0 ? doc.contents : doc.getIn(path as unknown[], true);
  if (!isMap(parent)) return null;
  const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
  return pair && isScalar(pair.key) ? pair.key : null;
}

export function position(node: Node | null, lines: LineCounter): string {
  const offset = node?.range?.[0] ?? 0;
  const { line, col } = lines.linePos(offset);
  return `${line}:${col}`;
}

/** The keys the schema accepts at `path` (for "did you mean" and the list of valid keys). */
function keysAt(root: z.ZodType, path: readonly PropertyKey[]): string[] {
  let schema: unknown = root;
  for (const seg of path) {
    schema = unwrap(schema);
    const def = (schema as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
    if (def?.type === 'object') schema = (def.shape as Record<string, unknown>)[String(seg)];
    else if (def?.type === 'array') schema = def.element;
    else if (def?.type === 'record') schema = def.valueType;
    else return [];
  }
  const def = (unwrap(schema) as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
  return def?.type === 'object' ? Object.keys(def.shape as Record<string, unknown>) : [];
}

function unwrap(schema: unknown): unknown {
  let s = schema as { _zod?: { def?: Record<string, unknown> } } | undefined;
  while (s?._zod?.def && ['optional', 'default', 'nullable', 'readonly', 'pipe'].includes(String(s._zod.def.type))) {
    s = (s._zod.def.innerType ?? s._zod.def.in) as typeof s;
  }
  return s;
}
