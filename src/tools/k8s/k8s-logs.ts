import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import { KubeError } from '../../k8s/kube-error.ts';
import { defineTool, ToolError, type JsonObject, type JsonValue } from '../framework/tool.ts';
import { k8sNameArg, namespaceArg, withKubeErrors } from './common.ts';
import { keepTail, type KeptTail, type TailBudget } from '../shared/keep-tail.ts';
import { keepHead, readLogEnd, readWindow, type LogRead, type LogRequest } from './log-tail.ts';
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
    // since_seconds alone reads that whole window; otherwise the last tail_lines (200 by default).
    const tailLines = args.since_seconds === undefined || args.tail_lines !== undefined ? (args.tail_lines ?? 200) : undefined;
    // Every request is bounded by limitBytes, which keeps the selection's HEAD: log-tail.ts reads its end.
    const request: LogRequest = (tail, limitBytes) =>
      k.get(
        `${base}/log`,
        {
          container: args.container,
          previous: args.previous ? 'true' : undefined,
          tailLines: tail === undefined ? undefined : String(tail),
          sinceSeconds: args.since_seconds === undefined ? undefined : String(args.since_seconds),
          limitBytes: String(limitBytes),
        },
        'text',
        ctx.signal,
      );
    let read: LogRead;
    try {
      read = await readLogEnd(request, tailLines, readWindow(limit));
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
    // The output caps (tool_output) would keep the result's head, so the log is fitted to them here.
    const budget: TailBudget = {
      bytes: limit,
      jsonBytes: Math.max(1024, ctx.caps.maxBytes - ENVELOPE_BYTES),
      lines: Math.max(1, ctx.caps.maxLines),
    };
    const out: JsonObject = { pod: args.pod, namespace, ...(args.container ? { container: args.container } : {}), log: '' };
    if (args.previous) out.previous = true;
    if (!read.complete) {
      out.log = keepHead(read.text, budget);
      out.truncated = true;
      out.end_missing = true;
      out.note =
        `The log's last line${read.tailLines === 1 ? ' alone is' : 's are'} longer than ${readWindow(limit)} bytes, the most one read ` +
        `takes: shown is the head of the last ${read.tailLines === undefined ? 'lines' : lines(read.tailLines)}; their end was not read.`;
      return out;
    }
    const kept = keepTail(read.text, budget);
    out.log = kept.log;
    if (kept.droppedBytes === 0 && !read.narrowedFrom) return out;
    out.truncated = true;
    out.kept = { lines: kept.keptLines, bytes: Buffer.byteLength(kept.log) };
    out.dropped = dropped(read, kept);
    out.note = cutNote(read, kept, budget);
    return out;
  },
});

/** Room in the output cap for everything but the log: names, counts, the note. */
const ENVELOPE_BYTES = 2048;

/** What was dropped from the start: exact when the whole selection was read, else lower bounds. */
function dropped(read: LogRead, kept: KeptTail): JsonObject {
  const partial: JsonObject = kept.midLine ? { first_line_partial: true } : {};
  if (!read.narrowedFrom) return { lines: kept.droppedLines, bytes: kept.droppedBytes, ...partial };
  // The selection held more than the window and more than the smaller read, which is its end.
  const selectionBytes = Math.max(read.narrowedFrom.bytes, Buffer.byteLength(read.text) + 1);
  return {
    lines_at_least: Math.max(kept.droppedLines + 1, read.narrowedFrom.lines - kept.keptLines),
    bytes_at_least: selectionBytes - Buffer.byteLength(kept.log),
    ...partial,
  };
}

function cutNote(read: LogRead, kept: KeptTail, budget: TailBudget): string {
  const bound =
    kept.keptLines >= budget.lines
      ? `the output cap of ${budget.lines} lines`
      : budget.jsonBytes < budget.bytes
        ? `the output cap of ${budget.jsonBytes} bytes`
        : `max_bytes (${budget.bytes})`;
  const what = read.narrowedFrom
    ? `The selection is larger than one read takes (${readWindow(budget.bytes)} bytes), so its last ${lines(read.tailLines ?? 0)} were read, and they are larger than ${bound}`
    : `The selection is larger than ${bound}`;
  const keptSaid = `: kept its END, the last ${lines(kept.keptLines)}${
    kept.midLine ? ' (the first of them only the end of a line longer than that)' : ', cut at a line boundary'
  }; the earlier ones are dropped (see dropped).`;
  const earlier =
    `the API reads no stretch that ends before the log's end, so for more of what came before raise max_bytes (up to ${1024 * 1024})` +
    (budget.jsonBytes < budget.bytes || kept.keptLines >= budget.lines ? ' and the operator’s tool_output cap.' : '.');
  const more = kept.midLine
    ? ` The ${earlier.slice(4)}`
    : ` A tail_lines of ${kept.keptLines} or fewer (or a shorter since_seconds) gives a result that is not cut; ${earlier}`;
  return what + keptSaid + more;
}

const lines = (n: number): string => (n === 1 ? 'line' : `${n} lines`);

/** Its client failures mapped to tool failures (common.ts). */
export const k8sLogsTool = withKubeErrors(definition);
