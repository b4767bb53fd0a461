import type { z } from 'zod/v4';
import type { FileChange } from '../../permissions/gate.ts';
import type { ResolvedPath } from '../../permissions/resolve-path.ts';
import type { Dialect } from '../../core/dialects.ts';
import type { ToolFace } from './face.ts';
import type { ToolKind } from './kinds.ts';
import type { ScenarioExclusions } from './scenario.ts';
import type { OutputCaps } from './output.ts';
import type { ServiceName, ToolServices } from './services.ts';
import type { SessionState } from './session.ts';

import type { FailureKind } from '../../core/failure.ts';
import type { JsonObject } from '../../core/json.ts';

// The leaf types every layer shares live in core/; tools import them from here for brevity.
export type { JsonObject, JsonValue } from '../../core/json.ts';
export { ToolError } from '../../core/tool-error.ts';

export type FileAccess = 'read' | 'write';

/** A path argument the gate must check before the tool runs. */
export interface PathClaim {
  /** The argument it came from, so the tool can find its resolved form. */
  arg: string;
  /** What the model sent (relative to the workspace, absolute, or `~/…`). */
  path: string;
  access: FileAccess;
  /**
   * Resolve a symlink in the last component (default). delete_file says false:
   * removing a link must remove the link, not its target.
   */
  followFinal?: boolean;
}

/**
 * The services a tool sees: the home directory and the permission mode, each service it
 * `needs` (present: it is registered only then) and each it `uses` (maybe absent).
 */
export type ServicesFor<Needs extends ServiceName = never, Uses extends ServiceName = never> = Pick<
  ToolServices,
  'home' | 'permissionMode'
> & {
  readonly [K in Needs]-?: NonNullable<ToolServices[K]>;
} & { readonly [K in Uses]: ToolServices[K] };

/** What the dispatcher hands a tool for one call; `Settings` is its parsed `tools.<name>` section. */
export interface ToolContext<Settings = Readonly<Record<string, unknown>>, Services = ServicesFor> {
  /** The workspace root, symlinks resolved. */
  readonly workspace: string;
  /** Paths named by `paths(args)`, resolved and already passed by the gate, by argument name. */
  readonly paths: ReadonlyMap<string, ResolvedPath>;
  /**
   * Resolve and gate a further path the tool discovers or was given in a batch
   * (read_many_files entries, walk results). Resolves to a reason string when
   * the gate refuses, so batch tools can report it per entry and carry on.
   */
  authorizePath(path: string, access: FileAccess): Promise<ResolvedPath | { refused: string }>;
  /** Workspace-relative for paths inside the workspace, absolute otherwise. */
  display(realPath: string): string;
  /**
   * Whether path_scope and the deny rules let this tool read an already-physical
   * path (walk results: the walk never follows symlinks, so no resolution needed).
   */
  readable(realPath: string): boolean;
  /** The caps the output layer will apply; tools use them to stop early. */
  readonly caps: OutputCaps;
  /** This tool's settings from the recipe (`tools.<name>`), parsed by its schema: defaults filled in. */
  readonly settings: Readonly<Settings>;
  /** The services the tool declared (`needs`, `uses`) and nothing else (services.ts, servicesView). */
  readonly services: Services;
  /** Whether a tool is registered in this catalog. */
  hasTool(name: string): boolean;
  /**
   * The name the model calls a registered tool by (a canonical name in, golem's `ReadFile` out in
   * that dialect), or undefined when it is not registered: a message naming another tool uses it.
   */
  toolName(name: string): string | undefined;
  /** Aborted at the call's deadline. */
  readonly signal: AbortSignal;
  /** The session: turn, todo list, terminals, its id. */
  readonly session: SessionState;
  /**
   * Call another tool through the dispatcher — validation, scope, gate, deadline, caps —
   * exactly as a model's call would go (wait_and_verify). `digest: false` returns the
   * capped result itself rather than a digest of it, for a condition to inspect.
   */
  callTool(name: string, args: unknown, signal: AbortSignal, opts?: { digest?: boolean }): Promise<ToolCallOutcome>;
  /** A registered tool by canonical or model-facing name, and every registered one. */
  lookupTool(name: string): ToolSummary | undefined;
  listTools(): ToolSummary[];
}

/** What a tool may know about another: names, its kind, and whether it is read-only (from the kind). */
export interface ToolSummary {
  readonly name: string;
  readonly modelName: string;
  readonly kind: ToolKind;
  readonly readOnly: boolean;
}

/** What a description that depends on the run is rendered from. */
export interface DescribeEnv {
  readonly services: ToolServices;
  /** The tools registered beside it. */
  readonly registered: readonly AnyTool[];
}

/** A call another tool made through the dispatcher: a failure says its kind, which is what to branch on (never the text). */
export type ToolCallOutcome =
  { readonly ok: true; readonly result: JsonObject } | { readonly ok: false; readonly error: string; readonly kind: FailureKind };

export interface ToolDefinition<
  Args extends z.ZodType = z.ZodType,
  Settings extends z.ZodObject = z.ZodObject,
  Needs extends ServiceName = never,
  Uses extends ServiceName = never,
> {
  /** Canonical name: the gate key is `tool.<name>`. */
  readonly name: string;
  /**
   * The model-facing description, from `<tool>.md` beside the tool. A template:
   * `{{#other_tool}}…{{/other_tool}}` keeps a passage only when other_tool is
   * registered, `{{^other_tool}}…{{/other_tool}}` only when it is not (describe.ts,
   * which the catalog renders every description with: "descriptions follow the catalog"). A function only where it lists what the
   * run configured (url_scope entries, alert targets, skills, plan mode, the search gate).
   */
  readonly description: string | ((env: DescribeEnv) => string);
  readonly args: Args;
  /**
   * Argument descriptions that name what the run configured (alert's targets),
   * replacing the schema's own in the JSON Schema the model sees.
   */
  describeArgs?(services: ToolServices): Readonly<Record<string, string>>;
  /** What the tool does; every trait (read-only, file edit, lifecycle, …) derives from it (kinds.ts). */
  readonly kind: ToolKind;
  /**
   * The job it does, or jobs (apply_patch writes, edits and deletes): a dialect registers one
   * tool per job (dialect.ts). Default: a job of its own, named after the tool.
   */
  readonly job?: string | readonly string[];
  /** Which seed system's tool this is under its own name (default core-agent; bash is Cagent's too). */
  readonly dialect?: Dialect | readonly Dialect[];
  /**
   * Other systems' names for this tool (golem's `ReadFile` for read_file): in that dialect the
   * catalog registers the face — its name, argument names and description — over this engine.
   */
  readonly faces?: readonly ToolFace[];
  /**
   * The scenarios whose catalogs do not offer it (scenario.ts): `{subagent: true}` for a tool a
   * child agent must not have (the delegation tools), `{subagent: ['golem']}` for one only that
   * dialect's children lack (golem's subagents cannot ask the user). Plain data: the bundle's
   * head carries it, so filtering evaluates no tool module.
   */
  readonly excludedIn?: ScenarioExclusions;
  /**
   * Services the tool cannot work without: it is registered only when each is present (the
   * framework's or its family's reasons say why not), and `ctx.services` has each, typed as present.
   */
  readonly needs?: readonly Needs[];
  /** Services the tool reads when they are there (`ctx.services` has them, maybe undefined); anything undeclared it never sees. */
  readonly uses?: readonly Uses[];
  /** A further condition on the services: a reason when the tool cannot be registered, else null. */
  available?(services: ToolServices): string | null;
  /** `tools.<name>` in the recipe: a strict object whose defaults fill `ctx.settings`. */
  readonly settings?: Settings;
  /** This tool's output caps when the recipe sets none (default: output.ts DEFAULT_CAPS). */
  readonly caps?: Partial<OutputCaps>;
  /** Registered only when this other tool is (the terminal tools need bash). */
  readonly requires?: string;
  /** Alternative argument names accepted and mapped before validation (`query` → `expression`). */
  readonly aliases?: Readonly<Record<string, string>>;
  /**
   * Refuse a call before the permission gate — in every mode, yolo included —
   * with a complete model-facing message (bash: the denylist, the search gate).
   */
  precheck?(
    args: z.output<Args>,
    /** typedByOperator: the operator typed the call (the REPL's `!command`); checks that steer the model do not apply. */
    env: { hasTool(name: string): boolean; toolName(name: string): string | undefined; services: ToolServices; typedByOperator?: boolean },
  ): Promise<string | null>;
  /**
   * What permission rules match besides paths, as text (bash: the command line for
   * `tool.bash:<pattern>`, each command name for `tool.bash.cmd:<name>`), and why
   * no wildcard rule may auto-allow the call, when none may (bash: not one literal
   * simple command, or a verb that acts — `find -delete`, see verb-profiles.ts).
   */
  gateSubjects?(args: z.output<Args>): Promise<{ subject: string; verbs: string[]; wildcardRefusal?: string | undefined }>;
  /** The paths this call touches, for path_scope and per-path permission rules. */
  paths?(args: z.output<Args>): PathClaim[];
  /**
   * Edit tools: each file's content before and after, for the approval prompt's
   * diff. Called (after path_scope) only when someone is asked; must not write.
   */
  changes?(
    args: z.output<Args>,
    env: { paths: ReadonlyMap<string, ResolvedPath>; display(real: string): string },
  ): Promise<readonly FileChange[]>;
  /**
   * The input JSON Schema as the model sees it, for tools whose schema comes from
   * elsewhere (MCP servers); `args` then only checks that the input is an object.
   */
  readonly inputSchema?: Record<string, unknown>;
  /**
   * Large results become a structural digest plus a call_id for retrieve_raw
   * (the survey tools and MCP tools; never read_file, bash or json_query).
   */
  readonly digest?: boolean;
  /** How to narrow a result that hit the output caps; goes into the truncation note. */
  readonly narrowHint: string;
  /**
   * The tool returns promptly by itself when its signal aborts, with a result that
   * says so (wait_and_verify: outcome canceled); the dispatcher then awaits it
   * instead of abandoning it with an error.
   */
  readonly ownsCancellation?: boolean;
  /**
   * The plan this call files, as text (record_plan): a checkpoint's completion record
   * quotes the session's last one. Read from the definition, so no caller tests a name.
   */
  planText?(args: z.output<Args>): string;
  /** The call's deadline when it is not the dispatcher's default (a wait longer than 300 s). */
  deadlineMs?(args: z.output<Args>, settings: Readonly<z.output<Settings>>): number;
  run(args: z.output<Args>, ctx: ToolContext<z.output<Settings>, ServicesFor<Needs, Uses>>): Promise<JsonObject>;
}

/** Helps TypeScript infer `Args` and `Settings` from the schemas when declaring a tool. */
export function defineTool<
  Args extends z.ZodType,
  Settings extends z.ZodObject = z.ZodObject,
  const Needs extends ServiceName = never,
  const Uses extends ServiceName = never,
>(def: ToolDefinition<Args, Settings, Needs, Uses>): ToolDefinition<Args, Settings, Needs, Uses> {
  return def;
}

// Settings and services are checked where a tool is declared; a list of tools holds any.
export type AnyTool = ToolDefinition<z.ZodType, any, any, any>;
