import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { principal } from '../../../src/core/principal.ts';
import { setup, tempDir, writeTree } from '../../helpers/workspace.ts';
import { md } from './skill-store.cases.ts';
import { PRINCIPAL_CASES, PRINCIPALS, type Who } from './skill-principals.cases.ts';

/** The runner of skill-principals.cases.ts: each session a runtime of its own over one state directory, as `run` builds one per user. */
describe('skills between principals (skill-principals.cases.ts)', () => {
  for (const c of PRINCIPAL_CASES) {
    it(c.what, async () => {
      const state = await tempDir('core-agent-skills-');
      const ws = await tempDir();
      if (c.tree) await writeTree(state, c.tree);
      const session = (who: Who, dialect: 'golem' | 'core-agent') =>
        setup({ workspace: ws, stateDir: state, principal: principal(who, PRINCIPALS[who]), flags: { dialect, mode: 'yolo' } });
      const groupBefore = c.tree ? await snapshot(state, c.tree) : {};
      if (c.writer) {
        const w = await session(c.writer, 'golem');
        await w.ok('WriteSkillFile', { skill: c.skill, file: 'SKILL.md', content: md(c.skill, `by ${c.writer}`) });
      }
      // Nobody's write reaches a group's or tenant's folder.
      expect(await snapshot(state, c.tree ?? {})).toEqual(groupBefore);
      const v = await session(c.viewer, 'core-agent');
      const listed = ((await v.ok('list_skills', {})).skills as Array<{ name: string }>).map((s) => s.name);
      const offered = v.catalog.get('skill')!.description;
      if (c.sees === null) {
        expect(listed).not.toContain(c.skill);
        expect(offered).not.toContain(`\`${c.skill}\``);
        expect(await v.refused('skill', { name: c.skill })).toMatch(/no skill named/);
      } else {
        expect(listed).toContain(c.skill);
        expect(offered).toContain(`- \`${c.skill}\`: about ${c.skill}`);
        expect((await v.ok('skill', { name: c.skill })).content).toBe(md(c.skill, c.sees));
      }
    });
  }
});

async function snapshot(root: string, tree: Record<string, unknown>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const rel of Object.keys(tree)) out[rel] = await readFile(path.join(root, rel), 'utf8');
  return out;
}
