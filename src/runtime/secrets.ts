import { ENV_REFERENCE } from '../config/env-reference.ts';
import { looksSecret } from '../util/secret-names.ts';
import { SecretValues } from '../util/secret-values.ts';

/**
 * The process's one registry of secret values (util/secret-values.ts), filled
 * here at the root and handed to what must never record or show one: the
 * dispatcher (every tool result and error, whatever the tool), the event log,
 * the logger and the JSON stream. One per process: every session a daemon runs
 * reads the same environment, and a token an MCP connection obtains later is
 * added to it where the connection learns it.
 */
export const processSecrets = new SecretValues();

/**
 * The environment's credentials: every variable named like one (util/secret-names.ts,
 * the names bash never gets: *_API_KEY, *_TOKEN, *SECRET*, *PASSWORD*, …).
 */
export function registerEnvironmentSecrets(secrets: SecretValues, env: NodeJS.ProcessEnv): void {
  for (const [name, value] of Object.entries(env)) if (looksSecret(name)) addSecret(secrets, value);
}

/**
 * The configuration's credentials: the value of every variable a `*_env` key
 * names anywhere in the recipe or the MCP declarations (token_env, url_env — a
 * webhook's URL is its credential —, api_key_env, client_secret_env,
 * private_key_env, bearer_token_env, proxy_env, …), and of every `${NAME}` an
 * HTTP MCP server's `headers:` expand, whatever those variables are called.
 */
export function registerConfiguredSecrets(secrets: SecretValues, env: NodeJS.ProcessEnv, config: unknown): void {
  const visit = (value: unknown, key: string): void => {
    if (typeof value === 'string') {
      if (key.endsWith('_env')) addSecret(secrets, env[value]);
      return;
    }
    if (Array.isArray(value)) {
      for (const v of value) visit(v, key);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const [k, v] of Object.entries(value)) {
      if (k === 'headers' && v !== null && typeof v === 'object')
        for (const header of Object.values(v))
          if (typeof header === 'string') for (const m of header.matchAll(ENV_REFERENCE)) addSecret(secrets, env[m[1]!]);
      visit(v, k);
    }
  };
  visit(config, '');
}

/**
 * One value, and the parts of it that travel alone: each token of the attach
 * API's `NAME=TOKEN,NAME2=TOKEN2` form, and each body line of a PEM key (a file
 * tool shows a key line by line).
 */
export function addSecret(secrets: SecretValues, value: string | undefined): void {
  if (!value) return;
  secrets.add(value);
  if (/^[^=,\s]+=[^,\s]+(,[^=,\s]+=[^,\s]+)+$|^[^=,\s]+=[^,\s]+$/.test(value))
    for (const pair of value.split(',')) secrets.add(pair.slice(pair.indexOf('=') + 1));
  if (value.includes('-----BEGIN '))
    for (const line of value.split(/\r?\n/)) if (!line.startsWith('-----') && !line.includes(':')) secrets.add(line);
}
