import { homedir } from 'node:os';
import path from 'node:path';

/**
 * The user's home directory, as the layers below the root are given it (they
 * never read $HOME or the password database themselves): $HOME, else the
 * account's home.
 */
export function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME || homedir();
}

/**
 * core-agent's state directory: $XDG_STATE_HOME/core-agent, else
 * ~/.local/state/core-agent. The session database, the records of running
 * process groups and the journal of writes in flight live here.
 */
export function stateDir(env: NodeJS.ProcessEnv): string {
  return path.join(env.XDG_STATE_HOME || path.join(homeOf(env), '.local', 'state'), 'core-agent');
}
