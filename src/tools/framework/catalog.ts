import type { z } from 'zod/v4';
import { unknownName } from '../../config/did-you-mean.ts';
import { renderDescription } from './describe.ts';
import { chooseForDialect, DEFAULT_DIALECT, overlaps, type Dialect } from './dialect.ts';
import type { FaceHead } from './face.ts';
import { kindTraits, type ToolKind } from './kinds.ts';
import { offeredIn, type Scenario } from './scenario.ts';
import { missingNeed, toolServices, type MissingReasons, type ToolServices } from './services.ts';
import type { AnyTool } from './tool.ts';
import { argsJsonSchema, faceHeadsOf, faceJsonSchema } from './tool-head.ts';

/** A tool as the model sees it: its rendered description and its JSON Schema. */
export interface RegisteredTool {
  readonly def: AnyTool;
  /** The canonical name: permission rules, recipes, logs (`read_file`, `mcp.gke.get_pods`). */
  readonly name: string;
  /** The name the model calls (`gke_get_pods`, golem's `ReadFile`); the canonical name for most built-ins. */
  readonly modelName: string;
  /** The face the dialect registered this tool under (its name, arguments and description are the face's). */
  readonly face?: FaceHead | undefined;
  readonly description: string;
  readonly kind: ToolKind;
  /** From the kind: kept here because the agent, the listing and wait_and_verify all ask. */
  readonly readOnly: boolean;
  /** `tools.<name>` from the recipe, parsed by the tool's settings schema (defaults filled in). */
  readonly settings: Readonly<Record<string, unknown>>;
  readonly inputSchema: Record<string, unknown>;
}

export class CatalogError extends Error {
  override readonly name = 'CatalogError';
}

export interface CatalogSelection {
  /**
   * What the run configured (default: nothing, toolServices()). A tool whose
   * `needs` are missing here, or whose `available` gives a reason, is left out
   * and the reason reported.
   */
  readonly services?: ToolServices;
  /** Why a tool is missing without each service (the families'; default: the framework's own). */
  readonly reasons?: MissingReasons;
  /** The recipe's `tools.<name>` sections (already validated against the same schemas). */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Canonical names to leave out (`tools.disable`, `--disable-tools`). */
  readonly disable?: readonly string[];
  /** Tools to register though the dialect did not choose them, by canonical or face name (`tools.enable`). */
  readonly enable?: readonly string[];
  /** The tool vocabulary (dialect.ts): one tool per job, under that system's names. Default core-agent. */
  readonly dialect?: Dialect;
  /** Two tools for one job are refused unless this says so (`tools.allow_overlap`). */
  readonly allowOverlap?: boolean;
  /**
   * The kinds the recipe allows (`tools.kinds`): said as the reason a tool of another kind is
   * missing. The root leaves those tools out through `disable` (catalog-step.ts).
   */
  readonly kinds?: readonly ToolKind[];
  /**
   * What the catalog is for (scenario.ts; default `chat`, a top-level session): a tool whose
   * definition excludes it is not offered, built-in or from a source.
   */
  readonly scenario?: Scenario;
  /** Canonical names a child's profile lists by name: in core-agent's dialect they are offered though the scenario excludes them. */
  readonly listed?: readonly string[];
}

/**
 * The registry of tools one run exposes. Built once per run from the built-in
 * definitions (in canonical order) and a selection; descriptions are rendered
 * against the final set, so a passage naming a tool that is not registered is
 * gone before the model reads it.
 */
export class Catalog {
  private byName: Map<string, RegisteredTool>;
  /** Tools from other sources (an MCP server each), replaced whole when the source's list changes. */
  private readonly sources = new Map<string, readonly RegisteredTool[]>();
  private all: readonly RegisteredTool[];
  private readonly listeners: Array<() => void> = [];
  /** A child agent's catalog: the parent's tools its grant left out (by canonical and model-facing name), and why. */
  private outsideGrant: { readonly names: ReadonlySet<string>; readonly why: string } | undefined;

  private constructor(
    /** What the tools read at run time as `ctx.services`. */
    readonly services: ToolServices,
    private readonly ordered: readonly RegisteredTool[],
    /** Tools left out by conditional registration, with the reason. */
    readonly skipped: ReadonlyArray<{ name: string; reason: string }>,
    /** Built-in tools the toggles and filters turned off. */
    private readonly turnedOff: ReadonlySet<string> = new Set(),
    /** The tool vocabulary this catalog speaks (dialect.ts). */
    readonly dialect: Dialect = DEFAULT_DIALECT,
    /** Tools the dialect left out, with why (another does their job in it). */
    private readonly leftOut: ReadonlyMap<string, string> = new Map(),
    /** Every face name the build has, with its tool and dialect: a call by another dialect's name is explained. */
    private readonly faces: ReadonlyMap<string, { tool: string; dialect: Dialect }> = new Map(),
    /** The kinds the recipe allows, and the kind of each built-in tool: why a tool of another kind is missing. */
    private readonly kinds?: { allowed: readonly ToolKind[]; of: ReadonlyMap<string, ToolKind> },
  ) {
    this.all = ordered;
    this.byName = new Map(ordered.flatMap((t) => (t.face ? [[t.name, t] as const, [t.modelName, t] as const] : [[t.name, t] as const])));
  }

  static build(defs: readonly AnyTool[], selection: CatalogSelection = {}): Catalog {
    const known = defs.map((d) => d.name);
    const faceHeads = defs.flatMap((d) => faceHeadsOf(d).map((f) => [f.name, { tool: d.name, dialect: f.dialect }] as const));
    const faceNames = new Map(faceHeads.map(([name, f]) => [name, f.tool] as const));
    const check = (list: readonly string[] | undefined, where: string, faces: boolean) => {
      for (const name of list ?? []) {
        if (!known.includes(name) && !(faces && faceNames.has(name))) {
          throw new CatalogError(`${where}: ${unknownName('tool', name, faces ? [...known, ...faceNames.keys()] : known)}`);
        }
      }
    };
    check(selection.disable, 'disabled tools', false);
    check(selection.enable, 'enabled tools', true);
    const disabled = new Set(selection.disable ?? []);
    for (const name of selection.enable ?? []) disabled.delete(faceNames.get(name) ?? name);

    const dialect = selection.dialect ?? DEFAULT_DIALECT;
    const choice = chooseForDialect(defs, dialect, faceHeadsOf, selection.enable);
    const overlap = overlaps(choice.chosen.filter((c) => !disabled.has(c.def.name)));
    if (overlap.length > 0 && selection.allowOverlap !== true) {
      const [first] = overlap;
      throw new CatalogError(
        `tools.enable: ${first!.tools.join(' and ')} would both be offered for one job (${first!.job}); ` +
          'turn one off, or set tools.allow_overlap: true to offer both on purpose',
      );
    }
    const services = selection.services ?? toolServices();
    const unavailable = (d: AnyTool): string | null =>
      missingNeed(d.needs ?? [], services, selection.reasons) ?? d.available?.(services) ?? null;
    const skipped: Array<{ name: string; reason: string }> = [];
    const offered = offerFilter(selection, dialect);
    const chosen = choice.chosen.filter((c) => {
      // Before the toggles: a child's catalog disables what it was not granted, and a tool its
      // scenario leaves out should say that rather than "not granted".
      if (!offered(c.def)) {
        skipped.push({ name: c.def.name, reason: notOffered(selection.scenario ?? 'chat') });
        return false;
      }
      if (disabled.has(c.def.name)) return false;
      const reason = unavailable(c.def);
      if (reason !== null) skipped.push({ name: c.def.name, reason });
      return reason === null;
    });
    // A tool that needs another one goes with it (canonical order puts the needed one first).
    for (let i = 0; i < chosen.length; i++) {
      const needs = chosen[i]!.def.requires;
      if (needs !== undefined && !chosen.slice(0, i).some((c) => c.def.name === needs)) {
        // Where the dialect left the needed tool out, say so: enabling it by name brings both back.
        const leftOut = choice.leftOut.get(needs);
        skipped.push({ name: chosen[i]!.def.name, reason: `it needs ${needs}, which is not registered${leftOut ? ` (${leftOut})` : ''}` });
        chosen.splice(i--, 1);
      }
    }
    // Descriptions name other tools by the name the model sees them under ({{@tool}}): golem's ReadFile, not read_file.
    const modelNames = new Map(chosen.map((c) => [c.def.name, c.face?.name ?? c.def.name]));
    const registeredDefs = chosen.map((c) => c.def);
    const registered = chosen.map(({ def, face }): RegisteredTool => {
      let schema: Record<string, unknown> | undefined;
      // Settings the recipe gave are parsed now (a bad one fails the build of the catalog); the
      // defaults only when a call reads them, so a listing never evaluates the tool's module.
      const given = selection.settings?.[def.name];
      let settings = given === undefined ? undefined : parseSettings(def, given);
      const template = face
        ? face.description
        : typeof def.description === 'function'
          ? def.description({ services, registered: registeredDefs })
          : def.description;
      return {
        def,
        name: def.name,
        modelName: face?.name ?? def.name,
        ...(face ? { face } : {}),
        description: renderDescription(template, { has: (n) => modelNames.has(n), modelName: (n) => modelNames.get(n) }),
        kind: def.kind,
        readOnly: kindTraits(def.kind).readOnly,
        get settings() {
          settings ??= parseSettings(def, undefined);
          return settings;
        },
        // Computed on first use: a single `tools call` never needs the other tools' schemas.
        get inputSchema() {
          schema ??= face ? faceJsonSchema(def, face.name) : withArgDescriptions(argsJsonSchema(def), def.describeArgs?.(services));
          return schema;
        },
      };
    });
    const kinds = selection.kinds && { allowed: selection.kinds, of: new Map(defs.map((d) => [d.name, d.kind] as const)) };
    const catalog = new Catalog(services, registered, skipped, disabled, dialect, choice.leftOut, new Map(faceHeads), kinds);
    ORIGINS.set(catalog, { defs, selection, faceNames });
    return catalog;
  }

  /**
   * The same catalog with only the tools `keep` passes (by canonical name): a child agent's,
   * built from the same definitions, selection and services (or `services`, the child's own view
   * of them), so its descriptions follow its own narrower set. Other sources' tools (MCP) are copied as they are now, under the same
   * model-facing names. `outsideGrant` says why a tool of this catalog that `keep` left out is
   * missing, when the child calls it.
   */
  narrowed(
    keep: (name: string) => boolean,
    services?: ToolServices,
    outsideGrant?: string,
    offer?: { readonly scenario: Scenario; readonly listed?: readonly string[] | undefined },
  ): Catalog {
    const origin = ORIGINS.get(this);
    if (!origin) throw new Error('narrowed: this catalog was not made by Catalog.build');
    const { defs, selection, faceNames } = origin;
    const dropped = defs.map((d) => d.name).filter((n) => !keep(n));
    const child = Catalog.build(defs, {
      ...selection,
      // A child agent's own view of the services (its questions marked with who asks), when given.
      services: services ?? selection.services,
      disable: [...(selection.disable ?? []), ...dropped],
      enable: selection.enable?.filter((n) => keep(faceNames.get(n) ?? n)),
      ...(offer ? { scenario: offer.scenario, listed: offer.listed } : {}),
    });
    for (const [source, tools] of this.sources) {
      const kept = tools.filter((t) => keep(t.name));
      child.setSource(
        source,
        kept.map((t) => t.def),
        (def) => kept.find((t) => t.def === def)!.modelName,
      );
    }
    // A call to a tool the parent has and the child was not granted is told so, not "turned off here".
    if (outsideGrant !== undefined) {
      const names = this.all
        .filter((t) => !keep(t.name) && !child.skipped.some((s) => s.name === t.name))
        .flatMap((t) => [t.name, t.modelName]);
      child.outsideGrant = { names: new Set(names), why: outsideGrant };
    }
    return child;
  }

  /**
   * Why a tool this build has is not in the catalog (its services are missing,
   * or it was turned off), or undefined for a name that is no built-in tool.
   * Said instead of "unknown tool": the caller learns what would register it.
   */
  notRegistered(name: string): string | undefined {
    if (this.byName.has(name)) return undefined;
    if (this.outsideGrant?.names.has(name)) return this.outsideGrant.why;
    const skipped = this.skipped.find((s) => s.name === name);
    if (skipped) return skipped.reason;
    const kind = this.kinds?.of.get(name);
    if (this.turnedOff.has(name) && kind !== undefined && !this.kinds!.allowed.includes(kind))
      return `its kind (${kind}) is not among the kinds this recipe allows (tools.kinds: ${this.kinds!.allowed.join(', ')}); tools.enable names an exception`;
    if (this.turnedOff.has(name))
      return 'it is turned off here (tools.disable in the recipe or a config file, CORE_AGENT_DISABLE_TOOLS, --disable-tools, --task, or --allow-tool / --deny-tool)';
    const face = this.faces.get(name);
    if (face !== undefined) {
      const as = this.byName.get(face.tool)?.modelName;
      return (
        `${name} is the ${face.dialect} dialect's name for ${face.tool}, and this run speaks ${this.dialect}` +
        (as !== undefined ? `: call ${as}` : ` (tools.dialect, --dialect or CORE_AGENT_DIALECT picks the dialect)`)
      );
    }
    return this.leftOut.get(name);
  }

  /**
   * Register (or replace, or with [] remove) the tools of one source. Their
   * descriptions and schemas are the source's own, untouched; each gets a
   * model-facing name from `modelName`, which must avoid every name in use.
   */
  setSource(source: string, defs: readonly AnyTool[], modelName: (def: AnyTool, taken: (n: string) => boolean) => string): void {
    this.sources.delete(source);
    this.reindex();
    const added: RegisteredTool[] = [];
    const origin = ORIGINS.get(this);
    const offered = origin ? offerFilter(origin.selection, this.dialect) : () => true;
    for (const def of defs) {
      if (this.byName.has(def.name) || !offered(def)) continue;
      const name = modelName(def, (n) => this.byName.has(n));
      let schema: Record<string, unknown> | undefined;
      const tool: RegisteredTool = {
        def,
        name: def.name,
        modelName: name,
        description:
          typeof def.description === 'function' ? def.description({ services: this.services, registered: defs }) : def.description,
        kind: def.kind,
        readOnly: kindTraits(def.kind).readOnly,
        settings: parseSettings(def, undefined),
        get inputSchema() {
          schema ??= def.inputSchema ?? argsJsonSchema(def);
          return schema;
        },
      };
      added.push(tool);
      this.byName.set(tool.name, tool).set(tool.modelName, tool);
    }
    if (added.length > 0) this.sources.set(source, added);
    this.reindex();
    for (const listener of this.listeners) listener();
  }

  /** Called after every change of a source's tools (MCP tools/list_changed). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  private reindex(): void {
    this.all = [...this.ordered, ...[...this.sources.values()].flat()];
    this.byName = new Map(
      this.ordered.flatMap((t) => (t.face ? [[t.name, t] as const, [t.modelName, t] as const] : [[t.name, t] as const])),
    );
    for (const t of this.all.slice(this.ordered.length)) this.byName.set(t.name, t).set(t.modelName, t);
  }

  /** The source a tool came from (`mcp:<server>`, `agents`), or undefined for a built-in tool or an unknown name. */
  sourceOf(name: string): string | undefined {
    const tool = this.byName.get(name);
    for (const [source, tools] of this.sources) if (tool && tools.includes(tool)) return source;
    return undefined;
  }

  /** By canonical or model-facing name. */
  get(name: string): RegisteredTool | undefined {
    return this.byName.get(name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Canonical names, in catalog order (built-ins first, then each source). */
  names(): string[] {
    return this.all.map((t) => t.name);
  }

  list(): readonly RegisteredTool[] {
    return this.all;
  }
}

/** Whether a definition is offered in the selection's scenario (a tool the profile lists may be, by dialect). */
function offerFilter(selection: CatalogSelection, dialect: Dialect): (def: AnyTool) => boolean {
  const scenario = selection.scenario ?? 'chat';
  const listed = new Set(selection.listed ?? []);
  return (def) => offeredIn(def, scenario, dialect, listed.has(def.name));
}

function notOffered(scenario: Scenario): string {
  return scenario === 'subagent'
    ? 'it is not offered to a sub-agent (its definition excludes the subagent scenario)'
    : `it is not offered in the ${scenario} scenario (its definition excludes it)`;
}

/** What each catalog was built from: `narrowed` builds a child's from the same. */
const ORIGINS = new WeakMap<Catalog, { defs: readonly AnyTool[]; selection: CatalogSelection; faceNames: ReadonlyMap<string, string> }>();

/** A tool's settings with its defaults filled in; the recipe was checked against the same schema. */
function parseSettings(def: AnyTool, given: unknown): Readonly<Record<string, unknown>> {
  if (!def.settings) return {};
  const parsed = (def.settings as z.ZodObject).safeParse(given ?? {});
  if (!parsed.success) throw new CatalogError(`tools.${def.name}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}

/** The schema with the descriptions a tool gives for this run (`describeArgs`) in place of its static ones. */
function withArgDescriptions(
  schema: Record<string, unknown>,
  given: Readonly<Record<string, string>> | undefined,
): Record<string, unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (!given || !properties) return schema;
  for (const [arg, text] of Object.entries(given)) {
    if (!properties[arg]) throw new CatalogError(`describeArgs names "${arg}", which is not an argument`);
    properties[arg] = { ...properties[arg], description: text };
  }
  return schema;
}
