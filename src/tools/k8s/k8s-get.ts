import * as z from 'zod/v4';
import { defineTool, type JsonObject } from '../framework/tool.ts';
import { apiVersionArg, K8S_HINT, k8sNameArg, kindArg, namespaceArg, withKubeErrors } from './common.ts';
import description from './k8s-get.md';

const definition = defineTool({
  name: 'k8s_get',
  description,
  // The cluster API is another machine: plan-first holds these back, and `mcp serve` says openWorldHint.
  kind: 'read_remote',
  needs: ['kube'],
  narrowHint: K8S_HINT,
  args: z.strictObject({
    kind: kindArg,
    name: k8sNameArg('The object’s name.'),
    namespace: namespaceArg,
    api_version: apiVersionArg,
  }),
  async run(args, ctx) {
    const k = ctx.services.kube;
    const r = await k.resolve(args.kind, args.api_version, ctx.signal);
    const namespace = r.namespaced ? (args.namespace ?? (await k.defaultNamespace())) : undefined;
    const obj = await k.get(k.resourcePath(r, namespace, args.name), {}, 'json', ctx.signal);
    return k.shape(obj) as JsonObject;
  },
});

/** Its client failures mapped to tool failures (common.ts). */
export const k8sGetTool = withKubeErrors(definition);
