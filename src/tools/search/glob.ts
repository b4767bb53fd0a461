import { stat } from 'node:fs/promises';
import * as z from 'zod/v4';
import { LIMITS, pathArg } from '../framework/limits.ts';
import { defineTool, ToolError, type JsonObject } from '../framework/tool.ts';
import { listFiles } from '../shared/file-list.ts';
import description from './glob.md';
import { compileNamePattern } from '../shared/name-pattern.ts';
import { chooseEngine, searchEngineSettings } from '../shared/ripgrep.ts';

export const globTool = defineTool({
  name: 'glob',
  description,
  kind: 'read',
  uses: ['ripgrepPath'],
  caps: { maxBytes: 32 * 1024, maxLines: 1000 },
  settings: searchEngineSettings,
  digest: true,
  narrowHint: 'Narrow `path` or make `pattern` more specific.',
  args: z.strictObject({
    pattern: z
      .string()
      .min(1)
      .max(LIMITS.namePattern)
      .describe('File-name pattern, e.g. "*.go"; with a "/" it matches the relative path, e.g. "cmd/**/main.go".'),
    path: pathArg('Directory to search, relative to the current directory (or absolute). Default: the current directory.').optional(),
  }),
  paths: (a) => [{ arg: 'path', path: a.path ?? '.', access: 'read' }],
  async run(args, ctx) {
    const root = ctx.paths.get('path')!;
    const shownRoot = ctx.display(root.real);
    if (!root.exists) throw new ToolError(`directory not found: ${shownRoot}`, 'not_found');
    if (!(await stat(root.real)).isDirectory()) throw new ToolError(`${shownRoot} is a file; glob searches directories`);
    const matches = compileNamePattern(args.pattern);
    const prefix = root.real === '/' ? '/' : `${root.real}/`;
    const { files, complete } = await listFiles(
      root.real,
      chooseEngine(ctx.settings, ctx.services.ripgrepPath),
      ctx.signal,
      ctx.workspace,
      (rel) => matches(rel) && ctx.readable(prefix + rel),
      args.pattern,
    );
    const paths = files.map((rel) => ctx.display(prefix + rel)).sort();
    const result: JsonObject = { path: shownRoot, pattern: args.pattern, count: paths.length, paths };
    if (!complete) {
      result.truncated = true;
      result.note = 'The tree is larger than one listing covers; narrow `path`.';
    }
    return result;
  },
});
