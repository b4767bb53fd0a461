import { readFile, lstat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { principal } from '../../../src/core/principal.ts';
import { setup, tempDir, writeTree } from '../../helpers/workspace.ts';
import { SKILL_STORE_CASES } from './skill-store.cases.ts';

/** The runner of skill-store.cases.ts: a state directory holding alice's home, her group's and tenant's skills, a workspace and a recipe's skills. */
describe('golem skill tools (skill-store.cases.ts)', () => {
  for (const c of SKILL_STORE_CASES) {
    it(c.what, async () => {
      const root = await tempDir('core-agent-skills-');
      await writeTree(root, { 'ws/.keep': '', ...c.tree });
      const rt = await setup({
        workspace: path.join(root, 'ws'),
        stateDir: root,
        principal: principal('alice', { group: 'g1', tenant: 't1' }),
        recipe: `skills:\n  dirs: [${JSON.stringify(path.join(root, 'recipe-skills'))}]\n`,
        flags: { dialect: 'golem', mode: 'yolo' },
      });
      const r = await rt.dispatcher.call(c.call[0], c.call[1]);
      if (c.refused) {
        expect(r.ok ? JSON.stringify(r.result) : r.error).toMatch(c.refused);
        expect(r.ok).toBe(false);
      } else {
        expect(r.ok ? r.result : r.error).toMatchObject(c.result ?? {});
      }
      for (const [rel, want] of Object.entries(c.after ?? {})) {
        const at = path.join(root, rel);
        if (want === null) await expect(lstat(at), rel).rejects.toThrow(/ENOENT/);
        else expect(await readFile(at, 'utf8'), rel).toBe(want);
      }
    });
  }
});
