import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import { eventSummary } from '../../k8s/summary.ts';
import { defineTool, type JsonObject } from '../framework/tool.ts';
import { K8S_HINT, namespaceArg, withKubeErrors } from './common.ts';
import description from './k8s-events.md';

/** Events per request, and read at most: a namespace keeps an hour of them (the API's default TTL). */
const EVENTS_PAGE = 500;
export const MAX_EVENTS_READ = 5000;

const definition = defineTool({
  name: 'k8s_events',
  description,
  // The cluster API is another machine: plan-first holds these back, and `mcp serve` says openWorldHint.
  kind: 'read_remote',
  needs: ['kube'],
  digest: true,
  narrowHint: K8S_HINT,
  args: z
    .strictObject({
      namespace: namespaceArg,
      all_namespaces: z.boolean().optional().describe('Events of every namespace.'),
      kind: z.string().min(1).max(LIMITS.k8sName).optional().describe('The involved object’s kind, e.g. Pod (with name).'),
      name: z.string().min(1).max(LIMITS.k8sName).optional().describe('The involved object’s name.'),
      type: z.enum(['Warning', 'Normal']).optional().describe('Only this type.'),
      limit: z.int().min(1).max(500).optional().describe('Events at most (default 50), newest first.'),
    })
    .refine((a) => a.kind === undefined || a.name !== undefined, { message: 'kind needs name (the object the events are about)' }),
  async run(args, ctx) {
    const k = ctx.services.kube;
    const namespace = args.all_namespaces ? undefined : (args.namespace ?? (await k.defaultNamespace()));
    const selectors = [
      args.name ? `involvedObject.name=${args.name}` : undefined,
      // Field selectors match the exact Kind: `po` and `pods` are written as `Pod`.
      args.kind ? `involvedObject.kind=${(await k.resolve(args.kind, undefined, ctx.signal, { allowDenied: true })).kind}` : undefined,
      args.type ? `type=${args.type}` : undefined,
    ].filter((s): s is string => s !== undefined);
    const path = namespace ? `/api/v1/namespaces/${encodeURIComponent(namespace)}/events` : '/api/v1/events';
    // The API lists in key order — by name, `<object>.<hex time>`, so oldest first within an
    // object — not newest first: one page of a busy namespace holds the wrong end. Every page
    // up to MAX_EVENTS_READ is read, and the newest of them shown.
    const events: JsonObject[] = [];
    let next: string | undefined;
    do {
      const page = await k.get(
        path,
        { fieldSelector: selectors.join(',') || undefined, limit: String(EVENTS_PAGE), continue: next },
        'json',
        ctx.signal,
      );
      for (const item of (page.items as JsonObject[] | undefined) ?? []) events.push(eventSummary(item));
      const token = (page.metadata as JsonObject | undefined)?.continue;
      next = typeof token === 'string' && token.length > 0 ? token : undefined;
    } while (next !== undefined && events.length < MAX_EVENTS_READ);
    // By time, not by string: eventTime has microseconds, lastTimestamp none ("…00Z" < "…00.1Z").
    const at = (e: JsonObject) => Date.parse(String(e.last ?? '')) || 0;
    events.sort((a, b) => at(b) - at(a));
    const limit = args.limit ?? 50;
    const out: JsonObject = { namespace: namespace ?? '(all)', count: Math.min(events.length, limit), events: events.slice(0, limit) };
    const notes: string[] = [];
    if (events.length > limit) notes.push(`${events.length - limit} older events not shown; narrow by kind/name or type.`);
    if (next !== undefined) {
      notes.push(
        `The API holds more than the ${events.length} events read; it lists them by name, not time, so newer ones may be among those not read: narrow by kind/name or type.`,
      );
    }
    if (notes.length > 0) out.note = notes.join(' ');
    return out;
  },
});

/** Its client failures mapped to tool failures (common.ts). */
export const k8sEventsTool = withKubeErrors(definition);
