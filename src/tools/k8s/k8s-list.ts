import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import { summarize } from '../../k8s/summary.ts';
import { defineTool, type JsonObject, type JsonValue } from '../framework/tool.ts';
import { apiVersionArg, K8S_HINT, kindArg, namespaceArg, withKubeErrors } from './common.ts';
import description from './k8s-list.md';

const definition = defineTool({
  name: 'k8s_list',
  description,
  // The cluster API is another machine: plan-first holds these back, and `mcp serve` says openWorldHint.
  kind: 'read_remote',
  needs: ['kube'],
  digest: true,
  narrowHint: K8S_HINT,
  args: z.strictObject({
    kind: kindArg,
    namespace: namespaceArg,
    all_namespaces: z.boolean().optional().describe('Every namespace (ignores namespace).'),
    label_selector: z.string().max(LIMITS.k8sSelector).optional().describe('e.g. "app=web,tier!=cache".'),
    field_selector: z.string().max(LIMITS.k8sSelector).optional().describe('e.g. "status.phase=Failed" or "spec.nodeName=node-1".'),
    limit: z.int().min(1).max(500).optional().describe('Items at most (default 50).'),
    continue: z.string().max(LIMITS.k8sContinue).optional().describe('The continue token of the previous page.'),
    output: z.enum(['summary', 'full']).optional().describe('summary rows (default) or whole objects.'),
    api_version: apiVersionArg,
  }),
  async run(args, ctx) {
    const k = ctx.services.kube;
    const r = await k.resolve(args.kind, args.api_version, ctx.signal);
    const namespace = r.namespaced && !args.all_namespaces ? (args.namespace ?? (await k.defaultNamespace())) : undefined;
    const list = await k.get(
      k.resourcePath(r, namespace),
      {
        labelSelector: args.label_selector,
        fieldSelector: args.field_selector,
        limit: String(args.limit ?? 50),
        continue: args.continue,
      },
      'json',
      ctx.signal,
    );
    // Lists carry their items without kind; put it back so shaping and filtering can see it.
    const raw = ((list.items as JsonValue[] | undefined) ?? []).map((i) => ({ kind: r.kind, ...(i as JsonObject) }));
    const { items, withheld } = k.withoutDenied(raw, r.kind, r.group);
    const meta = (list.metadata as JsonObject | undefined) ?? {};
    const out: JsonObject = {
      kind: r.kind,
      ...(namespace ? { namespace } : r.namespaced ? { namespace: '(all)' } : {}),
      count: items.length,
      items: args.output === 'full' ? (k.shape(items) as JsonValue[]) : items.map(summarize),
    };
    if (withheld > 0) out.withheld = `${withheld} object(s) of a denied kind`;
    if (typeof meta.continue === 'string' && meta.continue.length > 0) {
      out.continue = meta.continue;
      out.note = 'More items: call again with this continue token, or narrow the selectors.';
    }
    return out;
  },
});

/** Its client failures mapped to tool failures (common.ts). */
export const k8sListTool = withKubeErrors(definition);
