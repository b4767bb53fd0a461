import { stat } from 'node:fs/promises';
import { ToolError, type JsonObject, type ToolContext } from '../framework/tool.ts';

/** Whether a physical path is the workspace or lies under it. */
export function insideWorkspace(workspace: string, real: string): boolean {
  return real === workspace || workspace === '/' || real.startsWith(`${workspace}/`);
}

/**
 * Make an existing directory (physical, already past path_scope and the gate)
 * the conversation's current directory: every later relative path and bash
 * start from it. The workspace itself is stored as "no current directory", so
 * `.` and the workspace's own path are one state.
 */
export async function enterDirectory(real: string, ctx: Pick<ToolContext, 'workspace' | 'session' | 'display'>): Promise<JsonObject> {
  const shown = ctx.display(real);
  const st = await stat(real).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') throw new ToolError(`directory not found: ${shown}`, 'not_found');
    throw err;
  });
  if (!st.isDirectory()) throw new ToolError(`${shown} is a file, not a directory`);
  ctx.session.cwd = real === ctx.workspace ? undefined : real;
  return {
    cwd: shown,
    absolute_path: real,
    outside_workspace: !insideWorkspace(ctx.workspace, real),
  };
}
