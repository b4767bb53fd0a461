import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import { resourceNames } from '../../k8s/cluster.ts';
import { defineTool, type JsonObject } from '../framework/tool.ts';
import { K8S_HINT, withKubeErrors } from './common.ts';
import description from './k8s-api-resources.md';

const definition = defineTool({
  name: 'k8s_api_resources',
  description,
  // The cluster API is another machine: plan-first holds these back, and `mcp serve` says openWorldHint.
  kind: 'read_remote',
  needs: ['kube'],
  narrowHint: K8S_HINT,
  args: z.strictObject({
    name_contains: z.string().min(1).max(LIMITS.k8sName).optional().describe('Only kinds or names containing this (case-insensitive).'),
    group: z.string().max(LIMITS.k8sName).optional().describe('Only this API group ("" for the core group).'),
  }),
  async run(args, ctx) {
    const k = ctx.services.kube;
    const needle = args.name_contains?.toLowerCase();
    const rows = (await k.discovery(ctx.signal))
      .filter((r) => args.group === undefined || r.group === args.group)
      .filter((r) => needle === undefined || r.name.includes(needle) || r.kind.toLowerCase().includes(needle))
      .map((r): JsonObject => ({
        name: r.name,
        kind: r.kind,
        api_version: r.group === '' ? r.version : `${r.group}/${r.version}`,
        namespaced: r.namespaced,
        ...(r.shortNames.length > 0 ? { short_names: r.shortNames } : {}),
        verbs: r.verbs,
        ...(k.isDenied(r.group, r.kind) ? { denied: true } : {}),
      }));
    return { count: rows.length, resources: rows };
  },
});

/** Its client failures mapped to tool failures (common.ts). */
export const k8sApiResourcesTool = withKubeErrors(definition);
