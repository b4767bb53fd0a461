import path from 'node:path';

/**
 * core-agent's state directory ($XDG_STATE_HOME/core-agent, else
 * ~/.local/state/core-agent), or undefined when the environment names no home
 * at all (a test runtime with an empty environment keeps no state on disk).
 */
export function stateDir(env: NodeJS.ProcessEnv): string | undefined {
  const base = env.XDG_STATE_HOME || (env.HOME ? path.join(env.HOME, '.local', 'state') : undefined);
  return base === undefined ? undefined : path.join(base, 'core-agent');
}
