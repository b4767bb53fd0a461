import path from 'node:path';
import type { RE2JS } from 're2js';
import re2Chunk from 'virtual:re2-chunk';
import { loadEmbeddedModule } from '../../startup/embedded.ts';
import { looksBinary, openChecked, openEntry } from '../shared/safe-fs.ts';
import { ToolError } from '../framework/tool.ts';
import { compileNamePattern } from '../shared/name-pattern.ts';
import { walkFiles, type WalkedFile } from '../shared/walk.ts';

/** Lines longer than this are elided as ripgrep's --max-columns-preview does. */
const MAX_COLUMNS = 500;
/** The in-process engine reads whole files; larger ones are skipped rather than loaded. */
const MAX_FILE_BYTES = 256 * 1024 * 1024;

let re2Module: Promise<typeof import('./re2-entry.ts')> | undefined;

/** re2js builds large Unicode tables when loaded, so it is loaded on the first grep call. */
export async function compileRe2(pattern: string, ignoreCase: boolean, multiline = false): Promise<RE2JS> {
  re2Module ??= loadEmbeddedModule<typeof import('./re2-entry.ts')>(re2Chunk, 're2js.cjs');
  const { RE2JS: Re2 } = await re2Module;
  try {
    return Re2.compile(pattern, (ignoreCase ? Re2.CASE_INSENSITIVE : 0) | (multiline ? Re2.MULTILINE : 0));
  } catch (err) {
    // re2js quotes the offending part, which can be most of a long pattern.
    const why = (err as Error).message;
    throw new ToolError(
      `invalid pattern (RE2 syntax: no look-around or backreferences): ${why.length > 300 ? `${why.slice(0, 300)}…` : why}`,
    );
  }
}

export interface InProcessGrep {
  root: string;
  isFile: boolean;
  pattern: string;
  ignoreCase: boolean;
  include: string | undefined;
  signal: AbortSignal;
  workspace: string;
  /** Return false to stop the search. */
  onMatch(absPath: string, line: number, text: string): boolean;
}

/**
 * The engine used where no ripgrep binary exists: the same file selection as
 * rg (see walk.ts) and RE2 semantics through re2js, which runs in linear time
 * — a pathological pattern such as `(a+)+$` cannot stall it.
 */
export async function grepInProcess(opts: InProcessGrep): Promise<void> {
  const perLine = await compileRe2(opts.pattern, opts.ignoreCase);
  // A whole-file pre-check (multi-line mode, so ^ and $ still mean line edges)
  // skips most files without splitting them into lines.
  const wholeFile = await compileRe2(opts.pattern, opts.ignoreCase, true);
  const include = opts.include !== undefined ? compileNamePattern(opts.include) : null;
  const files = opts.isFile ? single(opts.root) : walkFiles(opts.root, opts.signal, opts.workspace);
  for await (const f of files) {
    if (opts.signal.aborted) return;
    const abs = f.abs;
    if (include && !opts.isFile && !include(path.relative(opts.root, abs))) continue;
    // Through the walk's pinned directory (or, for one file, a descriptor verified to be it):
    // a symlink swapped in after the listing is never followed.
    let buf: Buffer;
    try {
      const fh = f.dir ? await openEntry(f.dir, f.name, abs) : await openChecked(abs);
      try {
        if ((await fh.stat()).size > MAX_FILE_BYTES) continue;
        buf = await fh.readFile();
      } finally {
        await fh.close();
      }
    } catch {
      continue;
    }
    if (buf.length > MAX_FILE_BYTES || looksBinary(buf)) continue;
    const text = buf.toString('utf8');
    if (!wholeFile.matcher(text).find()) continue;
    const lines = text.split('\n');
    if (text.endsWith('\n')) lines.pop(); // the newline ends the last line; it does not start another
    let lineNo = 0;
    for (const line of lines) {
      lineNo += 1;
      if (!perLine.matcher(line).find()) continue;
      const shown = line.length > MAX_COLUMNS ? `${line.slice(0, MAX_COLUMNS)} [... omitted end of long line]` : line;
      if (!opts.onMatch(abs, lineNo, shown)) return;
    }
  }
}

async function* single(file: string): AsyncGenerator<{ abs: string; dir?: undefined; name?: undefined } | WalkedFile> {
  yield { abs: file };
}
