import { homedir } from 'node:os';
import path from 'node:path';

/**
 * core-agent's state directory: $XDG_STATE_HOME/core-agent, else
 * ~/.local/state/core-agent. The session database, the records of running
 * process groups and the journal of writes in flight live here.
 */
export function stateDir(env: NodeJS.ProcessEnv): string {
  return path.join(env.XDG_STATE_HOME || path.join(env.HOME || homedir(), '.local', 'state'), 'core-agent');
}
