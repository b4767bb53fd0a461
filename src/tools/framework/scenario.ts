import type { Dialect } from '../../core/dialects.ts';

/**
 * Per-scenario offers, one mechanism (golem's `Offers`): every catalog is built for a scenario,
 * and a tool whose definition excludes that scenario is not offered in it. The catalog of a
 * run's top-level session is `chat`'s; a child agent's is `subagent`'s. `scheduled_task` and
 * `situation_triage` are reserved for the scheduled tasks and the watch triage that later
 * issues add. Behaviour follows the definition's `excludedIn`, never a list of tool names.
 */
export const SCENARIOS = ['chat', 'subagent', 'scheduled_task', 'situation_triage'] as const;
export type Scenario = (typeof SCENARIOS)[number];

/**
 * Where a tool is not offered: `true` in every dialect's catalog for that scenario, or only in
 * these dialects' (Cagent's delegated agent has no update_plan; core-agent's child keeps it).
 */
export type ScenarioExclusions = Partial<Readonly<Record<Scenario, true | readonly Dialect[]>>>;

/**
 * Whether a profile that names an excluded tool in its `tools` list gets it anyway. core-agent:
 * yes, a profile listing spawn_agent delegates in turn (up to agents.max_depth). Cagent: no,
 * its delegated agents' depth is structurally 1. golem: no, its SubagentScenario never offers
 * subagent tools.
 */
const LISTING_BRINGS_BACK: Readonly<Record<Dialect, boolean>> = { 'core-agent': true, cagent: false, golem: false };

/** Whether the definition leaves the scenario out in this dialect (whatever a profile lists). */
export function excludedIn(def: { readonly excludedIn?: ScenarioExclusions | undefined }, scenario: Scenario, dialect: Dialect): boolean {
  const rule = def.excludedIn?.[scenario];
  return rule === true || (rule !== undefined && rule.includes(dialect));
}

/**
 * Whether a catalog for `scenario` in `dialect` offers the tool: not when its definition excludes
 * the scenario, unless `listed` (a profile named it) in a dialect where naming brings it back.
 */
export function offeredIn(
  def: { readonly excludedIn?: ScenarioExclusions | undefined },
  scenario: Scenario,
  dialect: Dialect,
  listed = false,
): boolean {
  return !excludedIn(def, scenario, dialect) || (listed && LISTING_BRINGS_BACK[dialect]);
}
