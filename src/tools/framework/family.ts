import type { Recipe } from '../../config/recipe-schema.ts';
import type { Principal, UserHome } from '../../core/principal.ts';
import type { Logger } from '../../log.ts';
import type { Resolver } from '../../net/guarded-fetch.ts';
import type { PathScope } from '../../permissions/path-scope.ts';
import type { MissingReasons, ToolServices } from './services.ts';
import type { SessionState } from './session.ts';
import type { AnyTool } from './tool.ts';

/**
 * One tool file of a family, as `virtual:tool-family` hands it over (scripts/bundle/tool-family.mjs):
 * the module's exports (vitest, and the build step that computes the heads), or, in the
 * bundle, the tool itself, answering from its head until its module is needed (tool-head.ts).
 */
export type FamilyMember =
  { readonly file: string; readonly exports: Readonly<Record<string, unknown>> } | { readonly file: string; readonly tool: AnyTool };

/**
 * The command line's and the environment's settings a family's services read, where they
 * beat the recipe (`--bash-search-gate`, `CORE_AGENT_RIPGREP`). Open like ToolServices: a
 * family declares the settings it reads beside its services, and the root hands its whole
 * settings object, which must have each of them.
 */
// Empty here: filled by the families' declaration merging.
export interface FamilySettings {}

/** What a family's services are built from: the recipe, the run's settings and places, and what is built already. */
export interface ServiceContext {
  readonly recipe: Recipe;
  /** Where relative paths in the recipe are resolved from. */
  readonly recipeDir: string;
  readonly workspace: string;
  readonly settings: FamilySettings;
  /** The process environment (the recipe names variables in it: keys, tokens, URLs). */
  readonly env: NodeJS.ProcessEnv;
  /** The environment the model's commands start from (credential-looking variables are withheld there). */
  readonly commandEnv: NodeJS.ProcessEnv;
  readonly home: string;
  readonly logger: Logger;
  readonly scope: PathScope;
  readonly session: SessionState;
  /** core-agent's state directory; absent in tests and recipe validate (nothing is recorded). */
  readonly stateDir?: string | undefined;
  /** Who the run acts for (per-user families are rooted at their home). */
  readonly principal: Principal;
  /** The principal's home under the state directory; absent without one (tests, recipe validate): per-user families are then missing. */
  readonly userHome?: UserHome | undefined;
  /** The DNS resolver behind the SSRF guard (a test seam; default: the system's). */
  readonly resolver?: Resolver | undefined;
  /** What the root and the families listed before this one provided. */
  readonly services: ToolServices;
  /**
   * false for recipe validate: the recipe alone, never the world it names — no cluster is
   * looked for, no variable the recipe names is read, nothing required is checked (a CI job
   * validating recipes has no cluster and none of their secrets); start-up and `doctor` do.
   */
  readonly world: boolean;
}

/** A family's services: built by the root only when one of its tools is enabled. */
export type FamilyServices = (ctx: ServiceContext) => Partial<ToolServices> | Promise<Partial<ToolServices>>;

/** A family: its tools in catalog order, the services it provides, and why a tool is missing without them. */
export interface Family {
  readonly name: string;
  readonly tools: readonly AnyTool[];
  readonly services?: FamilyServices | undefined;
  /** The reason a tool needing one of this family's services gives when the service is absent. */
  readonly missing: MissingReasons;
}

/**
 * A family from its folder: `members` is `virtual:tool-family` (every tool file, by file
 * name), `services` builds what the family provides (declared beside it in its
 * `services.ts` by merging into ToolServices), `missing` says why each is absent. The
 * families list (`src/tools/index.ts`) is the only other place that names it.
 */
export function defineFamily(
  name: string,
  members: readonly FamilyMember[],
  o: { services?: FamilyServices; missing?: MissingReasons } = {},
): Family {
  return { name, tools: familyTools(name, members), services: o.services, missing: o.missing ?? {} };
}

/**
 * A family's tools, one per tool file (a `.ts` with its `.md` beside it), in
 * file-name order. The folder is the registration: there is no list to keep in
 * step with the files, so a tool file that exports no definition, or two, is a
 * build mistake and fails at start-up (and in the tests, and in the build, which
 * reads every file's exports to compute the heads), naming the file.
 */
export function familyTools(family: string, members: readonly FamilyMember[]): readonly AnyTool[] {
  return members.map((m) => {
    if ('tool' in m) return m.tool;
    const defs = Object.entries(m.exports).filter(([, v]) => isToolDefinition(v));
    if (defs.length !== 1) {
      const found = defs.length === 0 ? 'none' : defs.map(([k]) => k).join(', ');
      throw new Error(
        `src/tools/${family}/${m.file}: a tool file (a .ts with its .md beside it) exports exactly one tool definition; found ${found}`,
      );
    }
    return defs[0]![1] as AnyTool;
  });
}

function isToolDefinition(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const d = v as Partial<Record<keyof AnyTool, unknown>>;
  return typeof d.name === 'string' && typeof d.kind === 'string' && typeof d.run === 'function' && typeof d.args === 'object';
}
