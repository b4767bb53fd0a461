import { readFile } from 'node:fs/promises';
import type { Document, LineCounter, Node } from 'yaml';
import yamlChunk from 'virtual:yaml-chunk';
import { loadEmbeddedModule } from '../embedded.ts';
import type { z } from 'zod/v4';
import { unknownName } from './did-you-mean.ts';
import { recipeSchema, type Recipe } from './recipe-schema.ts';

/** A recipe that cannot be used, with every problem found as `file:line:col: message`. */
export class RecipeError extends Error {
  override readonly name = 'RecipeError';
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

export async function loadRecipe(file: string): Promise<Recipe> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new RecipeError([`${file}: cannot read the recipe (${e.code === 'ENOENT' ? 'no such file' : (e.code ?? e.message)})`]);
  }
  return parseRecipe(text, file);
}

type Yaml = typeof import('./yaml-entry.ts');
let yamlModule: Promise<Yaml> | undefined;

/** Parse and validate recipe text; all problems are reported at once, each with its position. */
export async function parseRecipe(text: string, file: string): Promise<Recipe> {
  return parseConfigText(text, file, recipeSchema(), 'a recipe is a mapping of keys (tools, tool_output, permissions)');
}

/**
 * Parse YAML (or JSON, which is YAML) and validate it against a strict schema,
 * reporting every problem as `file:line:col: message` (recipes, .agents/mcp.json).
 */
export async function parseConfigText<T>(text: string, file: string, schema: z.ZodType<T>, shape: string): Promise<T> {
  // Loaded only when there is a recipe: a run without one should not pay for a YAML parser.
  yamlModule ??= loadEmbeddedModule<Yaml>(yamlChunk, 'yaml.cjs');
  const yaml = await yamlModule;
  const { LineCounter, parseDocument } = yaml;
  const lines = new LineCounter();
  // Duplicate keys are found below, so they can be reported where the second one is.
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
  const syntax = doc.errors.map((e) => {
    const pos = e.linePos?.[0];
    return `${file}:${pos?.line ?? 1}:${pos?.col ?? 1}: YAML ${e.message.split('\n')[0]}`;
  });
  const duplicates = duplicateKeys(yaml, doc, lines, file);
  if (syntax.length > 0 || duplicates.length > 0) throw new RecipeError([...syntax, ...duplicates]);
  const value: unknown = doc.toJS() ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new RecipeError([`${file}:1:1: ${shape}, not a ${Array.isArray(value) ? 'list' : typeof value}`]);
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.flatMap((issue) => describeIssue(yaml, schema, issue, doc, lines, file));
  throw new RecipeError(problems);
}

function describeIssue(yaml: Yaml, schema: z.ZodType, issue: z.core.$ZodIssue, doc: Document, lines: LineCounter, file: string): string[] {
  const dotted = (p: readonly PropertyKey[]) => p.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const known = keysAt(schema, issue.path);
    return issue.keys.map((key) => {
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

/** The node at `path`, or the nearest ancestor that exists (for a missing key). */
function nodeAt(doc: Document, path: readonly PropertyKey[]): Node | null {
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

function position(node: Node | null, lines: LineCounter): string {
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
