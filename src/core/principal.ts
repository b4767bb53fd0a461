import path from 'node:path';

/**
 * Who a run acts for: the attach daemon's caller (its token's principal), `--user NAME` or the
 * OS user for `run` and `repl`, or a service principal for unattended runs (watch's incidents).
 * Every per-user thing — memory, skills, the workspace, published files — belongs to one.
 */
export interface Principal {
  readonly name: string;
  /** Shares read-only skills (and later knowledge) with the other members of the group. */
  readonly group?: string | undefined;
  /** The organisation the principal belongs to: the widest sharing scope. */
  readonly tenant?: string | undefined;
  /** A role, given by configuration only: never implied by a name, a token or being alone. */
  readonly admin: boolean;
  /** An unattended run's principal (watch, schedules): it never answers questions itself. */
  readonly service: boolean;
}

/**
 * A principal's, group's or tenant's name: a letter, then up to 63 letters, digits, `.`, `_`, `@`,
 * `-`. Safe as one path segment (no `/`, and no name is `.` or `..`), so a home is always one
 * folder below its parent.
 */
export const PRINCIPAL_NAME = /^[A-Za-z][A-Za-z0-9._@-]{0,63}$/;

export const PRINCIPAL_NAME_RULE = 'a letter, then up to 63 letters, digits, . _ @ -';

/** A session ACL entry: a principal's name, `group:NAME`, `tenant:NAME`, or `*` (every authenticated principal). */
export const ACL_ENTRY = /^(?:\*|(?:group:|tenant:)?[A-Za-z][A-Za-z0-9._@-]{0,63})$/;

export const ACL_ENTRY_RULE = 'a principal name, group:NAME, tenant:NAME or *';

/** The service principal unattended runs act as, unless the recipe names another. */
export const DEFAULT_SERVICE_PRINCIPAL = 'core-agent-service';

export function principal(name: string, o: { group?: string; tenant?: string; admin?: boolean; service?: boolean } = {}): Principal {
  for (const [field, value] of [
    ['principal', name],
    ['group', o.group],
    ['tenant', o.tenant],
  ] as const) {
    if (value !== undefined && !PRINCIPAL_NAME.test(value))
      throw new Error(`${field} "${value.slice(0, 80)}" is not a valid name (${PRINCIPAL_NAME_RULE})`);
  }
  return { name, group: o.group, tenant: o.tenant, admin: o.admin === true, service: o.service === true };
}

/**
 * The principal of a terminal run with no --user: the OS account's name, made a valid name
 * (`first.last` stays; `DOMAIN\\user` → `DOMAIN_user`; a name that starts with a digit gets a `u`).
 */
export function osPrincipalName(username: string): string {
  const cleaned = username.replace(/[^A-Za-z0-9._@-]/g, '_').slice(0, 63);
  const named = /^[A-Za-z]/.test(cleaned) ? cleaned : `u${cleaned}`.slice(0, 64);
  return PRINCIPAL_NAME.test(named) ? named : 'user';
}

/** Where a principal's own things live, under core-agent's state directory. Folders are made on first write, mode 0700. */
export interface UserHome {
  readonly root: string;
  /** golem's memory family and Anthropic's memory tool: MEMORY.md and the notes beside it. */
  readonly memories: string;
  /** Skills the principal wrote (WriteSkillFile): the first skills root. */
  readonly skills: string;
  /** The principal's own workspace (golem's Files family roots here in a daemon). */
  readonly workspace: string;
  /** Files the principal published (later: the publish family). */
  readonly published: string;
  /** Read-only skills shared by the principal's group, then tenant (absent without one). */
  readonly groupSkills?: string | undefined;
  readonly tenantSkills?: string | undefined;
}

/**
 * A principal's home: `<state>/users/<name>/` with memories/, skills/, workspace/ and published/;
 * the group's and tenant's shared skills under `<state>/groups/<group>/skills` and
 * `<state>/tenants/<tenant>/skills`.
 */
export function userHome(stateDir: string, p: Principal): UserHome {
  const root = path.join(stateDir, 'users', p.name);
  return {
    root,
    memories: path.join(root, 'memories'),
    skills: path.join(root, 'skills'),
    workspace: path.join(root, 'workspace'),
    published: path.join(root, 'published'),
    groupSkills: p.group === undefined ? undefined : path.join(stateDir, 'groups', p.group, 'skills'),
    tenantSkills: p.tenant === undefined ? undefined : path.join(stateDir, 'tenants', p.tenant, 'skills'),
  };
}
