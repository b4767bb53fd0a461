/**
 * Names of environment variables that look like credentials: the one definition
 * for every place that keeps them away from a model's commands (bash's
 * environment, core-agent's own environment block at start-up).
 */
export const SECRET_NAME = /(?:API_KEY|APIKEY|_TOKEN|TOKEN_|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE_KEY|ACCESS_KEY)/i;

export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}
