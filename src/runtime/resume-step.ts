import { existsSync } from 'node:fs';
import { UsageError } from '../core/usage-error.ts';
import type { EventLog } from '../store/event-log.ts';
import { resolveWorkspace } from './recipe-step.ts';
import type { Settings } from './settings.ts';

/** `--resume latest` / `-C, --continue`: the newest session of this workspace. */
export const LATEST = 'latest';

/**
 * The resume step: which session `--resume` names, and the settings it runs under.
 * A resumed session is where it was: its workspace and its model, unless the
 * command line or the environment names others (they win: an operator may move a
 * session to another model on purpose). `latest` is the session of this workspace
 * (-w, else the current directory) with the newest activity.
 */
export async function resumeStep(
  log: EventLog,
  settings: Settings,
  resume: string | undefined,
  command: string,
): Promise<{ resume: string | undefined; settings: Settings }> {
  if (resume === undefined) return { resume, settings };
  let id = resume;
  if (resume === LATEST) {
    const workspace = await resolveWorkspace(settings.workspace ?? process.cwd());
    const newest = log.sessions({ workspace })[0];
    if (!newest) {
      const others = log.sessions().length;
      throw new UsageError(
        `no session of ${workspace} to continue in ${log.location}` +
          (others > 0 ? ` (${others} in other workspaces: core-agent sessions list --all; resume one with --resume ID)` : ''),
        command,
      );
    }
    id = newest.id;
  }
  const session = log.session(id);
  if (!session) throw new UsageError(`no session "${id.slice(0, 80)}" in ${log.location} (core-agent sessions list)`, command);
  if (settings.workspace === undefined && !existsSync(session.workspace)) {
    throw new UsageError(
      `session ${id} ran in ${session.workspace}, which no longer exists; give -w DIR to resume it somewhere else`,
      command,
    );
  }
  return {
    resume: id,
    settings: { ...settings, workspace: settings.workspace ?? session.workspace, model: settings.model ?? session.model },
  };
}
