import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The bundle's embedded chunks (scripts/embedded.mjs) are comments after its JavaScript:
 * `/*core-agent-chunk ID`, a newline, the base64 data, a newline and the comment's end. The
 * file is read once, when the first chunk is needed; nothing else of the run touches it.
 */
let bundleText: string | undefined;

export function bundledChunk(id: string): string {
  // latin1: the data is base64, and a byte-per-character read needs no UTF-8 decoding.
  bundleText ??= readFileSync(fileURLToPath(import.meta.url), 'latin1');
  const open = `\n/*core-agent-chunk ${id}\n`;
  const start = bundleText.lastIndexOf(open);
  const end = start === -1 ? -1 : bundleText.indexOf('\n*/', start + open.length);
  if (end === -1)
    throw new Error(`the bundle has no embedded chunk "${id}" (${fileURLToPath(import.meta.url)}): rebuild it with scripts/build.mjs`);
  return bundleText.slice(start + open.length, end);
}
