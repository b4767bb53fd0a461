import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import { eventSummary } from '../../k8s/summary.ts';
import { defineTool, type JsonObject } from '../framework/tool.ts';
import { K8S_HINT, namespaceArg, withKubeErrors } from './common.ts';
import description from './k8s-events.md';

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
    // Bounded: a large cluster keeps tens of thousands of events; the newest of 1,000 are enough to triage.
    const list = await k.get(path, { fieldSelector: selectors.join(',') || undefined, limit: '1000' }, 'json', ctx.signal);
    const events = ((list.items as JsonObject[] | undefined) ?? []).map(eventSummary);
    events.sort((a, b) => String(b.last ?? '').localeCompare(String(a.last ?? '')));
    const limit = args.limit ?? 50;
    const out: JsonObject = { namespace: namespace ?? '(all)', count: Math.min(events.length, limit), events: events.slice(0, limit) };
    if (events.length > limit) out.note = `${events.length - limit} older events not shown; narrow by kind/name or type.`;
    return out;
  },
});

/** Its client failures mapped to tool failures (common.ts). */
export const k8sEventsTool = withKubeErrors(definition);
