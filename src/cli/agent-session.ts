import type { WatchdogMode } from '../agent/watchdog.ts';
import type { AskMode } from '../runtime/askers.ts';
import { principal, PRINCIPAL_NAME, PRINCIPAL_NAME_RULE, type Principal } from '../core/principal.ts';
import { gateNamespace, parseRule, RULE_SYNTAX } from '../permissions/rules.ts';
import { LATEST } from '../runtime/resume-step.ts';
import { splitList, type FlagSettings } from '../runtime/settings.ts';
import { flagSettings, type CommonValues } from './common-options.ts';
import { UsageError } from './usage.ts';

/** The agent options of a command line (command-table.ts agentOptions), already checked by the parse. */
export interface AgentValues extends CommonValues {
  readonly model?: string;
  readonly 'agentic-small-model'?: string;
  readonly 'session-db'?: string;
  readonly 'fresh-session-db'?: boolean;
  readonly resume?: string;
  readonly continue?: boolean;
  readonly 'max-steps'?: number;
  readonly 'max-session-cost-usd'?: number;
  readonly 'allow-tool'?: readonly string[];
  readonly 'deny-tool'?: readonly string[];
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
  readonly watchdog?: WatchdogMode;
  readonly 'reset-watchdog'?: boolean;
  readonly checkpoint?: 'auto' | 'operator';
  readonly ask?: AskMode;
  readonly user?: string;
}

/** The agent options of a command line, as the root takes them; what two flags say together is checked here. */
export interface AgentFlags {
  flags: FlagSettings;
  checkpoint: 'auto' | 'operator';
  maxSteps: number | undefined;
  resume: string | undefined;
  resetWatchdog: boolean;
  fresh: boolean;
  /** --user NAME (run, repl): who the run acts for, over CORE_AGENT_USER and the OS account. */
  principal: Principal | undefined;
}

export function agentFlags(values: AgentValues, command: string): AgentFlags {
  if (values.continue && values.resume !== undefined) throw new UsageError('give --resume ID or --continue, not both', command);
  const resume = values.continue ? LATEST : values.resume;
  if (values['reset-watchdog'] && resume === undefined) throw new UsageError('--reset-watchdog needs --resume ID (or --continue)', command);
  const flags: FlagSettings = {
    ...flagSettings(values),
    allowTools: (values['allow-tool'] ?? []).flatMap(splitList),
    denyTools: (values['deny-tool'] ?? []).flatMap(splitList),
    allowRules: ruleFlags(values.allow, '--allow', command),
    denyRules: ruleFlags(values.deny, '--deny', command),
    model: values.model,
    agenticSmallModel: values['agentic-small-model'],
    sessionDb: values['session-db'],
    watchdog: values.watchdog,
    ask: values.ask,
    maxSessionCostUsd: values['max-session-cost-usd'],
  };
  return {
    flags,
    checkpoint: values.checkpoint ?? 'auto',
    maxSteps: values['max-steps'],
    resume,
    resetWatchdog: values['reset-watchdog'] === true,
    fresh: values['fresh-session-db'] === true,
    principal: userFlag(values.user, command),
  };
}

/** --user NAME: a principal name (a terminal user is never an admin: that is the daemon's configuration). */
function userFlag(name: string | undefined, command: string): Principal | undefined {
  if (name === undefined) return undefined;
  if (!PRINCIPAL_NAME.test(name))
    throw new UsageError(`--user "${name.slice(0, 64)}" is not a valid user name (${PRINCIPAL_NAME_RULE})`, command);
  return principal(name);
}

/**
 * --allow / --deny: permission rules, as the recipe's permissions.allow/deny hold
 * them. A rule may leave out the `tool.` of a built-in (`call_peer:prod-*` is
 * `tool.call_peer:prod-*`); a rule that does not parse is a usage error naming
 * the flag and the syntax, and never echoes more than a line of it.
 */
function ruleFlags(given: readonly string[] | undefined, flag: string, command: string): string[] {
  return (given ?? []).map((raw) => {
    const rule = raw.trim();
    const full = rule === '*' || rule.startsWith('tool.') || rule.startsWith('mcp.') ? rule : bareRule(rule);
    try {
      parseRule(full);
    } catch {
      const shown = rule.length > 80 ? `${rule.slice(0, 80)}…` : rule;
      throw new UsageError(`${flag} "${shown}" is not a permission rule; expected ${RULE_SYNTAX} (or TOOL[:PATTERN])`, command);
    }
    return full;
  });
}

function bareRule(rule: string): string {
  const colon = rule.indexOf(':');
  const tool = colon === -1 ? rule : rule.slice(0, colon);
  return `${gateNamespace(tool)}${colon === -1 ? '' : rule.slice(colon)}`;
}
