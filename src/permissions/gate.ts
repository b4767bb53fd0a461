import { silentLogger, type Logger } from '../log.ts';
import type { PathScope } from './path-scope.ts';
import { gateNamespace, parseRule, ruleMatches, type Rule, type Subject } from './rules.ts';
import { vcsMetadataSubject } from './vcs-metadata.ts';

export const PERMISSION_MODES = ['ask', 'accept-edits', 'plan', 'yolo'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** One call as the gate sees it. */
export interface GateRequest {
  readonly tool: string;
  /** A child agent's call: its name, shown on the prompt ([explore-1] write_file …) so the operator knows whose it is. */
  readonly agent?: string | undefined;
  readonly readOnly: boolean;
  /** A file write that accept-edits approves. */
  readonly fileEdit: boolean;
  /** Session bookkeeping (todo, plans, checkpoints): never asks, allowed in plan mode. */
  readonly lifecycle?: boolean;
  /** Reaches outside the machine (the network, the cluster API): held back by plan-first even when read-only. */
  readonly openWorld?: boolean;
  /** Command names (bash), matched by rules under `tool.<name>.cmd` (`tool.bash.cmd:rm`). */
  readonly commands?: readonly string[];
  /**
   * Why no wildcard allow rule may auto-allow this call, when none may — for bash,
   * a line that is not one literal simple command (`tool.bash:git *` must not
   * allow `git log; rm -rf x`), or one whose verb acts (`find . -delete`, see
   * verb-profiles.ts). Exact allow rules and deny rules still apply.
   */
  readonly wildcardRefusal?: string | undefined;
  /** What the call acts on (paths, a command line, a URL), each in every spelling a rule may use. */
  readonly subjects: readonly Subject[];
  /** The call itself, for a prompt that shows it in full (the gate never reads it). */
  readonly call?: CallPreview;
}

/** One file as a call would leave it: absent before (created) or after (deleted). */
export interface FileChange {
  readonly path: string;
  readonly before: string | undefined;
  readonly after: string | undefined;
}

export interface CallPreview {
  /** The validated arguments. */
  readonly args: unknown;
  /** Edit tools: what each file would become, computed only when a prompt asks (never writes). */
  readonly changes?: () => Promise<readonly FileChange[]>;
}

export type GateDecision = { readonly allowed: true; readonly rule: string } | { readonly allowed: false; readonly reason: string };

/**
 * A deny may carry the operator's note, which the model sees in the refusal. `allowRule`: allow
 * by that rule (alwaysRule's) from now on, as if permissions.allow held it — the prompter has
 * saved it to the workspace's config for the sessions to come.
 */
export type PromptAnswer = 'once' | 'session' | 'deny' | { readonly deny: string } | { readonly allowRule: string };

/** Asks a person. Present only on an interactive terminal. */
export interface Prompter {
  ask(req: GateRequest & { namespace: string }): Promise<PromptAnswer>;
}

export interface GateOptions {
  mode: PermissionMode;
  allow?: readonly string[];
  deny?: readonly string[];
  scope: PathScope;
  prompter?: Prompter | undefined;
  logger?: Logger;
  /**
   * Plan-first: the refusal for a call that must wait for a recorded plan, or
   * null. Consulted after the deny rules and before the mode, so yolo does not
   * wave it through.
   */
  planCheck?: ((req: GateRequest) => string | null) | undefined;
}

/**
 * The permission gate. Every tool call passes here under `tool.<name>`, in this
 * order: deny rules (deny wins, in every mode); plan-first's check; then the mode —
 * yolo allows everything; read-only and session (lifecycle) tools run in every
 * mode; plan refuses the rest; accept-edits allows file edits; anything else is
 * allowed by an allow rule or a session grant, or asked. Asking needs a terminal;
 * without one the call is refused and the reason names the rule and how to
 * change it. path_scope is checked separately, per path,
 * by `checkPath` (the dispatcher does both before a tool runs).
 */
export class Gate {
  private modeValue: PermissionMode;
  private readonly allowRules: Rule[];
  private readonly denyRules: readonly Rule[];
  private readonly sessionGrants = new Set<string>();
  readonly scope: PathScope;
  private readonly prompter: Prompter | undefined;
  private readonly log: Logger;
  private readonly planCheck: GateOptions['planCheck'];

  constructor(opts: GateOptions) {
    this.modeValue = opts.mode;
    this.allowRules = (opts.allow ?? []).map(parseRule);
    this.denyRules = (opts.deny ?? []).map(parseRule);
    this.scope = opts.scope;
    this.prompter = opts.prompter;
    this.log = opts.logger ?? silentLogger;
    this.planCheck = opts.planCheck;
  }

  get mode(): PermissionMode {
    return this.modeValue;
  }

  setMode(mode: PermissionMode): void {
    this.modeValue = mode;
  }

  /** Allow every call of `tool` (or only those on `subject`) for the rest of the session. */
  grantSession(tool: string, subject?: string): void {
    this.sessionGrants.add(grantKey(tool, subject));
  }

  async check(req: GateRequest): Promise<GateDecision> {
    const decision = await this.decide(req);
    this.log.debug({ tool: req.tool, mode: this.modeValue, allowed: decision.allowed }, 'gate');
    return decision;
  }

  get hasDenyRules(): boolean {
    return this.denyRules.length > 0;
  }

  /** Deny rules alone: what per-entry checks in batch tools need (read-only calls never ask). */
  denyingRule(tool: string, subjects: readonly Subject[], commands: readonly string[] = []): string | null {
    const rule = this.denyRules.find(
      (r) =>
        ruleMatches(r, gateNamespace(tool), subjects, 'any') ||
        (commands.length > 0 && ruleMatches(r, `${gateNamespace(tool)}.cmd`, commands.map(commandSubject), 'any')),
    );
    return rule ? rule.source : null;
  }

  private async decide(req: GateRequest): Promise<GateDecision> {
    const namespace = gateNamespace(req.tool);
    const denied = this.denyingRule(req.tool, req.subjects, req.commands);
    if (denied !== null) {
      return { allowed: false, reason: `${req.tool} is denied by permissions.deny rule "${denied}"` };
    }
    const planRefusal = this.planCheck?.(req) ?? null;
    if (planRefusal !== null) return { allowed: false, reason: planRefusal };
    const mode = this.modeValue;
    if (mode === 'yolo') return { allowed: true, rule: 'mode yolo' };
    if (req.readOnly) return { allowed: true, rule: `read-only tool (mode ${mode})` };
    if (req.lifecycle) return { allowed: true, rule: `session tool (mode ${mode})` };
    if (mode === 'plan') {
      return {
        allowed: false,
        reason: `${req.tool} changes state and permission mode "plan" allows read-only tools only (rule: mode plan)`,
      };
    }
    // A repository's hooks and config are programs git runs: no blanket grant covers an edit there.
    const vcsPath = req.fileEdit ? vcsMetadataSubject(req.subjects) : undefined;
    if (mode === 'accept-edits' && req.fileEdit && vcsPath === undefined) return { allowed: true, rule: 'mode accept-edits (file edit)' };

    const covers = (r: Rule) =>
      ruleMatches(r, namespace, req.subjects, 'all') ||
      (req.commands !== undefined &&
        req.commands.length > 0 &&
        ruleMatches(r, `${namespace}.cmd`, req.commands.map(commandSubject), 'all'));
    const allowed = this.allowRules.find((r) => (req.wildcardRefusal === undefined || !r.wildcard) && covers(r));
    if (allowed) return { allowed: true, rule: `permissions.allow rule "${allowed.source}"` };
    if ((this.sessionGrants.has(grantKey(req.tool)) && vcsPath === undefined) || this.hasSubjectGrant(req)) {
      return { allowed: true, rule: 'session grant' };
    }
    if (!this.prompter) {
      const withheld = req.wildcardRefusal === undefined ? undefined : this.allowRules.find((r) => r.wildcard && covers(r));
      return {
        allowed: false,
        reason:
          `${req.tool} needs approval: permission mode "${mode}" asks before a call that changes state, ` +
          `and there is no terminal to ask on (rule: mode ${mode}, headless). ` +
          (vcsPath !== undefined
            ? `${quoted(vcsPath)} is under a .git or .jj directory, whose hooks and config are commands git and jj run: ` +
              'accept-edits and a session grant for the whole tool do not cover it. '
            : '') +
          (withheld
            ? `The allow rule "${withheld.source}" does not cover it: ${req.wildcardRefusal} (a wildcard rule allows only one literal simple command whose verb does not act). `
            : '') +
          `To allow it, add ${suggestedRules(namespace, req)} to permissions.allow, or use ` +
          (vcsPath !== undefined ? '--yolo.' : '--mode accept-edits (file edits) or --yolo.'),
      };
    }
    const answer = await this.prompter.ask({ ...req, namespace });
    if (answer === 'deny') return { allowed: false, reason: `${req.tool} was denied by the operator at the prompt` };
    if (typeof answer === 'object' && 'allowRule' in answer) {
      const rule = parseRule(answer.allowRule);
      this.allowRules.push(rule);
      if (!covers(rule)) return { allowed: false, reason: `${req.tool}: the rule "${answer.allowRule}" does not cover this call` };
      return { allowed: true, rule: `operator (saved rule "${answer.allowRule}")` };
    }
    if (typeof answer === 'object')
      return { allowed: false, reason: `${req.tool} was denied by the operator at the prompt, who says: ${answer.deny.slice(0, 2000)}` };
    if (answer === 'session') this.grantSession(req.tool);
    return { allowed: true, rule: answer === 'session' ? 'operator (session)' : 'operator (once)' };
  }

  private hasSubjectGrant(req: GateRequest): boolean {
    return req.subjects.length > 0 && req.subjects.every((s) => s.forms.some((form) => this.sessionGrants.has(grantKey(req.tool, form))));
  }
}

/** The longest command or path a refusal quotes back as a rule to add. */
const MAX_QUOTED_SUBJECT = 200;

/**
 * The rule "always, saved" adds for this call: for a command line (bash) the exact rule for
 * that line — a saved rule outlives the session, and the whole of bash is not what one call's
 * approval meant — and for any other tool the whole tool, as "always this session" grants it.
 * Undefined when the line is too long to quote as a rule.
 */
export function alwaysRule(req: GateRequest & { namespace: string }): string | undefined {
  const first = req.subjects[0];
  if (req.commands === undefined || req.commands.length === 0 || first?.kind !== 'text' || !first.forms[0]) return req.namespace;
  if (first.forms[0].length > MAX_QUOTED_SUBJECT) return undefined;
  // A text pattern reads `*`, `?` and `\` as wildcards: escaped, the rule matches this one line.
  return `${req.namespace}:${first.forms[0].replace(/[\\*?]/g, '\\$&')}`;
}

/** The rules that would allow this call: the exact one for its first subject, and the whole tool when that could. */
function suggestedRules(namespace: string, req: GateRequest): string {
  const first = req.subjects[0];
  const whole = JSON.stringify(namespace);
  if (!first?.forms[0]) return whole;
  // A text pattern reads `*`, `?` and `\` as wildcards: escaped, the rule matches this one call.
  const pattern = first.kind === 'text' ? first.forms[0].replace(/[\\*?]/g, '\\$&') : first.forms[0];
  // An error never echoes a huge argument: a long command or path is not worth quoting as a rule.
  if (pattern.length > MAX_QUOTED_SUBJECT)
    return `${whole} (the ${first.kind === 'text' ? 'command' : 'path'} is too long to quote as an exact rule)`;
  const exact = JSON.stringify(`${namespace}:${pattern}`);
  return req.wildcardRefusal === undefined ? `${exact} or ${whole}` : exact;
}

/** A path as a refusal quotes it: bounded, like every echoed argument. */
function quoted(p: string): string {
  return p.length > MAX_QUOTED_SUBJECT ? `${p.slice(0, MAX_QUOTED_SUBJECT)}…` : p;
}

function commandSubject(name: string): Subject {
  return { kind: 'text', forms: [name] };
}

function grantKey(tool: string, subject?: string): string {
  return subject === undefined ? tool : `${tool}\0${subject}`;
}
