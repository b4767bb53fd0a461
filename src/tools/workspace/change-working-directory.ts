import * as z from 'zod/v4';
import { pathArg } from '../framework/limits.ts';
import { defineTool, ToolError } from '../framework/tool.ts';
import description from './change-working-directory.md';
import { enterDirectory, insideWorkspace } from './enter.ts';

/** `.` is the launch directory, whatever the current one is (the seed's contract, not a relative path). */
function isLaunchDirectory(p: string): boolean {
  return p === '.' || p === './';
}

export const changeWorkingDirectoryTool = defineTool({
  name: 'change_working_directory',
  dialect: 'cagent',
  description,
  // The session's own state: it never asks inside the workspace, and plan-first does not hold it
  // back. Leaving the workspace is a second, non-exempt gate decision in run().
  kind: 'lifecycle',
  narrowHint: '',
  args: z.strictObject({
    path: pathArg('Directory to move to, relative to the current directory (or absolute). "." returns to the launch directory.'),
  }),
  // Claimed, so path_scope and deny rules apply to the target before anything else.
  paths: (a) => (isLaunchDirectory(a.path) ? [] : [{ arg: 'path', path: a.path, access: 'read' }]),
  async run(args, ctx) {
    if (isLaunchDirectory(args.path)) return enterDirectory(ctx.workspace, ctx);
    const target = ctx.paths.get('path')!;
    if (!target.exists) throw new ToolError(`directory not found: ${ctx.display(target.real)}`, 'not_found');
    if (!insideWorkspace(ctx.workspace, target.real)) {
      // Outside the launch directory: the gate decides as for a change (ask mode asks, headless
      // refuses, yolo or an allow rule on the path allows), not as for session bookkeeping.
      const auth = await ctx.authorizePath(target.real, 'write');
      if ('refused' in auth) throw new ToolError(`moving outside the workspace needs approval: ${auth.refused}`, 'denied');
    }
    return enterDirectory(target.real, ctx);
  },
});
