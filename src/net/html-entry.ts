// HTML converters, bundled apart from the main code and embedded as data
// (scripts/bundle/embedded.mjs): loaded when web_fetch first converts a page.
import { gfm } from '@joplin/turndown-plugin-gfm';
import { convert } from 'html-to-text';
import TurndownService from 'turndown';

/** HTML → Markdown: ATX headings, fenced code, GFM tables; scripts, styles and forms dropped. */
export function htmlToMarkdown(html: string): string {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  service.use(gfm);
  service.remove(['script', 'style', 'noscript', 'iframe', 'form', 'button', 'svg', 'canvas', 'template', 'head'] as never);
  return service.turndown(html).trim();
}

/** HTML → plain text, word-wrapped off, links shown once, images dropped. */
export function htmlToText(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'script', format: 'skip' },
      { selector: 'style', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    ],
  }).trim();
}
