import * as z from 'zod/v4';
import { ACL_ENTRY, ACL_ENTRY_RULE, type Principal } from '../core/principal.ts';

/**
 * Who may do what to a session (the Go original's attach roles, pkg/auth/authorize.go):
 *
 * | need   | admin | owner | contributor | viewer |
 * |--------|-------|-------|-------------|--------|
 * | read   |   ✓   |   ✓   |      ✓      |   ✓    |  events, perms/stream, the list
 * | write  |   ✓   |   ✓   |      ✓      |        |  inject, wake, interrupt, perms/respond
 * | manage |   ✓   |   ✓   |             |        |  the ACL, DELETE
 *
 * An entry is a principal's name, `group:NAME`, `tenant:NAME`, or `*` (every authenticated
 * principal). A session with no owner on record (started before owners were recorded) is the
 * admins' only: nothing is granted by accident.
 */
export interface SessionAcl {
  /** The principal the session acts for; null when none is on record. */
  owner: Principal | null;
  viewers: readonly string[];
  contributors: readonly string[];
}

export type Need = 'read' | 'write' | 'manage';
export type Role = 'admin' | 'owner' | 'contributor' | 'viewer';

/** The role each need asks for at least, named in a 403. */
export const NEED_ROLE: Record<Need, string> = {
  read: 'viewer, contributor or owner',
  write: 'contributor or owner',
  manage: 'owner (or an admin)',
};

export const aclEntry = z.string().regex(ACL_ENTRY, ACL_ENTRY_RULE);
export const aclList = z.array(aclEntry).max(256);

/** PATCH /sessions/{sid}/acl: each list given replaces the old one; an absent list is left alone. */
export const aclPatch = z.strictObject({
  viewers: aclList.optional(),
  contributors: aclList.optional(),
  owner: z.unknown().optional(),
});

/** Whether an ACL entry names this principal. */
export function entryMatches(entry: string, who: Principal): boolean {
  if (entry === '*') return true;
  if (entry.startsWith('group:')) return who.group !== undefined && entry.slice(6) === who.group;
  if (entry.startsWith('tenant:')) return who.tenant !== undefined && entry.slice(7) === who.tenant;
  return entry === who.name;
}

/** The caller's strongest role on the session, or null: none at all. */
export function roleOf(who: Principal, acl: SessionAcl): Role | null {
  if (who.admin) return 'admin';
  if (acl.owner !== null && acl.owner.name === who.name) return 'owner';
  if (acl.contributors.some((e) => entryMatches(e, who))) return 'contributor';
  if (acl.viewers.some((e) => entryMatches(e, who))) return 'viewer';
  return null;
}

export function allows(role: Role | null, need: Need): boolean {
  if (role === null) return false;
  if (role === 'admin' || role === 'owner') return true;
  if (need === 'manage') return false;
  return need === 'read' || role === 'contributor';
}
