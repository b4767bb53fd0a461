import type { Tree } from '../../helpers/workspace.ts';

/**
 * golem's skill tools under `--dialect golem` (ListSkills, ReadSkillFile, WriteSkillFile,
 * DeleteSkill), one case a line: what is on disk first (under the state directory, `ws/` for
 * the workspace, `out/` beside both), the call alice (group g1, tenant t1) makes, and either
 * a pattern the refusal must match or what the result must hold; `after` lists files
 * (relative to the same root) that must then hold exactly this text, or be absent (null).
 */
export interface SkillStoreCase {
  what: string;
  tree?: Tree;
  call: [tool: 'ListSkills' | 'ReadSkillFile' | 'WriteSkillFile' | 'DeleteSkill', args: Record<string, unknown>];
  refused?: RegExp;
  result?: Record<string, unknown>;
  after?: Record<string, string | null>;
}

export const md = (name: string, body = `Use ${name}.`) => `---\nname: ${name}\ndescription: about ${name}\n---\n# ${name}\n\n${body}\n`;
const A = 'users/alice/skills';
const G = 'groups/g1/skills';
const T = 'tenants/t1/skills';
const big = 'x'.repeat(250 * 1024);

export const SKILL_STORE_CASES: SkillStoreCase[] = [
  // WriteSkillFile: names
  { what: 'an empty skill name', call: ['WriteSkillFile', { skill: '', file: 'SKILL.md', content: md('a') }], refused: /skill is empty/ },
  {
    what: 'a skill name ..',
    call: ['WriteSkillFile', { skill: '..', file: 'SKILL.md', content: md('a') }],
    refused: /".." is not a valid skill name/,
  },
  {
    what: 'a skill name with /',
    call: ['WriteSkillFile', { skill: 'a/b', file: 'SKILL.md', content: md('a') }],
    refused: /not a valid skill name/,
  },
  {
    what: 'a skill name /',
    call: ['WriteSkillFile', { skill: '/', file: 'SKILL.md', content: md('a') }],
    refused: /not a valid skill name/,
  },
  {
    what: 'an upper-case skill name',
    call: ['WriteSkillFile', { skill: 'Notes', file: 'SKILL.md', content: md('a') }],
    refused: /not a valid skill name \(lower-case/,
  },
  {
    what: 'a hidden skill name',
    call: ['WriteSkillFile', { skill: '.x', file: 'SKILL.md', content: md('a') }],
    refused: /not a valid skill name/,
  },
  // WriteSkillFile: file paths
  { what: 'an empty file', call: ['WriteSkillFile', { skill: 'a', file: '', content: 'x' }], refused: /file is empty/ },
  { what: 'an absolute file', call: ['WriteSkillFile', { skill: 'a', file: '/etc/passwd', content: 'x' }], refused: /is absolute/ },
  {
    what: 'a file with ..',
    tree: { [`${A}/a/SKILL.md`]: md('a') },
    call: ['WriteSkillFile', { skill: 'a', file: '../b/SKILL.md', content: md('b') }],
    refused: /must stay inside the skill's folder/,
    after: { [`${A}/b/SKILL.md`]: null },
  },
  {
    what: 'a file with .. in the middle',
    tree: { [`${A}/a/SKILL.md`]: md('a') },
    call: ['WriteSkillFile', { skill: 'a', file: 'refs/../../../../x.md', content: 'x' }],
    refused: /must stay inside/,
  },
  {
    what: 'a file with an empty part',
    tree: { [`${A}/a/SKILL.md`]: md('a') },
    call: ['WriteSkillFile', { skill: 'a', file: 'refs//x.md', content: 'x' }],
    refused: /must stay inside/,
  },
  {
    what: 'a hidden file',
    tree: { [`${A}/a/SKILL.md`]: md('a') },
    call: ['WriteSkillFile', { skill: 'a', file: '.env', content: 'x' }],
    refused: /hidden/,
  },
  {
    what: 'a file too deep',
    tree: { [`${A}/a/SKILL.md`]: md('a') },
    call: ['WriteSkillFile', { skill: 'a', file: 'a/b/c/d/e/f.md', content: 'x' }],
    refused: /more than 4 folders deep/,
  },
  // WriteSkillFile: what a skill must be
  {
    what: 'a reference before SKILL.md',
    call: ['WriteSkillFile', { skill: 'a', file: 'refs/x.md', content: 'x' }],
    refused: /does not exist yet: write its SKILL.md first/,
    after: { [`${A}/a`]: null },
  },
  {
    what: 'a SKILL.md without front matter',
    call: ['WriteSkillFile', { skill: 'a', file: 'SKILL.md', content: '# a\n\nsteps\n' }],
    refused: /SKILL.md not written: .*must start with front matter/,
    after: { [`${A}/a/SKILL.md`]: null },
  },
  {
    what: 'a SKILL.md without a description',
    call: ['WriteSkillFile', { skill: 'a', file: 'SKILL.md', content: '---\nname: a\n---\n' }],
    refused: /required: a description/,
  },
  {
    what: 'a SKILL.md naming another skill',
    call: ['WriteSkillFile', { skill: 'a', file: 'SKILL.md', content: md('b') }],
    refused: /says name: b, but the skill is a/,
  },
  {
    what: 'a new skill',
    call: ['WriteSkillFile', { skill: 'a', file: 'SKILL.md', content: md('a') }],
    result: { skill: 'a', file: 'SKILL.md', created: true },
    after: { [`${A}/a/SKILL.md`]: md('a') },
  },
  {
    what: 'a reference of an existing skill',
    tree: { [`${A}/a/SKILL.md`]: md('a') },
    call: ['WriteSkillFile', { skill: 'a', file: 'refs/x.md', content: 'x\n' }],
    result: { created: true, bytes: 2 },
    after: { [`${A}/a/refs/x.md`]: 'x\n' },
  },
  {
    what: 'a replaced file',
    tree: { [`${A}/a/SKILL.md`]: md('a'), [`${A}/a/n.md`]: 'old' },
    call: ['WriteSkillFile', { skill: 'a', file: 'n.md', content: 'new' }],
    result: { created: false },
    after: { [`${A}/a/n.md`]: 'new' },
  },
  // WriteSkillFile: bounds
  {
    what: 'a file over 256 KiB',
    tree: { [`${A}/a/SKILL.md`]: md('a') },
    call: ['WriteSkillFile', { skill: 'a', file: 'n.md', content: 'x'.repeat(256 * 1024 + 1) }],
    refused: /content/,
  },
  {
    what: 'a skill over 1 MiB',
    tree: { [`${A}/a/SKILL.md`]: md('a'), [`${A}/a/1.md`]: big, [`${A}/a/2.md`]: big, [`${A}/a/3.md`]: big, [`${A}/a/4.md`]: big },
    call: ['WriteSkillFile', { skill: 'a', file: '5.md', content: big }],
    refused: /above the 1048576-byte limit for a skill/,
    after: { [`${A}/a/5.md`]: null },
  },
  {
    what: 'a replacement that keeps a skill under 1 MiB',
    tree: { [`${A}/a/SKILL.md`]: md('a'), [`${A}/a/1.md`]: big, [`${A}/a/2.md`]: big, [`${A}/a/3.md`]: big, [`${A}/a/4.md`]: big },
    call: ['WriteSkillFile', { skill: 'a', file: '4.md', content: 'short' }],
    result: { created: false },
  },
  {
    what: 'a 65th file',
    tree: { [`${A}/a/SKILL.md`]: md('a'), ...Object.fromEntries(Array.from({ length: 63 }, (_, i) => [`${A}/a/r/${i}.md`, 'x'])) },
    call: ['WriteSkillFile', { skill: 'a', file: 'r/new.md', content: 'x' }],
    refused: /would hold 65 files, above the limit of 64/,
  },
  {
    what: 'a 201st skill',
    tree: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`${A}/s${i}`, null])),
    call: ['WriteSkillFile', { skill: 'new', file: 'SKILL.md', content: md('new') }],
    refused: /you have 200 skills, the limit/,
  },
  // WriteSkillFile: symlinks planted in the user's own root
  {
    what: 'a skill folder that is a symlink out',
    tree: { 'out/x/SKILL.md': md('a'), [`${A}/a`]: { symlink: '../../../out/x' } },
    call: ['WriteSkillFile', { skill: 'a', file: 'SKILL.md', content: md('a', 'pwned') }],
    refused: /symlink/,
    after: { 'out/x/SKILL.md': md('a') },
  },
  {
    what: 'a subfolder that is a symlink out',
    tree: { 'out/.keep': '', [`${A}/a/SKILL.md`]: md('a'), [`${A}/a/refs`]: { symlink: '../../../../out' } },
    call: ['WriteSkillFile', { skill: 'a', file: 'refs/x.md', content: 'pwned' }],
    refused: /symlink/,
    after: { 'out/x.md': null },
  },
  {
    what: 'a file that is a symlink out',
    tree: { 'out/f': 'mine', [`${A}/a/SKILL.md`]: md('a'), [`${A}/a/n.md`]: { symlink: '../../../../out/f' } },
    call: ['WriteSkillFile', { skill: 'a', file: 'n.md', content: 'pwned' }],
    refused: /symlink/,
    after: { 'out/f': 'mine' },
  },
  {
    what: 'a SKILL.md that is a symlink out',
    tree: { 'out/f': 'mine', [`${A}/a/SKILL.md`]: { symlink: '../../../../out/f' } },
    call: ['WriteSkillFile', { skill: 'a', file: 'SKILL.md', content: md('a') }],
    refused: /symlink/,
    after: { 'out/f': 'mine' },
  },
  {
    what: 'the skills folder itself a symlink out',
    tree: { 'out/.keep': '', [A]: { symlink: '../../out' } },
    call: ['WriteSkillFile', { skill: 'a', file: 'SKILL.md', content: md('a') }],
    refused: /not a folder \(a symlink\?\)/,
    after: { 'out/a': null },
  },
  {
    what: 'a group skill is never written: the user gets their own',
    tree: { [`${G}/team/SKILL.md`]: md('team') },
    call: ['WriteSkillFile', { skill: 'team', file: 'SKILL.md', content: md('team', 'mine') }],
    result: { created: true },
    after: { [`${G}/team/SKILL.md`]: md('team'), [`${A}/team/SKILL.md`]: md('team', 'mine') },
  },
  // DeleteSkill
  {
    what: 'delete with an empty name',
    tree: { [`${A}/a/SKILL.md`]: md('a') },
    call: ['DeleteSkill', { skill: '' }],
    refused: /skill is empty/,
    after: { [`${A}/a/SKILL.md`]: md('a') },
  },
  {
    what: 'delete ..',
    tree: { [`${A}/a/SKILL.md`]: md('a') },
    call: ['DeleteSkill', { skill: '..' }],
    refused: /not a valid skill name/,
    after: { [`${A}/a/SKILL.md`]: md('a') },
  },
  {
    what: 'delete /',
    tree: { [`${A}/a/SKILL.md`]: md('a') },
    call: ['DeleteSkill', { skill: '/' }],
    refused: /not a valid skill name/,
    after: { [`${A}/a/SKILL.md`]: md('a') },
  },
  { what: 'delete .', tree: { [`${A}/a/SKILL.md`]: md('a') }, call: ['DeleteSkill', { skill: '.' }], refused: /not a valid skill name/ },
  { what: 'delete *', tree: { [`${A}/a/SKILL.md`]: md('a') }, call: ['DeleteSkill', { skill: '*' }], refused: /not a valid skill name/ },
  {
    what: 'delete a path',
    tree: { [`${A}/a/SKILL.md`]: md('a') },
    call: ['DeleteSkill', { skill: 'a/refs' }],
    refused: /not a valid skill name/,
  },
  {
    what: 'delete a group skill',
    tree: { [`${G}/team/SKILL.md`]: md('team') },
    call: ['DeleteSkill', { skill: 'team' }],
    refused: /your group’s \(shared, read-only\); only your own/,
    after: { [`${G}/team/SKILL.md`]: md('team') },
  },
  {
    what: 'delete a tenant skill',
    tree: { [`${T}/org/SKILL.md`]: md('org') },
    call: ['DeleteSkill', { skill: 'org' }],
    refused: /your tenant’s/,
    after: { [`${T}/org/SKILL.md`]: md('org') },
  },
  {
    what: 'delete a workspace skill',
    tree: { 'ws/.agents/skills/proj/SKILL.md': md('proj') },
    call: ['DeleteSkill', { skill: 'proj' }],
    refused: /the workspace’s .agents\/skills/,
    after: { 'ws/.agents/skills/proj/SKILL.md': md('proj') },
  },
  {
    what: 'delete an unknown skill',
    tree: { [`${A}/a/SKILL.md`]: md('a') },
    call: ['DeleteSkill', { skill: 'b' }],
    refused: /you have no skill named b; yours: a/,
  },
  {
    what: 'delete an own skill',
    tree: { [`${A}/a/SKILL.md`]: md('a'), [`${A}/a/r/x.md`]: 'x', [`${A}/b/SKILL.md`]: md('b') },
    call: ['DeleteSkill', { skill: 'a' }],
    result: { skill: 'a', deleted: true, files: 2 },
    after: { [`${A}/a`]: null, [`${A}/b/SKILL.md`]: md('b') },
  },
  {
    what: 'delete a skill that is a symlink out: the link only',
    tree: { 'out/x/SKILL.md': md('a'), [`${A}/a`]: { symlink: '../../../out/x' } },
    call: ['DeleteSkill', { skill: 'a' }],
    result: { deleted: true, files: 0 },
    after: { [`${A}/a`]: null, 'out/x/SKILL.md': md('a') },
  },
  {
    what: 'delete a skill holding a symlink out: the link only',
    tree: { 'out/f': 'mine', [`${A}/a/SKILL.md`]: md('a'), [`${A}/a/l`]: { symlink: '../../../../out' } },
    call: ['DeleteSkill', { skill: 'a' }],
    result: { deleted: true },
    after: { [`${A}/a`]: null, 'out/f': 'mine' },
  },
  {
    what: 'delete a skill whose folder has another name',
    tree: { [`${A}/folder/SKILL.md`]: md('named') },
    call: ['DeleteSkill', { skill: 'named' }],
    refused: /is in your folder folder; name the skill by its folder's name/,
    after: { [`${A}/folder/SKILL.md`]: md('named') },
  },
  // ReadSkillFile
  {
    what: 'read SKILL.md',
    tree: { [`${A}/a/SKILL.md`]: md('a') },
    call: ['ReadSkillFile', { skill: 'a', file: 'SKILL.md' }],
    result: { content: md('a') },
  },
  {
    what: 'read a reference',
    tree: { [`${A}/a/SKILL.md`]: md('a'), [`${A}/a/r/x.md`]: 'ref' },
    call: ['ReadSkillFile', { skill: 'a', file: 'r/x.md' }],
    result: { content: 'ref' },
  },
  {
    what: 'read with ..',
    tree: { 'out/f': 'secret', [`${A}/a/SKILL.md`]: md('a') },
    call: ['ReadSkillFile', { skill: 'a', file: '../../../../out/f' }],
    refused: /has no file/,
  },
  {
    what: 'read an absolute file',
    tree: { [`${A}/a/SKILL.md`]: md('a') },
    call: ['ReadSkillFile', { skill: 'a', file: '/etc/passwd' }],
    refused: /has no file/,
  },
  {
    what: 'read a reference that is a symlink out',
    tree: { 'out/f': 'secret', [`${A}/a/SKILL.md`]: md('a'), [`${A}/a/l.md`]: { symlink: '../../../../out/f' } },
    call: ['ReadSkillFile', { skill: 'a', file: 'l.md' }],
    refused: /has no file/,
  },
  {
    what: 'read a skill folder that is a symlink out',
    tree: { 'out/x/SKILL.md': md('a'), [`${A}/a`]: { symlink: '../../../out/x' } },
    call: ['ReadSkillFile', { skill: 'a', file: 'SKILL.md' }],
    refused: /no skill named "a"/,
  },
  {
    what: 'read a SKILL.md that is a symlink out',
    tree: { 'out/f': md('a'), [`${G}/a/SKILL.md`]: { symlink: '../../../../out/f' } },
    call: ['ReadSkillFile', { skill: 'a', file: 'SKILL.md' }],
    refused: /no skill named "a"/,
  },
  {
    what: 'read an empty skill name',
    call: ['ReadSkillFile', { skill: '', file: 'SKILL.md' }],
    refused: /ReadSkillFile: invalid arguments: skill/,
  },
  {
    what: 'read an unknown skill',
    tree: { [`${A}/a/SKILL.md`]: md('a') },
    call: ['ReadSkillFile', { skill: 'b', file: 'SKILL.md' }],
    refused: /no skill named "b"; installed: a/,
  },
  // Roots: order, shadowing, leniency
  {
    what: 'roots in order: user, group, tenant, workspace, recipe',
    tree: {
      [`${A}/u/SKILL.md`]: md('u'),
      [`${G}/g/SKILL.md`]: md('g'),
      [`${T}/t/SKILL.md`]: md('t'),
      'ws/.agents/skills/w/SKILL.md': md('w'),
      'recipe-skills/r/SKILL.md': md('r'),
    },
    call: ['ListSkills', {}],
    result: { skills: ['u', 'g', 't', 'w', 'r'].map((n) => ({ name: n, description: `Use ${n}.` })) },
  },
  {
    what: "the user's skill shadows the group's",
    tree: { [`${A}/s/SKILL.md`]: md('s', 'mine'), [`${G}/s/SKILL.md`]: md('s', 'group') },
    call: ['ReadSkillFile', { skill: 's', file: 'SKILL.md' }],
    result: { content: md('s', 'mine') },
  },
  {
    what: "the group's skill shadows the recipe's",
    tree: { [`${G}/s/SKILL.md`]: md('s', 'group'), 'recipe-skills/s/SKILL.md': md('s', 'recipe') },
    call: ['ListSkills', {}],
    result: { skills: [{ name: 's', description: 'group' }] },
  },
  {
    what: "a malformed SKILL.md of the user's is skipped",
    tree: { [`${A}/bad/SKILL.md`]: '# no front matter\n', [`${A}/ok/SKILL.md`]: md('ok') },
    call: ['ListSkills', {}],
    result: { skills: [{ name: 'ok', description: 'Use ok.' }] },
  },
  {
    what: "a malformed SKILL.md of the group's is skipped",
    tree: { [`${G}/bad/SKILL.md`]: '---\nname: Bad\ndescription: d\n---\n' },
    call: ['ListSkills', {}],
    result: { skills: [] },
  },
  {
    what: 'the description falls back to the front matter',
    tree: { [`${A}/a/SKILL.md`]: '---\nname: a\ndescription: only here\n---\n# a\n' },
    call: ['ListSkills', {}],
    result: { skills: [{ name: 'a', description: 'only here' }] },
  },
  {
    what: 'a skill written is listed in the same session',
    call: ['WriteSkillFile', { skill: 'fresh', file: 'SKILL.md', content: md('fresh') }],
    result: { created: true },
    after: { [`${A}/fresh/SKILL.md`]: md('fresh') },
  },
];
