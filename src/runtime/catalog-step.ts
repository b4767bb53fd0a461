import type { Recipe } from '../config/recipe-schema.ts';
import { unknownName } from '../config/did-you-mean.ts';
import type { Logger } from '../log.ts';
import { parseRule } from '../permissions/rules.ts';
import { Catalog, CatalogError } from '../tools/framework/catalog.ts';
import { BUILTIN_TOOL_AND_FACE_NAMES, BUILTIN_TOOL_NAMES, BUILTIN_TOOLS, canonicalToolName, MISSING_REASONS } from '../tools/index.ts';
import { planGated } from '../tools/planning/plan-gated.ts';
import { searchTargets } from '../tools/shell/search-gate.ts';
import { searchGatePosture, type SearchGateMode } from '../tools/shell/search-gate.ts';
import type { Services } from './services.ts';
import { ENV, foldToolToggles, SettingsError, type Settings } from './settings.ts';

/**
 * The built-in tools this run turns off: the toggles, then what --allow-tool /
 * --deny-tool leave out. Checked before anything starts; the services step builds
 * no family whose tools are all off.
 */
export function turnedOff(recipe: Recipe, s: Settings): string[] {
  const toggles = toolToggles(recipe, s);
  return [...toggles.disabled, ...outOfKinds(recipe, toggles.enabled), ...filteredOut(s, BUILTIN_TOOL_NAMES)];
}

/**
 * The built-in tools whose kind the recipe's `tools.kinds` does not allow: a read-only recipe
 * says what it allows, so a writer added to the build later stays out of it without an edit.
 * A tool enabled by name (tools.enable, --enable-tools) is the recipe's exception.
 */
function outOfKinds(recipe: Recipe, enabled: readonly string[]): string[] {
  const kinds = recipe.tools?.kinds;
  if (kinds === undefined) return [];
  return BUILTIN_TOOLS.filter((t) => !kinds.includes(t.kind) && !enabled.includes(t.name)).map((t) => t.name);
}

/**
 * The tools the toggles leave out and the ones they add, folded from lowest to highest
 * layer: the recipe, the environment, --task, the flags.
 */
export function toolToggles(recipe: Recipe, s: Settings): { disabled: string[]; enabled: string[] } {
  const layer = (disableFrom: string, disable: readonly string[], enableFrom: string, enable: readonly string[]) => ({
    disable: { from: disableFrom, names: disable },
    enable: { from: enableFrom, names: enable },
  });
  return foldToolToggles([
    layer('recipe tools.disable', recipe.tools?.disable ?? [], 'tools.enable', recipe.tools?.enable ?? []),
    layer(ENV.disableTools.name, s.envDisable, ENV.enableTools.name, s.envEnable),
    // An investigation task leaves the shell out; --enable-tools bash puts it back.
    layer('--task', s.task ? ['bash'] : [], '--task', []),
    layer('--disable-tools', s.disableTools ?? [], '--enable-tools', s.enableTools ?? []),
  ]);
}

/**
 * The catalog step: the built-in definitions, less what the run turned off
 * (`turnedOff`) and what the services cannot support.
 */
export function buildCatalog(o: {
  settings: Settings;
  recipe: Recipe;
  services: Services;
  disabled: readonly string[];
  logger: Logger;
}): Catalog {
  const { services, logger } = o;
  let catalog: Catalog;
  try {
    catalog = Catalog.build(BUILTIN_TOOLS, {
      services: services.tools,
      reasons: MISSING_REASONS,
      disable: o.disabled,
      enable: toolToggles(o.recipe, o.settings).enabled,
      dialect: o.settings.dialect ?? o.recipe.tools?.dialect,
      allowOverlap: o.recipe.tools?.allow_overlap,
      kinds: o.recipe.tools?.kinds,
      settings: o.recipe.tools ?? {},
    });
  } catch (err) {
    if (err instanceof CatalogError) throw new SettingsError(err.message);
    throw err;
  }
  for (const skipped of catalog.skipped) logger.info({ tool: skipped.name, reason: skipped.reason }, 'tool not registered');
  if (catalog.has('bash')) logSearchGate(catalog, services.tools.searchGate ?? 'enforce', logger);
  reportPlanGated(catalog, services);
  return catalog;
}

/**
 * --allow-tool / --deny-tool only ever remove tools (filtering never grants a permission).
 * MCP names (mcp.<server>.<tool>, mcp.<server>, mcp.*) filter each server's tools as they arrive (mcp-step.ts).
 */
function filteredOut(s: Settings, known: readonly string[]): string[] {
  const builtin = (n: string) => !n.startsWith('mcp.');
  // A face name filters its tool (--deny-tool ReadFile leaves read_file out).
  s = { ...s, allowTools: s.allowTools?.map(canonicalToolName), denyTools: s.denyTools?.map(canonicalToolName) };
  for (const [flag, names] of [
    ['--allow-tool', s.allowTools],
    ['--deny-tool', s.denyTools],
  ] as const) {
    for (const n of names ?? []) {
      if (builtin(n)) {
        if (!known.includes(n)) throw new SettingsError(`${flag}: ${unknownName('tool', n, BUILTIN_TOOL_AND_FACE_NAMES)}`);
        continue;
      }
      try {
        parseRule(n);
      } catch (err) {
        throw new SettingsError(`${flag}: ${(err as Error).message}`);
      }
    }
  }
  const out: string[] = [];
  if (s.allowTools && s.allowTools.length > 0) out.push(...known.filter((n) => !s.allowTools!.includes(n)));
  out.push(...(s.denyTools ?? []).filter(builtin));
  return out;
}

/** Every boot says what the search gate does — and says so loudly when it can do nothing. */
function logSearchGate(catalog: Catalog, searchGate: SearchGateMode, logger: Logger): void {
  const targets = searchTargets((n) => catalog.has(n));
  const posture = searchGatePosture(searchGate, targets);
  if (searchGate !== 'allow' && targets.size === 0) logger.warn({ search_gate: searchGate }, posture);
  else logger.info({ search_gate: searchGate }, posture);
}

/** plan_mode: the plan recorder knows which tools its gate holds back, now and whenever the catalog changes. */
function reportPlanGated(catalog: Catalog, services: Services): void {
  const plans = services.tools.plans;
  if (!plans) return;
  const report = () =>
    plans.setGatedTools(
      catalog
        .list()
        .filter((t) => planGated(t.def))
        // Named as the model sees them: WriteFile under golem, write_file under core-agent.
        .map((t) => t.modelName),
    );
  report();
  catalog.onChange(report);
}
