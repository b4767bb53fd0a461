import { family as agentic } from './agentic/index.ts';
import { family as data } from './data/index.ts';
import { family as delegation } from './delegation/index.ts';
import { family as files } from './files/index.ts';
import type { Family } from './framework/family.ts';
import { FRAMEWORK_MISSING, type MissingReasons } from './framework/services.ts';
import type { AnyTool } from './framework/tool.ts';
import { faceHeadsOf } from './framework/tool-head.ts';
import { family as k8s } from './k8s/index.ts';
import { family as memory } from './memory/index.ts';
import { family as peers } from './peers/index.ts';
import { family as planning } from './planning/index.ts';
import { family as scion } from './scion/index.ts';
import { family as search } from './search/index.ts';
import { family as shell } from './shell/index.ts';
import { family as skills } from './skills/index.ts';
import { family as verify } from './verify/index.ts';
import { family as web } from './web/index.ts';
import { family as workspace } from './workspace/index.ts';

/**
 * The families list: every built-in family, in catalog order. Adding a family is its
 * folder and one line here; nothing else names it. Recipes, --disable-tools and
 * permission rules are checked against the tools' names, so a name from a newer build
 * is an error here rather than a silent no-op. Which tools a run registers depends on its
 * services (each tool's `needs`), which the families build (each family's `services`).
 */
export const FAMILIES: readonly Family[] = [
  shell,
  files,
  search,
  workspace,
  data,
  verify,
  k8s,
  skills,
  web,
  planning,
  memory,
  scion,
  peers,
  delegation,
  agentic,
];

/** Every built-in tool, in canonical catalog order: the families one after the other. */
export const BUILTIN_TOOLS: readonly AnyTool[] = FAMILIES.flatMap((f) => f.tools);

export const BUILTIN_TOOL_NAMES: readonly string[] = BUILTIN_TOOLS.map((t) => t.name);

/** Why a tool is missing without a service: the framework's reasons and every family's. */
export const MISSING_REASONS: MissingReasons = Object.assign({}, FRAMEWORK_MISSING, ...FAMILIES.map((f) => f.missing)) as MissingReasons;

/** Other dialects' names for built-in tools (golem's `ReadFile`), each with the canonical name it stands for. */
export const BUILTIN_FACE_NAMES: ReadonlyMap<string, string> = new Map(
  BUILTIN_TOOLS.flatMap((t) => faceHeadsOf(t).map((f) => [f.name, t.name] as const)),
);

/**
 * What a recipe checks tool names against: every built-in tool, and every face name (a
 * permission rule, tools.disable or tools.enable may say `ReadFile` for read_file). A face
 * takes no settings of its own: `tools.read_file` configures it.
 */
export const BUILTIN_TOOL_SPECS: ReadonlyArray<{ name: string; settings?: AnyTool['settings'] }> = [
  ...BUILTIN_TOOLS,
  ...[...BUILTIN_FACE_NAMES.keys()].map((name) => ({ name })),
];

/** Every name a built-in tool answers to: canonical names, then face names. */
export const BUILTIN_TOOL_AND_FACE_NAMES: readonly string[] = [...BUILTIN_TOOL_NAMES, ...BUILTIN_FACE_NAMES.keys()];

export function isBuiltinToolName(name: string): boolean {
  return BUILTIN_TOOL_NAMES.includes(name) || BUILTIN_FACE_NAMES.has(name);
}

/** The canonical name for a built-in tool's canonical or face name (`ReadFile` → read_file); other names as they are. */
export function canonicalToolName(name: string): string {
  return BUILTIN_FACE_NAMES.get(name) ?? name;
}

/**
 * A permission rule with a face name made canonical (`tool.ReadFile:src/**` → `tool.read_file:src/**`):
 * the gate matches calls under canonical names, whichever name the model called.
 */
export function canonicalRule(rule: string): string {
  return rule.replace(/^tool\.([A-Za-z][A-Za-z0-9_]*)(?=$|[:.])/, (all, name: string) =>
    BUILTIN_FACE_NAMES.has(name) ? `tool.${BUILTIN_FACE_NAMES.get(name)!}` : all,
  );
}
