import * as z from 'zod/v4';
import { quoteArg } from '../framework/error-text.ts';
import { LIMITS } from '../framework/limits.ts';
import { ALERT_DEFAULTS, ALERT_LEVELS, type AlertTarget } from '../../net/alert-targets.ts';
import { operatorFetch } from '../../net/operator-fetch.ts';
import { fillDescription } from '../framework/describe.ts';
import { defineTool, ToolError } from '../framework/tool.ts';
import template from './alert.md';

/** alert.md with the run's live targets, each with what it reaches. */
function describe(targets: readonly AlertTarget[]): string {
  const list = targets.map((t) => `\`${t.name}\`${t.description ? ` (${t.description})` : ''}`).join(', ');
  return fillDescription(template, { targets: list || '(none configured)' });
}

const targetHelp = (names: readonly string[]) => `The target's name: one of ${names.join(', ') || '(none)'}.`;

export const alertTool = defineTool({
  name: 'alert',
  description: ({ services }) => describe(services.alertTargets ?? []),
  kind: 'send',
  needs: ['alertTargets'],
  settings: z.strictObject({
    timeout_seconds: z
      .number()
      .positive()
      .max(600)
      .default(ALERT_DEFAULTS.timeout_seconds)
      .describe('Seconds before a delivery is abandoned (default 15).'),
  }),
  describeArgs: (services) => ({ target: targetHelp((services.alertTargets ?? []).map((t) => t.name)) }),
  narrowHint: '',
  args: z.strictObject({
    target: z.string().min(1).max(LIMITS.identifier).describe(targetHelp([])),
    level: z.enum(ALERT_LEVELS).describe('info, warning, critical or resolved.'),
    summary: z.string().trim().min(1).max(1000).describe('One line: what happened or what you need.'),
    details: z.string().max(20_000).optional().describe('Evidence, findings, what was tried.'),
  }),
  async gateSubjects(args) {
    return { subject: args.target, verbs: [] };
  },
  async run(args, ctx) {
    const targets = ctx.services.alertTargets;
    const names = targets.map((t) => t.name);
    const target = targets.find((t) => t.name === args.target);
    if (!target) throw new ToolError(`alert refused: no target named ${quoteArg(args.target)}; the targets are ${names.join(', ')}`);
    const wait = target.takeSlot();
    if (wait !== null) {
      const { count, window_seconds } = target.rateLimit;
      throw new ToolError(
        `alert refused: target "${target.name}" already took ${count} alerts in the last ${window_seconds}s (its rate limit); the next is possible in ${wait}s. Do not resend; carry on and include this in your final answer.`,
      );
    }
    const req = target.request({
      target: target.name,
      level: args.level,
      summary: args.summary,
      details: args.details,
      sessionId: ctx.session.sessionId,
    });
    const seconds = ctx.settings.timeout_seconds;
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(seconds * 1000)]);
    let status: number;
    let text: string;
    try {
      ({ status, text } = await operatorFetch(req.url, { method: 'POST', headers: req.headers, body: req.body }, signal, {
        what: 'answers from alert webhooks',
      }));
    } catch (err) {
      // The URL is a secret (Slack webhooks carry their token in the path): name the target only.
      throw new ToolError(`alert not delivered to "${target.name}": ${target.redact((err as Error).message)}`);
    }
    if (status < 200 || status >= 300) {
      // Redacted before it is shortened, so a cut cannot leave half a secret behind.
      const said = target.redact(text).replace(/\s+/g, ' ').trim().slice(0, 200);
      throw new ToolError(`alert not delivered to "${target.name}": the webhook answered HTTP ${status}${said ? ` (${said})` : ''}`);
    }
    return { delivered: true, target: target.name, level: args.level, status };
  },
});
