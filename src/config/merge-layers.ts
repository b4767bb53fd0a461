import type { Recipe } from './recipe-schema.ts';

/**
 * How two recipe-shaped layers combine, the higher over the lower (user file <
 * project file < recipe; environment and flags are applied later, key by key, by
 * the steps that read them). docs/configuration.md#merging explains each rule.
 *
 * - A scalar, or a list not named below: the higher layer's value replaces it.
 * - A mapping not named below: merged key by key, by these same rules.
 * - `union`: the lists are joined, lower first, each entry once. These are the
 *   lists where every layer adds a rule of its own (permission rules, path and
 *   URL scopes, denied kinds, skill directories, hooks): a layer cannot remove
 *   a deny rule or a hook a lower one set, which is what a rule is for.
 * - `whole`: one named entry (an MCP server, an alert target) or a section whose
 *   keys only make sense together (web_search, watch) is taken from the highest
 *   layer that has it, never stitched from two (a searxng url under a brave key).
 * - tools.disable / tools.enable fold as the flags do: a disable adds, an
 *   enable from a higher layer puts back what a lower one disabled.
 */
export type MergeRule = 'union' | 'whole';

export const MERGE_RULES: Readonly<Record<string, MergeRule>> = {
  'permissions.allow': 'union',
  'permissions.deny': 'union',
  'permissions.path_scope.allow': 'union',
  'permissions.path_scope.deny': 'union',
  'permissions.url_scope.allow': 'union',
  'permissions.url_scope.deny': 'union',
  'kubernetes.denied_resources': 'union',
  'skills.dirs': 'union',
  'hooks.*': 'union',
  'mcp.servers.*': 'whole',
  'alerts.targets.*': 'whole',
  web_search: 'whole',
  watch: 'whole',
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function ruleAt(path: readonly string[]): MergeRule | undefined {
  const exact = MERGE_RULES[path.join('.')];
  if (exact) return exact;
  return path.length > 0 ? MERGE_RULES[[...path.slice(0, -1), '*'].join('.')] : undefined;
}

function union(lower: readonly unknown[], higher: readonly unknown[]): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const v of [...lower, ...higher]) {
    const key = JSON.stringify(v);
    if (!seen.has(key)) (seen.add(key), out.push(v));
  }
  return out;
}

function mergeAt(lower: unknown, higher: unknown, path: string[]): unknown {
  if (higher === undefined) return lower;
  if (lower === undefined) return higher;
  const rule = ruleAt(path);
  if (rule === 'union' && Array.isArray(lower) && Array.isArray(higher)) return union(lower, higher);
  if (rule === 'whole' || !isObj(lower) || !isObj(higher)) return higher;
  const out: Obj = { ...lower };
  for (const [key, value] of Object.entries(higher)) out[key] = mergeAt(lower[key], value, [...path, key]);
  return out;
}

/** `higher` over `lower`; neither is changed. */
export function mergeLayers(lower: Recipe, higher: Recipe): Recipe {
  const merged = mergeAt(lower, higher, []) as Recipe;
  const toggles = foldToggles(lower.tools, higher.tools);
  if (toggles) merged.tools = { ...merged.tools, ...toggles };
  // proxy and proxy_env are one choice: a higher layer naming either replaces the lower's.
  const hi = higher.permissions?.url_scope;
  const scope = merged.permissions?.url_scope;
  if (scope && hi && (hi.proxy !== undefined || hi.proxy_env !== undefined)) {
    if (hi.proxy === undefined) delete scope.proxy;
    if (hi.proxy_env === undefined) delete scope.proxy_env;
  }
  return merged;
}

type Toggles = { disable?: string[] | undefined; enable?: string[] | undefined };

/** The two lists after `higher` over `lower`; they never share a name (the catalog refuses that). */
function foldToggles(lower: Toggles | undefined, higher: Toggles | undefined): { disable: string[]; enable: string[] } | undefined {
  if (!lower?.disable && !lower?.enable && !higher?.disable && !higher?.enable) return undefined;
  const hiDisable = higher?.disable ?? [];
  const hiEnable = higher?.enable ?? [];
  const disable = [...new Set([...(lower?.disable ?? []).filter((t) => !hiEnable.includes(t)), ...hiDisable])];
  const enable = [...new Set([...(lower?.enable ?? []).filter((t) => !hiDisable.includes(t)), ...hiEnable])];
  return { disable, enable };
}
