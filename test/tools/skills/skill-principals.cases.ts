import type { Tree } from '../../helpers/workspace.ts';
import { md } from './skill-store.cases.ts';

/**
 * Who sees whose skills, one case a line. Four principals: alice (group g1, tenant t1), carol
 * (g1, t2), bob (g2, t1), dave (g2, t2). A case puts a skill in place — on disk in a group's or
 * tenant's folder, or written by `writer` with WriteSkillFile in a session of their own — then
 * starts a new session as `viewer` and says whether the viewer is offered it (the skill tool's
 * list and list_skills) and what reading it gives.
 */
export type Who = 'alice' | 'carol' | 'bob' | 'dave';
export const PRINCIPALS: Record<Who, { group: string; tenant: string }> = {
  alice: { group: 'g1', tenant: 't1' },
  carol: { group: 'g1', tenant: 't2' },
  bob: { group: 'g2', tenant: 't1' },
  dave: { group: 'g2', tenant: 't2' },
};

export interface PrincipalCase {
  what: string;
  tree?: Tree;
  /** Writes `skill`'s SKILL.md (body `by <writer>`) with WriteSkillFile first, in a session of its own. */
  writer?: Who;
  skill: string;
  viewer: Who;
  /** The body the viewer reads, or null when the viewer is not offered the skill. */
  sees: string | null;
}

const team = { 'groups/g1/skills/team/SKILL.md': md('team', 'by g1') };
const org = { 'tenants/t1/skills/org/SKILL.md': md('org', 'by t1') };

export const PRINCIPAL_CASES: PrincipalCase[] = [
  { what: 'alice sees the skill she wrote, in her next session', writer: 'alice', skill: 'mine', viewer: 'alice', sees: 'by alice' },
  { what: "bob never sees alice's skill", writer: 'alice', skill: 'mine', viewer: 'bob', sees: null },
  { what: "carol (alice's group) never sees alice's own skill", writer: 'alice', skill: 'mine', viewer: 'carol', sees: null },
  { what: "dave never sees alice's skill", writer: 'alice', skill: 'mine', viewer: 'dave', sees: null },
  { what: 'a group skill is seen by alice (g1)', tree: team, skill: 'team', viewer: 'alice', sees: 'by g1' },
  { what: 'a group skill is seen by carol (g1)', tree: team, skill: 'team', viewer: 'carol', sees: 'by g1' },
  { what: 'a group skill is not seen by bob (g2)', tree: team, skill: 'team', viewer: 'bob', sees: null },
  { what: 'a group skill is not seen by dave (g2)', tree: team, skill: 'team', viewer: 'dave', sees: null },
  { what: 'a tenant skill is seen by alice (t1)', tree: org, skill: 'org', viewer: 'alice', sees: 'by t1' },
  { what: 'a tenant skill is seen by bob (t1)', tree: org, skill: 'org', viewer: 'bob', sees: 'by t1' },
  { what: 'a tenant skill is not seen by carol (t2)', tree: org, skill: 'org', viewer: 'carol', sees: null },
  { what: 'a tenant skill is not seen by dave (t2)', tree: org, skill: 'org', viewer: 'dave', sees: null },
  {
    what: "alice writing the group's skill name changes it for alice only",
    tree: team,
    writer: 'alice',
    skill: 'team',
    viewer: 'alice',
    sees: 'by alice',
  },
  {
    what: "alice writing the group's skill name leaves carol the group's",
    tree: team,
    writer: 'alice',
    skill: 'team',
    viewer: 'carol',
    sees: 'by g1',
  },
  {
    what: "carol writing the group's skill name leaves alice the group's",
    tree: team,
    writer: 'carol',
    skill: 'team',
    viewer: 'alice',
    sees: 'by g1',
  },
  {
    what: "bob writing the tenant's skill name leaves alice the tenant's",
    tree: org,
    writer: 'bob',
    skill: 'org',
    viewer: 'alice',
    sees: 'by t1',
  },
];
