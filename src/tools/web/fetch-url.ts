import * as z from 'zod/v4';
import { quoteArg } from '../framework/error-text.ts';
import { LIMITS } from '../framework/limits.ts';
import { FetchRefused, guardedFetch, type FetchedResponse } from '../../net/guarded-fetch.ts';
import { fillDescription } from '../framework/describe.ts';
import { defineTool, ToolError, type JsonObject, type ServicesFor, type ToolContext } from '../framework/tool.ts';
import template from './fetch-url.md';
import { decodeBody, isTextual } from './response-body.ts';
import { FETCH_DEFAULTS } from './fetch-defaults.ts';
import { fetchSettings } from './fetch-settings.ts';

type FetchSettings = z.output<ReturnType<typeof fetchSettings>>;

export const fetchUrlTool = defineTool({
  name: 'fetch_url',
  description: ({ services }) =>
    fillDescription(template, {
      max_body_mib: FETCH_DEFAULTS.max_body_bytes / (1024 * 1024),
      allowed: services.network ? ` Allowed: ${services.network.scope.describe().allow.join(', ')}.` : '',
    }),
  kind: 'read_remote',
  needs: ['network'],
  settings: fetchSettings('a fetch'),
  narrowHint: 'Fetch a narrower resource (a query parameter, a page number, an API path that returns less).',
  args: z.strictObject({
    url: z.string().min(1).max(LIMITS.url).describe('The absolute http(s) URL to GET.'),
  }),
  async gateSubjects(args) {
    return { subject: args.url.trim(), verbs: [] };
  },
  async run(args, ctx) {
    const res = await fetchForTool(args.url, ctx, '*/*');
    const result: JsonObject = { url: res.url, status: res.status, content_type: res.contentType, bytes: res.body.length };
    if (res.redirects.length > 0) result.redirected_from = args.url;
    if (isTextual(res.contentType)) result.body = decodeBody(res);
    else result.binary = true;
    if (res.truncated) result.body_truncated = `the body was cut at ${res.body.length} bytes (tools.fetch_url.max_body_bytes)`;
    return result;
  },
});

/** The guarded fetch with this tool's settings; refusals and network failures become model-visible errors. */
export async function fetchForTool(
  url: string,
  ctx: ToolContext<FetchSettings, ServicesFor<'network'>>,
  accept: string,
  timeoutSeconds?: number,
): Promise<FetchedResponse> {
  const net = ctx.services.network;
  if (!net) throw new ToolError('no url_scope.allow entries: network access is off');
  const seconds = timeoutSeconds ?? ctx.settings.timeout_seconds;
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(seconds * 1000)]);
  try {
    return await guardedFetch(
      url.trim(),
      {
        scope: net.scope,
        resolve: net.resolve,
        userAgent: net.userAgent,
        proxy: net.proxy,
        maxBodyBytes: ctx.settings.max_body_bytes,
        maxRedirects: ctx.settings.max_redirects,
      },
      signal,
      accept,
    );
  } catch (err) {
    if (err instanceof FetchRefused) throw new ToolError(`fetch refused: ${err.message}`);
    if (signal.aborted && !ctx.signal.aborted) throw new ToolError(`fetch failed: ${quoteArg(url, 300)} took longer than ${seconds}s`);
    throw new ToolError(`fetch failed: ${(err as Error).message}`);
  }
}
