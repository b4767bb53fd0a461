import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import htmlChunk from 'virtual:html-chunk';
import { loadEmbeddedModule } from '../../startup/embedded.ts';
import { defineTool, type JsonObject } from '../framework/tool.ts';
import { fetchSettings } from './fetch-settings.ts';
import { fetchForTool } from './fetch-url.ts';
import description from './web-fetch.md';
import { decodeBody, isHtml, isTextual } from './response-body.ts';

type Converters = typeof import('../../net/html-entry.ts');
let converters: Promise<Converters> | undefined;
const loadConverters = () => (converters ??= loadEmbeddedModule<Converters>(htmlChunk, 'html.cjs'));

export const webFetchTool = defineTool({
  name: 'web_fetch',
  job: 'fetch_url',
  dialect: 'cagent',
  description,
  kind: 'read_remote',
  needs: ['network'],
  settings: fetchSettings('a page fetch (a call may ask for less)'),
  narrowHint: 'Fetch a more specific page, or use format "text" for less markup.',
  args: z.strictObject({
    url: z.string().min(1).max(LIMITS.url).describe('The absolute http(s) URL of the page.'),
    format: z.enum(['markdown', 'text', 'html']).default('markdown').describe('markdown (default), text, or html.'),
    timeout: z.number().positive().max(120).optional().describe('Seconds before the fetch is abandoned (default 30, at most 120).'),
  }),
  async gateSubjects(args) {
    return { subject: args.url.trim(), verbs: [] };
  },
  async run(args, ctx) {
    const accept = args.format === 'html' ? 'text/html,*/*;q=0.5' : 'text/html,text/markdown,text/plain;q=0.9,*/*;q=0.5';
    const res = await fetchForTool(args.url, ctx, accept, args.timeout);
    const result: JsonObject = { url: res.url, status: res.status, content_type: res.contentType };
    if (!isTextual(res.contentType)) {
      result.binary = true;
      result.bytes = res.body.length;
      return result;
    }
    const raw = decodeBody(res);
    if (isHtml(res.contentType) && args.format !== 'html') {
      const { htmlToMarkdown, htmlToText } = await loadConverters();
      result.format = args.format;
      result.content = args.format === 'markdown' ? htmlToMarkdown(raw) : htmlToText(raw);
    } else {
      result.format = isHtml(res.contentType) ? 'html' : 'as-served';
      result.content = raw;
    }
    if (res.truncated)
      result.body_truncated = `the page was cut at ${res.body.length} bytes before conversion (tools.web_fetch.max_body_bytes)`;
    return result;
  },
});
