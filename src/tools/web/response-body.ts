import type { FetchedResponse } from '../../net/guarded-fetch.ts';

/** Media types whose bodies are text a model can read. */
export function isTextual(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return (
    type === '' ||
    type.startsWith('text/') ||
    /^application\/(?:.+\+)?(?:json|xml|yaml|javascript|ecmascript|x-ndjson|ld\+json|graphql|toml|x-www-form-urlencoded)$/.test(type) ||
    type.endsWith('+json') ||
    type.endsWith('+xml')
  );
}

export function isHtml(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'text/html' || type === 'application/xhtml+xml';
}

/** The body as text in its declared charset (UTF-8 when none or unknown). */
export function decodeBody(res: FetchedResponse): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(res.contentType)?.[1];
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(charset ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  // A body cut at the byte cap may end inside a character: drop the fragment.
  return decoder.decode(res.body).replace(/\uFFFD$/, '');
}
