import type { FaceHead } from './face.ts';
import type { AnyTool } from './tool.ts';

// A built-in tool's head: what registering and listing it read (name, kind, needs, a
// static description, its arguments' JSON Schema), as plain data. The build computes every
// tool's head from its definition (scripts/bundle/tool-heads.mjs) and the bundle carries the
// heads, so a run registers the catalog without evaluating the tool modules or building their
// zod schemas. What registering runs as code — a description that depends on the run,
// `available`, `describeArgs` — the build cuts out of the tool file into a head module
// (scripts/bundle/head-module.mjs). A tool's module is evaluated when something first reads a
// part of it neither holds (its run, its args). The vitest run uses the definitions themselves;
// test/tools/tool-head.test.ts holds the two equal (docs/startup.md).

/** The fields a head carries as they are; all plain JSON. */
const STATIC_KEYS = [
  'name',
  'kind',
  'job',
  'dialect',
  'needs',
  'uses',
  'requires',
  'digest',
  'narrowHint',
  'ownsCancellation',
  'aliases',
  'caps',
  'excludedIn',
] as const;

export interface ToolHead {
  /** The static fields, and the description when it is a string (a template, catalog.ts renders it). */
  readonly fields: Readonly<Record<string, unknown>>;
  /** The definition's other keys: reading one of them evaluates the tool's module. */
  readonly present: readonly string[];
  /** `z.toJSONSchema(args)`, as JSON text (parsed per catalog: a catalog may change its copy). */
  readonly argsSchema?: string;
  /** Its faces (other dialects' names for it) as registering reads them, each with its arguments' JSON Schema as text. */
  readonly faces?: ReadonlyArray<FaceHead & { readonly argsSchema: string }>;
  /**
   * Keys answered by the tool's head module, which the build generates from the tool file (a
   * description or `available` that depends on the run, cut out of the module so registering
   * it evaluates no zod): the definition's value for each is that module's member of that name.
   */
  readonly companion?: readonly string[];
}

/**
 * The head of a tool definition (the build then moves the keys its head module answers from
 * `present` to `companion`); throws, naming the tool, where a static field is not plain JSON.
 */
export function toolHead(def: AnyTool): ToolHead {
  const own = def as unknown as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const key of STATIC_KEYS) if (def[key] !== undefined) fields[key] = def[key];
  if (typeof def.description === 'string') fields.description = def.description;
  if (!isPlainJson(fields)) {
    throw new Error(`tool ${def.name}: its head (${Object.keys(fields).join(', ')}) is not plain JSON`);
  }
  const present = Object.keys(def).filter((k) => !(k in fields) && own[k] !== undefined);
  const argsSchema = def.inputSchema === undefined ? JSON.stringify(argsJsonSchema(def)) : undefined;
  const faces = def.faces?.map((f) => ({
    dialect: f.dialect,
    name: f.name,
    description: f.description,
    argsSchema: JSON.stringify(f.args.toJSONSchema({ target: 'draft-7', io: 'input' })),
  }));
  return {
    fields,
    present,
    ...(argsSchema !== undefined ? { argsSchema } : {}),
    ...(faces !== undefined ? { faces } : {}),
  };
}

/** Where a lazy definition keeps its head's JSON Schema text (never a key of a real definition). */
const ARGS_SCHEMA = Symbol('core-agent.argsSchema');
/** Where a lazy definition keeps its faces' heads. */
const FACE_HEADS = Symbol('core-agent.faceHeads');

/** A tool's faces as registering reads them: from its head in the bundle (its module not evaluated), else its definition. */
export function faceHeadsOf(def: AnyTool): readonly FaceHead[] {
  const fromHead = (def as { readonly [FACE_HEADS]?: readonly FaceHead[] })[FACE_HEADS];
  if (fromHead !== undefined) return fromHead;
  return (def.faces ?? []).map((f) => ({ dialect: f.dialect, name: f.name, description: f.description }));
}

/** The JSON Schema the model sees for one of a tool's faces (by name). */
export function faceJsonSchema(def: AnyTool, name: string): Record<string, unknown> {
  const fromHead = (def as { readonly [FACE_HEADS]?: ReadonlyArray<{ name: string; argsSchema: string }> })[FACE_HEADS];
  const head = fromHead?.find((f) => f.name === name);
  if (head !== undefined) return JSON.parse(head.argsSchema) as Record<string, unknown>;
  const face = def.faces?.find((f) => f.name === name);
  if (face === undefined) throw new Error(`tool ${def.name} has no face named ${name}`);
  return face.args.toJSONSchema({ target: 'draft-7', io: 'input' }) as Record<string, unknown>;
}

/** The JSON Schema the model sees for a built-in tool's arguments (before `describeArgs`). */
export function argsJsonSchema(def: AnyTool): Record<string, unknown> {
  const precomputed = (def as { readonly [ARGS_SCHEMA]?: string })[ARGS_SCHEMA];
  if (precomputed !== undefined) return JSON.parse(precomputed) as Record<string, unknown>;
  // The schema's own method, not z.toJSONSchema: this module must not import zod (a run that
  // only lists the catalog never evaluates it); test/tools/tool-head.test.ts holds them equal.
  return def.args.toJSONSchema({ target: 'draft-7', io: 'input' }) as Record<string, unknown>;
}

/**
 * A definition that answers from its head (and its head module's members, `companion`) and
 * evaluates the module (`load`) on the first read of anything else. `onLoad` hears each load
 * (the tests count them).
 */
export function lazyTool(
  head: ToolHead,
  load: () => AnyTool,
  o: { onLoad?: (name: string) => void; companion?: Readonly<Record<string, unknown>> } = {},
): AnyTool {
  const handler = new LazyToolHandler(head, load, o.onLoad, o.companion);
  handler.proxy = new Proxy({} as AnyTool, handler);
  return handler.proxy;
}

/**
 * A tool's "module" in the tools' listing script, which bundles none (scripts/bundle/tool-family.mjs,
 * listingLoad): `members` — its settings schema under a recipe, from a head module of its own —
 * and nothing else. Any other key read throws, naming the tool and the key: the listing needed
 * more of the tool than a listing reads, so the command line belongs to the whole CLI
 * (src/startup/cli-script.ts, listsTools), and a test catches the case.
 */
export function listingDefinition(name: string, members: Readonly<Record<string, unknown>> = {}): AnyTool {
  return new Proxy(members, {
    get(target, key) {
      if (typeof key !== 'string' || key in target) return target[key as keyof typeof target];
      throw new Error(
        `tool ${name}: its ${key} is not in the tools' listing script, which holds no tool module (src/startup/cli-script.ts, listsTools)`,
      );
    },
  }) as unknown as AnyTool;
}

/**
 * lazyTool's proxy handler, one object per tool and its methods shared: every command that
 * builds the catalog makes one per built-in tool, and as closures its functions were eight per
 * tool, each with a `__name` call while the CLI's bundle kept names (~100 KB of `tools list`'s
 * allocation then).
 */
class LazyToolHandler implements ProxyHandler<AnyTool> {
  proxy: AnyTool | undefined;
  private def: AnyTool | undefined;

  constructor(
    private readonly head: ToolHead,
    private readonly load: () => AnyTool,
    private readonly onLoad: ((name: string) => void) | undefined,
    private readonly companion: Readonly<Record<string, unknown>> | undefined,
  ) {}

  get(_target: AnyTool, key: string | symbol): unknown {
    if (key === ARGS_SCHEMA) return this.head.argsSchema;
    if (key === FACE_HEADS) return this.head.faces ?? [];
    if (typeof key !== 'string') return undefined;
    if (key in this.head.fields) return this.head.fields[key];
    if (this.fromCompanion(key)) return this.companion![key];
    return this.fromModule(key) ? (this.real() as unknown as Record<string, unknown>)[key] : undefined;
  }

  has(_target: AnyTool, key: string | symbol): boolean {
    return this.hasKey(key);
  }

  ownKeys(): string[] {
    return [...Object.keys(this.head.fields), ...this.head.present, ...(this.head.companion ?? [])];
  }

  // An accessor, so that listing the keys (Object.keys, a spread's check) evaluates nothing.
  getOwnPropertyDescriptor(_target: AnyTool, key: string | symbol): PropertyDescriptor | undefined {
    const proxy = this.proxy!;
    return this.hasKey(key) ? { get: () => Reflect.get(proxy, key), enumerable: true, configurable: true } : undefined;
  }

  set(): boolean {
    return false;
  }

  private real(): AnyTool {
    if (this.def === undefined) {
      this.def = this.load();
      this.onLoad?.(String(this.head.fields.name));
    }
    return this.def;
  }

  private fromCompanion(key: string): boolean {
    return this.companion !== undefined && (this.head.companion ?? []).includes(key);
  }

  // Without the head module (a head read elsewhere), its keys are the definition's like the rest.
  private fromModule(key: string): boolean {
    return this.head.present.includes(key) || (this.companion === undefined && (this.head.companion ?? []).includes(key));
  }

  private hasKey(key: string | symbol): boolean {
    return typeof key === 'string' && (key in this.head.fields || this.fromModule(key) || this.fromCompanion(key));
  }
}

/** Strings, finite numbers, booleans, null, arrays and plain objects of them: what survives JSON unchanged. */
function isPlainJson(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isPlainJson);
  if (typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return false;
  return Object.values(v).every(isPlainJson);
}
