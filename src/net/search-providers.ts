import * as z from 'zod/v4';
import { operatorFetch } from './operator-fetch.ts';

/** One web search backend; web_search is registered only when one is configured and usable. */
export interface SearchProvider {
  readonly name: string;
  search(query: string, count: number, signal: AbortSignal): Promise<SearchHit[]>;
}

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

export class SearchError extends Error {
  override readonly name = 'SearchError';
}

// The provider payloads are a boundary too: only the fields used, validated.
const searxngBody = z.object({
  results: z.array(z.object({ url: z.string(), title: z.string().default(''), content: z.string().nullish() })).default([]),
});
const braveBody = z.object({
  web: z
    .object({
      results: z.array(z.object({ url: z.string(), title: z.string().default(''), description: z.string().nullish() })).default([]),
    })
    .optional(),
});

/** A SearXNG instance (its JSON output format must be enabled in settings.yml). */
export function searxngProvider(baseUrl: string, apiKey: string | undefined): SearchProvider {
  return {
    name: 'searxng',
    async search(query, count, signal) {
      const url = new URL('search', withSlash(baseUrl));
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      const headers: Record<string, string> = { accept: 'application/json' };
      if (apiKey) headers.authorization = `Bearer ${apiKey}`;
      const body = await getJson(url, headers, signal, 'SearXNG', searxngBody);
      return body.results.slice(0, count).map((r) => ({ title: r.title, url: r.url, snippet: stripTags(r.content ?? '') }));
    },
  };
}

/** The Brave Search API (an X-Subscription-Token key). */
export function braveProvider(baseUrl: string, apiKey: string): SearchProvider {
  return {
    name: 'brave',
    async search(query, count, signal) {
      const url = new URL('res/v1/web/search', withSlash(baseUrl));
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(count));
      const body = await getJson(url, { accept: 'application/json', 'x-subscription-token': apiKey }, signal, 'Brave Search', braveBody);
      return (body.web?.results ?? [])
        .slice(0, count)
        .map((r) => ({ title: r.title, url: r.url, snippet: stripTags(r.description ?? '') }));
    },
  };
}

async function getJson<T>(url: URL, headers: Record<string, string>, signal: AbortSignal, who: string, schema: z.ZodType<T>): Promise<T> {
  let res;
  try {
    res = await operatorFetch(url.href, { method: 'GET', headers }, signal, { what: `answers from ${who}` });
  } catch (err) {
    throw new SearchError(`${who} could not be reached: ${(err as Error).message}`);
  }
  if (res.status !== 200) throw new SearchError(`${who} answered HTTP ${res.status}: ${res.text.slice(0, 200)}`);
  let json: unknown;
  try {
    json = JSON.parse(res.text);
  } catch {
    throw new SearchError(`${who} answered with something that is not JSON (is its JSON output enabled?)`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new SearchError(`${who} answered JSON of an unexpected shape: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

function withSlash(base: string): string {
  return base.endsWith('/') ? base : `${base}/`;
}

/** Providers mark matches with <strong>; the model wants the words. */
function stripTags(s: string): string {
  return s
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}
