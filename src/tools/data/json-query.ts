import * as z from 'zod/v4';
import { LIMITS, pathArg } from '../framework/limits.ts';
import { readChecked } from '../shared/safe-fs.ts';
import { defineTool, ToolError, type JsonObject, type JsonValue } from '../framework/tool.ts';
import { tidyJqMessage } from '../shared/jq-errors.ts';
import { JqCrashError, JqTimeoutError, sharedJqRunner } from '../shared/jq-runner.ts';
import description from './json-query.md';

export const JSON_QUERY_DEFAULTS = { timeout_seconds: 10, max_input_bytes: 64 * 1024 * 1024 } as const;

export const jsonQueryTool = defineTool({
  name: 'json_query',
  description,
  kind: 'read',
  settings: z.strictObject({
    timeout_seconds: z
      .number()
      .positive()
      .max(600)
      .default(JSON_QUERY_DEFAULTS.timeout_seconds)
      .describe('Wall-clock limit for one jq program (default 10).'),
    max_input_bytes: z
      .int()
      .min(1)
      .max(1024 * 1024 * 1024)
      .default(JSON_QUERY_DEFAULTS.max_input_bytes)
      .describe('Largest JSON input accepted (default 67108864).'),
  }),
  narrowHint: 'Narrow the jq expression so it selects less.',
  // The Go original calls these `query` and `json`; both spellings are accepted.
  aliases: { query: 'expression', json: 'data' },
  args: z
    .strictObject({
      expression: z.string().min(1).max(LIMITS.jqExpression).describe('The jq program, e.g. ".items[] | .name".'),
      path: pathArg('A JSON file to read, relative to the current directory (or absolute).').optional(),
      data: z.unknown().optional().describe('Inline input: a string holding JSON text, or any JSON value.'),
    })
    .refine((a) => (a.path === undefined) !== (a.data === undefined), {
      message: 'give exactly one input: "path" (a JSON file) or "data" (inline JSON)',
    }),
  paths: (a) => (a.path !== undefined ? [{ arg: 'path', path: a.path, access: 'read' as const }] : []),
  async run(args, ctx) {
    const { timeout_seconds: timeoutSeconds, max_input_bytes: maxInput } = ctx.settings;
    let input: string;
    if (args.path !== undefined) {
      const target = ctx.paths.get('path')!;
      if (!target.exists) throw new ToolError(`file not found: ${ctx.display(target.real)}`, 'not_found');
      input = (await readChecked(target.real, maxInput)).toString('utf8');
    } else {
      input = typeof args.data === 'string' ? args.data : JSON.stringify(args.data);
      if (Buffer.byteLength(input) > maxInput) throw new ToolError(`data is larger than the ${maxInput}-byte limit`);
    }

    let res;
    try {
      // Twice the byte cap crosses threads, so the caps layer still sees that more existed.
      res = await sharedJqRunner.run(input, args.expression, timeoutSeconds * 1000, ctx.caps.maxBytes * 2, ctx.signal);
    } catch (err) {
      if (err instanceof JqTimeoutError || err instanceof JqCrashError) throw new ToolError(err.message);
      throw err;
    }
    if (res.exitCode !== 0) {
      const message = tidyJqMessage(res.stderr) || `jq exited with status ${res.exitCode}`;
      const kind =
        res.exitCode === 3
          ? 'invalid jq expression'
          : res.exitCode === 2 || /parse error/.test(message)
            ? 'invalid JSON input'
            : 'jq error';
      throw new ToolError(`${kind}: ${message}`);
    }
    const results: JsonValue[] = res.stdout.length === 0 ? [] : res.stdout.split('\n').map((line) => JSON.parse(line) as JsonValue);
    const result: JsonObject = { count: results.length, results };
    if (res.outputCut) {
      result.truncated = true;
      result.note = 'The output was cut; narrow the jq expression so it selects less.';
    }
    return result;
  },
});
