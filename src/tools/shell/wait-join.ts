import * as z from 'zod/v4';
import { agentEnvelope } from '../framework/child-report.ts';
import { LIMITS } from '../framework/limits.ts';
import { fillDescription } from '../framework/describe.ts';
import type { ChildReport } from '../framework/services.ts';
import { defineTool, type JsonObject } from '../framework/tool.ts';
import { keepTail } from '../shared/keep-tail.ts';
import { TERMINALS, type Terminal } from './terminals.ts';
import template from './wait-join.md';

// At most 240 s: every tool call is cut at the dispatcher's 300 s deadline, and a wait
// that ends there would return nothing.
export const WAIT_JOIN_DEFAULTS = { timeout_seconds: 60, max_timeout_seconds: 240 } as const;

/** One id of the call: a background terminal, maybe a child agent (through the Delegator port), or neither. */
type Joined =
  | { readonly kind: 'terminal'; readonly id: string; readonly terminal: Terminal }
  | { readonly kind: 'agent'; readonly id: string; readonly report: Promise<ChildReport | undefined> }
  | { readonly kind: 'unknown'; readonly id: string };

/**
 * Cagent's wait_join: background terminals and delegated agents together, typed completion
 * envelopes in the order given. Agents come through the Delegator port (`uses`), never the
 * delegation family, so the shell family stays apart from it.
 */
export const waitJoinTool = defineTool({
  name: 'wait_join',
  dialect: 'cagent',
  // Cagent's delegated agent has no wait_join (its depth is 1: no agents to join).
  excludedIn: { subagent: ['cagent'] },
  description: fillDescription(template, { default_timeout: WAIT_JOIN_DEFAULTS.timeout_seconds }),
  kind: 'read',
  requires: 'bash',
  uses: ['delegator'],
  settings: z.strictObject({
    timeout_seconds: z
      .number()
      .positive()
      .max(WAIT_JOIN_DEFAULTS.max_timeout_seconds)
      .default(WAIT_JOIN_DEFAULTS.timeout_seconds)
      .describe('How long wait_join waits when the call does not say (default 60, at most 240).'),
  }),
  narrowHint: 'Wait for fewer ids at once, or read each with terminal_output.',
  args: z.strictObject({
    ids: z
      .array(z.string().min(1).max(LIMITS.identifier))
      .min(1)
      .max(16)
      .describe('Terminal ids and delegated-agent ids, e.g. ["t1", "explore-1"].'),
    timeout: z.number().positive().max(WAIT_JOIN_DEFAULTS.max_timeout_seconds).optional().describe('Seconds to wait at most.'),
  }),
  async run(args, ctx) {
    const seconds = args.timeout ?? ctx.settings.timeout_seconds;
    const terminals = ctx.session.slot(TERMINALS);
    const delegator = ctx.services.delegator;
    // One timer for the whole call: every agent's wait ends with it (or with the call's cancellation).
    const window = new AbortController();
    const stop = () => window.abort();
    ctx.signal.addEventListener('abort', stop, { once: true });
    const timer = setTimeout(stop, seconds * 1000);
    const joined: Joined[] = args.ids.map((id) => {
      const terminal = terminals.get(id);
      if (terminal) return { kind: 'terminal', id, terminal };
      // An agent this session did not start resolves to undefined at once: unknown, like any other id.
      if (delegator) return { kind: 'agent', id, report: delegator.wait(id, seconds * 1000, ctx.session.sessionId, window.signal) };
      return { kind: 'unknown', id };
    });
    const ended = joined.map((j) => (j.kind === 'terminal' ? j.terminal.done : j.kind === 'agent' ? j.report : Promise.resolve()));
    const windowEnd = new Promise<void>((resolve) => window.signal.addEventListener('abort', () => resolve(), { once: true }));
    await Promise.race([Promise.all(ended), windowEnd]);
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', stop);
    window.abort();
    const agents = await Promise.all(joined.map((j) => (j.kind === 'agent' ? j.report : undefined)));
    // Share the output budget between the terminals.
    const shown = Math.max(1, joined.filter((j) => j.kind === 'terminal').length);
    const each = Math.max(512, Math.floor((ctx.caps.maxBytes - 1024) / shown / 2));
    // Each tail fitted to its share of the caps here (JSON bytes, lines): the caps would keep the head.
    const share = { bytes: each, jsonBytes: each, lines: Math.max(1, Math.floor((ctx.caps.maxLines - 10) / shown)) };
    const results: JsonObject[] = joined.map((j, i) => {
      if (j.kind === 'terminal') {
        const status = j.terminal.status();
        const tail = j.terminal.tail(each);
        return {
          id: j.id,
          type: 'terminal',
          terminal_id: j.id,
          done: !status.running,
          ...status,
          output_tail: keepTail(tail.output, share).log,
          next_cursor: tail.next_cursor,
        };
      }
      const report = agents[i];
      if (j.kind === 'agent' && report) return agentEnvelope(report);
      return { id: j.id, type: 'unknown', done: false, error: unknownId(j.id, terminals.ids()) };
    });
    const allDone = results.every((r) => r.done === true || r.type === 'unknown');
    return { all_done: allDone, ...(allDone ? {} : { waited_seconds: seconds }), results };
  },
});

function unknownId(id: string, known: readonly string[]): string {
  const quoted = JSON.stringify(id.length > 60 ? `${id.slice(0, 60)}…` : id);
  return `no terminal or agent ${quoted} in this session${known.length > 0 ? `; the terminals are ${known.join(', ')}` : ''}`;
}
