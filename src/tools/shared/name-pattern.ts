import path from 'node:path';
import picomatch from 'picomatch';
import { quoteArg } from '../framework/error-text.ts';
import { ToolError } from '../framework/tool.ts';

/**
 * A file-name pattern as glob and read_many_files take it: without a `/` it is
 * matched against the file name alone (`*.ts`, `Dockerfile`, `*.{yml,yaml}`);
 * with one, against the path relative to the search root (`src/**\/*.test.ts`).
 * Returns a test on paths relative to that root.
 */
export function compileNamePattern(pattern: string): (relPath: string) => boolean {
  if (pattern.startsWith('/') || pattern.split('/').includes('..')) {
    throw new ToolError(`pattern ${quoteArg(pattern)} must be relative to the search directory; put the directory in "path" instead`);
  }
  const p = pattern.startsWith('./') ? pattern.slice(2) : pattern;
  const match = picomatch(p, { dot: true });
  return p.includes('/') ? (rel) => match(rel) : (rel) => match(path.basename(rel));
}
