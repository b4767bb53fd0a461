import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import { KubeError } from '../../k8s/kube-error.ts';
import { defineTool, ToolError, type JsonObject, type JsonValue } from '../framework/tool.ts';
import { k8sNameArg, namespaceArg, withKubeErrors } from './common.ts';
import description from './k8s-logs.md';

const MAX_BYTES = 64 * 1024;

const definition = defineTool({
  name: 'k8s_logs',
  description,
  // The cluster API is another machine: plan-first holds these back, and `mcp serve` says openWorldHint.
  kind: 'read_remote',
  needs: ['kube'],
  narrowHint: 'Ask for fewer lines (tail_lines) or a shorter window (since_seconds).',
  args: z.strictObject({
    pod: k8sNameArg('The Pod’s name.'),
    namespace: namespaceArg,
    container: z.string().min(1).max(LIMITS.k8sName).optional().describe('The container (required when the Pod has several).'),
    previous: z.boolean().optional().describe('The previous, terminated run of the container.'),
    tail_lines: z.int().min(1).max(10_000).optional().describe('The last N lines (default 200).'),
    since_seconds: z.int().min(1).optional().describe('Only lines from the last N seconds.'),
    max_bytes: z
      .int()
      .min(1024)
      .max(1024 * 1024)
      .optional()
      .describe('At most this many bytes (default 65536).'),
  }),
  async run(args, ctx) {
    const k = ctx.services.kube;
    const namespace = args.namespace ?? (await k.defaultNamespace());
    const base = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(args.pod)}`;
    const limit = args.max_bytes ?? MAX_BYTES;
    let text: string;
    try {
      text = await k.get(
        `${base}/log`,
        {
          container: args.container,
          previous: args.previous ? 'true' : undefined,
          tailLines: args.since_seconds === undefined || args.tail_lines !== undefined ? String(args.tail_lines ?? 200) : undefined,
          sinceSeconds: args.since_seconds === undefined ? undefined : String(args.since_seconds),
          limitBytes: String(limit + 1),
        },
        'text',
        ctx.signal,
      );
    } catch (err) {
      // A request the API rejects as written, with no container named: a pod of several
      // containers needs one (the API's 400). Said with the names, from the pod itself.
      if (err instanceof KubeError && err.kind === 'invalid' && args.container === undefined) {
        // If the pod cannot be read (RBAC may allow pods/log and not get), the API's own answer stands.
        const pod = await k.get(base, {}, 'json', ctx.signal).catch(() => undefined);
        const names = (((pod?.spec as JsonObject | undefined)?.containers as JsonValue[] | undefined) ?? []).map(
          (c) => (c as JsonObject).name,
        );
        if (names.length > 1) throw new ToolError(`${args.pod} has several containers; give container: one of ${names.join(', ')}`);
      }
      throw err;
    }
    const truncated = Buffer.byteLength(text) > limit;
    // Cut on a character boundary: a split UTF-8 sequence would decode to U+FFFD.
    const kept = truncated
      ? Buffer.from(text)
          .subarray(0, limit)
          .toString('utf8')
          .replace(/\uFFFD+$/, '')
      : text;
    const out: JsonObject = { pod: args.pod, namespace, ...(args.container ? { container: args.container } : {}), log: kept };
    if (args.previous) out.previous = true;
    if (truncated) {
      out.truncated = true;
      out.note = `The log was cut at ${limit} bytes; ask for fewer lines (tail_lines) or a shorter window (since_seconds).`;
    }
    return out;
  },
});

/** Its client failures mapped to tool failures (common.ts). */
export const k8sLogsTool = withKubeErrors(definition);
