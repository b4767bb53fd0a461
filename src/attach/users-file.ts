import { readFileSync, statSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import * as z from 'zod/v4';
import { PRINCIPAL_NAME, PRINCIPAL_NAME_RULE } from '../core/principal.ts';
import { looksSecret } from '../util/secret-names.ts';
import { digest, type TokenEntry } from './tokens.ts';

/**
 * The attach daemon's users file (`serve --users-file`, CORE_AGENT_USERS_FILE, attach.users_file):
 * every principal with its group, tenant and admin role, and where its token is. A token is never
 * in the file in clear: the file names the environment variable holding it (`token_env`), or gives
 * its sha256 (`token_sha256`), so the file can be read in a review or a diff without leaking one.
 */
const name = z.string().regex(PRINCIPAL_NAME, PRINCIPAL_NAME_RULE);
const userRow = z.strictObject({
  name,
  token_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
    .optional(),
  token_sha256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'the token sha256, 64 hex digits (sha256sum of the token without a newline)')
    .optional(),
  group: name.optional(),
  tenant: name.optional(),
  admin: z.boolean().optional(),
});
const usersFileSchema = z.strictObject({
  version: z.literal(1, 'the only version is 1'),
  users: z.array(userRow).min(1, 'list at least one user').max(10_000),
});

export interface UsersFileIo {
  env: Readonly<Record<string, string | undefined>>;
  /** The process's groups (process.getgroups()), for the 0640 rule. */
  groups: readonly number[];
}

/**
 * The users file read and checked: a TokenEntry per user. Throws an Error whose message is one
 * sentence naming the file, the row and the field at fault (the CLI makes it exit 2), never a token.
 */
export function loadUsersFile(file: string, io: UsersFileIo): TokenEntry[] {
  checkMode(file, io.groups);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`users file ${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let raw: unknown;
  try {
    // JSON is YAML: one parser reads both.
    raw = parseYaml(text, { maxAliasCount: 0 });
  } catch (err) {
    throw new Error(
      `users file ${file}: not YAML or JSON (${String((err as Error).message)
        .split('\n')[0]!
        .slice(0, 160)})`,
    );
  }
  const parsed = usersFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
    const what =
      issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.map((k) => `"${k.slice(0, 40)}"`).join(', ')}` : issue.message;
    throw new Error(`users file ${file}${where}: ${what}`);
  }
  const seen = new Map<string, number>();
  const tokens = new Map<string, string>();
  return parsed.data.users.map((u, i) => {
    const row = `users file ${file} users.${i} (${u.name})`;
    if (seen.has(u.name)) throw new Error(`${row}: the name is also users.${seen.get(u.name)}'s; each user appears once`);
    seen.set(u.name, i);
    if ((u.token_env === undefined) === (u.token_sha256 === undefined))
      throw new Error(`${row}: give exactly one of token_env (the variable holding the token) or token_sha256`);
    let sha256: string;
    if (u.token_env !== undefined) {
      // Only a credential-looking name is kept from the model's commands, blanked in core-agent's
      // /proc environ and masked in results (util/secret-names.ts): a token in ALICE would reach bash.
      if (!looksSecret(u.token_env))
        throw new Error(
          `${row}: token_env ${u.token_env} is not named like a credential, so the model's commands could read it; name it like ALICE_TOKEN (…_TOKEN, …SECRET…, …PASSWORD…)`,
        );
      const value = io.env[u.token_env];
      if (!value) throw new Error(`${row}: token_env ${u.token_env} is not set`);
      sha256 = digest(value).toString('hex');
    } else sha256 = u.token_sha256!.toLowerCase();
    const other = tokens.get(sha256);
    if (other !== undefined) throw new Error(`${row}: has the same token as ${other}; each user needs its own`);
    tokens.set(sha256, u.name);
    return { principal: u.name, sha256, group: u.group, tenant: u.tenant, admin: u.admin === true };
  });
}

/**
 * 0600, or 0640 when the file's group is one this process is in (a Kubernetes Secret volume with
 * fsGroup): the Go original's rule. Anything wider lets other accounts read who may do what and,
 * with token_sha256, try tokens offline.
 */
function checkMode(file: string, groups: readonly number[]): void {
  let st;
  try {
    st = statSync(file);
  } catch (err) {
    throw new Error(`users file ${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (process.platform === 'win32') return;
  const mode = st.mode & 0o777;
  if ((mode & 0o077) === 0) return;
  if ((mode & 0o037) === 0 && groups.includes(st.gid)) return;
  throw new Error(
    `users file ${file}: mode ${mode.toString(8).padStart(4, '0')} lets other accounts read it; chmod 600 (or 640 with a group this process is in)`,
  );
}
