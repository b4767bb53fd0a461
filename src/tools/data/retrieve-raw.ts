import * as z from 'zod/v4';
import { quoteArg } from '../framework/error-text.ts';
import { LIMITS } from '../framework/limits.ts';
import { defineTool, ToolError, type JsonValue } from '../framework/tool.ts';
import description from './retrieve-raw.md';

export const retrieveRawTool = defineTool({
  name: 'retrieve_raw',
  description,
  kind: 'read',
  needs: ['digests'],
  // The escape hatch gives back what a digest left out — up to 2 MiB, enough for a 1 MB
  // response; past that it is cut like any result (narrowing the original call is the way).
  caps: { maxBytes: 2 * 1024 * 1024, maxLines: 50_000 },
  narrowHint: 'The raw payload is larger than the output caps allow; narrow the original call instead.',
  args: z.strictObject({
    call_id: z
      .string()
      .max(LIMITS.identifier)
      .regex(/^raw_[1-9][0-9]*$/, 'a call_id as a digest gives it, e.g. "raw_3"')
      .describe('The call_id from a digested result.'),
  }),
  async run(args, ctx) {
    const digests = ctx.services.digests;
    if (!digests) throw new ToolError('the digest layer is off in this run, so there is nothing to retrieve');
    const found = digests.retrieve(args.call_id);
    if (!found) throw new ToolError(`no digested result with call_id ${quoteArg(args.call_id)} in this session`, 'not_found');
    return { call_id: args.call_id, tool: found.tool, raw: JSON.parse(found.rawJson) as JsonValue };
  },
});
