import { existsSync } from 'node:fs';
import { looksSecret } from './secret-names.ts';

/** The one shell: bash runs `/bin/sh -c`, and a string hook command runs through it too. */
export const SHELL = '/bin/sh';

/** Whether this system has a shell at all (a distroless image does not). */
export function shellAvailable(): boolean {
  return existsSync(SHELL);
}

/**
 * The environment a command started for the model runs with (bash, git and jj for
 * enter_worktree): variables that look like credentials never reach it unless the
 * call forwards them by name, and nothing in it may stop to ask.
 */
export function shellEnv(base: Readonly<Record<string, string | undefined>>, passEnv: readonly string[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (!looksSecret(k) || passEnv.includes(k)) env[k] = v;
  // Nothing may stop to ask: there is nobody at the keyboard of a tool call.
  return { ...env, CI: '1', GIT_TERMINAL_PROMPT: '0', PAGER: 'cat', GIT_PAGER: 'cat', DEBIAN_FRONTEND: 'noninteractive' };
}
