import * as z from 'zod/v4';
import { quoteArg } from '../error-text.ts';
import { LIMITS } from '../limits.ts';
import { FetchRefused, guardedFetch, type FetchedResponse } from '../../net/guarded-fetch.ts';
import type { UrlScope } from '../../net/url-scope.ts';
import { defineTool, ToolError, type JsonObject, type ToolContext } from '../tool.ts';
import { decodeBody, isTextual } from './response-body.ts';

export const FETCH_DEFAULTS = { timeout_seconds: 30, max_body_bytes: 1024 * 1024, max_redirects: 5 } as const;

const TEXT =
  "HTTP GET one URL and return its status, content type and body (text; a binary body is reported by size only). Only URLs that the operator's url_scope allows can be fetched; cloud metadata and link-local addresses never can, and redirects are checked the same way. " +
  // url-scope.ts: an entry without a scheme allows https only; address-policy.ts + guarded-fetch.ts: private needs an exact host.
  'Use https:// URLs: plain http:// works only for hosts the operator allowed with an http:// entry. Loopback and private addresses (localhost, 10.x, 192.168.x, a cluster service) are reachable only when their exact host is allowed, never through a wildcard entry. ' +
  `The body is cut at ${FETCH_DEFAULTS.max_body_bytes / (1024 * 1024)} MiB unless the operator set another limit (the result then says body_truncated). ` +
  'Query parameters are fine; there is no way to send a body or headers.{{#bash}} Use this rather than `curl` or `wget` in bash.{{/bash}}';

export function fetchUrlTool(scope: UrlScope | undefined) {
  const allowed = scope ? ` Allowed: ${scope.describe().allow.join(', ')}.` : '';
  return defineTool({
    name: 'fetch_url',
    description: TEXT + allowed,
    openWorld: true,
    readOnly: true,
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
}

/** The guarded fetch with this tool's settings; refusals and network failures become model-visible errors. */
export async function fetchForTool(url: string, ctx: ToolContext, accept: string, timeoutSeconds?: number): Promise<FetchedResponse> {
  const net = ctx.session.network;
  if (!net) throw new ToolError('no url_scope.allow entries: network access is off');
  const seconds = timeoutSeconds ?? (ctx.settings.timeout_seconds as number | undefined) ?? FETCH_DEFAULTS.timeout_seconds;
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(seconds * 1000)]);
  try {
    return await guardedFetch(
      url.trim(),
      {
        scope: net.scope,
        resolve: net.resolve,
        userAgent: net.userAgent,
        proxy: net.proxy,
        maxBodyBytes: (ctx.settings.max_body_bytes as number | undefined) ?? FETCH_DEFAULTS.max_body_bytes,
        maxRedirects: (ctx.settings.max_redirects as number | undefined) ?? FETCH_DEFAULTS.max_redirects,
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
