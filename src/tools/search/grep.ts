import { stat } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod/v4';
import { LIMITS, pathArg } from '../framework/limits.ts';
import { looksBinary, openChecked } from '../shared/safe-fs.ts';
import { defineTool, ToolError, type JsonObject } from '../framework/tool.ts';
import description from './grep.md';
import { compileRe2, grepInProcess } from './grep-re2.ts';
import { firstLine, ripgrepTypeFilter } from '../shared/file-list.ts';
import { compileNamePattern } from '../shared/name-pattern.ts';
import { ripgrepExclusions } from '../shared/ignore-rules.ts';
import { linesConfirmed, type ReportedLine } from '../shared/recheck.ts';
import { chooseEngine, runRipgrep, searchEngineSettings } from '../shared/ripgrep.ts';
import { grepGolem } from './grep.golem.ts';

/** Longest line text returned per match; the rest of a long line is elided (rg's --max-columns). */
export const MAX_MATCH_COLUMNS = 500;

export interface GrepMatch {
  path: string;
  line: number;
  text: string;
}

export const grepTool = defineTool({
  name: 'grep',
  faces: [grepGolem],
  description,
  kind: 'read',
  uses: ['ripgrepPath'],
  caps: { maxBytes: 64 * 1024, maxLines: 500 },
  settings: searchEngineSettings,
  digest: true,
  narrowHint: 'Narrow the pattern, `path` or `include`.',
  args: z.strictObject({
    pattern: z.string().min(1).max(LIMITS.regex).describe('Regular expression (RE2 syntax) matched against each line.'),
    path: pathArg(
      'File or directory to search, relative to the current directory (or absolute). Default: the current directory.',
    ).optional(),
    include: z
      .string()
      .min(1)
      .max(LIMITS.namePattern)
      .optional()
      .describe('Only search files whose name matches this pattern, e.g. "*.py"; with a "/" it matches the relative path.'),
    ignore_case: z.boolean().optional().describe('Match case-insensitively. Default false.'),
  }),
  paths: (a) => [{ arg: 'path', path: a.path ?? '.', access: 'read' }],
  async run(args, ctx) {
    if (args.pattern.includes('\n')) throw new ToolError('the pattern cannot contain a newline: grep matches within one line');
    // Compile up front with RE2 whatever the engine, so a bad pattern gets the
    // same message either way and never reaches a subprocess.
    await compileRe2(args.pattern, args.ignore_case === true);

    const root = ctx.paths.get('path')!;
    const shownRoot = ctx.display(root.real);
    if (!root.exists) throw new ToolError(`not found: ${shownRoot}`, 'not_found');
    const isFile = !(await stat(root.real)).isDirectory();
    if (isFile) await refuseBinary(root.real, shownRoot);

    const include = args.include !== undefined ? compileNamePattern(args.include) : null;
    const limit = ctx.caps.maxLines;
    const engine = chooseEngine(ctx.settings, ctx.services.ripgrepPath);
    const found: GrepMatch[] = [];
    if (engine.kind === 'ripgrep') {
      const cwd = isFile ? path.dirname(root.real) : root.real;
      const rgArgs = [
        '--line-number',
        '--with-filename',
        '--null',
        '--no-heading',
        '--color=never',
        `--max-columns=${MAX_MATCH_COLUMNS}`,
        '--max-columns-preview',
        args.ignore_case === true ? '--ignore-case' : '--case-sensitive',
        // rg pre-filters on a plain name pattern; the JS filter below still
        // decides, so both engines agree on what `include` means.
        ...ripgrepTypeFilter(args.include),
        ...ripgrepExclusions(),
        `--regexp=${args.pattern}`,
        '--',
        isFile ? path.basename(root.real) : '.',
      ];
      const reported: ReportedLine[] = [];
      const run = runRipgrep(
        engine.rg,
        rgArgs,
        cwd,
        '\n',
        (rec) => {
          const nul = rec.indexOf('\0');
          const colon = rec.indexOf(':', nul + 1);
          if (nul === -1 || colon === -1) return true;
          const rel = rec.slice(0, nul);
          const abs = path.join(cwd, rel);
          if ((include && !isFile && !include(path.relative(root.real, abs))) || !ctx.readable(abs)) return true;
          reported.push({ rel, line: Number(rec.slice(nul + 1, colon)), text: stripCr(rec.slice(colon + 1)) });
          return reported.length <= limit;
        },
        ctx.signal,
      );
      const { code, stderr, stopped } = await run.done;
      // rg walked by path; only what the checked tree, read through descriptors, really holds is shown.
      for (const r of await linesConfirmed(cwd, reported)) {
        found.push({ path: ctx.display(path.join(cwd, r.rel)), line: r.line, text: r.text });
      }
      if (!stopped && code === 2 && found.length === 0) {
        // RE2 accepted it, but rg's compiled form is bigger (its \p{…} classes are full Unicode tables).
        if (/exceeds size limit/.test(stderr)) {
          throw new ToolError(
            'the pattern is too large for the search engine once compiled; simplify it: fewer alternatives, smaller {n,m} counts, ASCII classes such as [A-Za-z] instead of \\p{…}',
          );
        }
        throw new ToolError(`search failed: ${firstLine(stderr).slice(0, 300)}`);
      }
    } else {
      await grepInProcess({
        root: root.real,
        isFile,
        pattern: args.pattern,
        ignoreCase: args.ignore_case === true,
        include: args.include,
        signal: ctx.signal,
        workspace: ctx.workspace,
        onMatch: (abs, line, text) => {
          if (!ctx.readable(abs)) return true;
          found.push({ path: ctx.display(abs), line, text: stripCr(text) });
          return found.length <= limit;
        },
      });
    }

    found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
    const result: JsonObject = {
      pattern: args.pattern,
      path: shownRoot,
      count: Math.min(found.length, limit),
      matches: found.slice(0, limit) as unknown as JsonObject[],
    };
    if (found.length > limit) {
      result.truncated = true;
      result.note = `More than ${limit} matches; only the first ${limit} found are shown. Narrow the pattern, \`path\` or \`include\`.`;
    }
    return result;
  },
});

function stripCr(s: string): string {
  return s.endsWith('\r') ? s.slice(0, -1) : s;
}

async function refuseBinary(real: string, shown: string): Promise<void> {
  const fh = await openChecked(real);
  try {
    const head = Buffer.alloc(8192);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    if (looksBinary(head.subarray(0, bytesRead))) throw new ToolError(`${shown} is a binary file; grep searches text`);
  } finally {
    await fh.close();
  }
}
