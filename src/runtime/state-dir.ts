import { homedir, userInfo } from 'node:os';
import path from 'node:path';
import { osPrincipalName, principal, PRINCIPAL_NAME, PRINCIPAL_NAME_RULE, type Principal } from '../core/principal.ts';
import { SettingsError } from '../core/settings-error.ts';

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

/**
 * The principal of a terminal run (run, repl, tools call) without --user: CORE_AGENT_USER, else the
 * OS account ($USER, $LOGNAME, the password database), made a valid name. Never an admin.
 */
export function terminalPrincipal(env: NodeJS.ProcessEnv): Principal {
  const named = env.CORE_AGENT_USER?.trim();
  if (named) {
    if (!PRINCIPAL_NAME.test(named)) throw new SettingsError(`CORE_AGENT_USER is not a valid user name (${PRINCIPAL_NAME_RULE})`);
    return principal(named);
  }
  let account = env.USER || env.LOGNAME;
  if (!account) {
    try {
      account = userInfo().username;
    } catch {
      account = 'user';
    }
  }
  return principal(osPrincipalName(account));
}
