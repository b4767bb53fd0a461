import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Prompter } from '../../src/permissions/gate.ts';
import { snapshot } from '../helpers/tree-snapshot.ts';
// Every dialect's tools: the matrix tries each tool that touches a path or the network.
import { setupEvery as setup, writeTree } from '../helpers/workspace.ts';
import { editCalls, VCS_PATHS, VCS_TREE } from './vcs-edits.cases.ts';

/** Put the workspace back as VCS_TREE has it, whatever the last call changed. */
async function reset(dir: string): Promise<void> {
  for (const entry of ['moved-out.txt', ...VCS_PATHS.map((p) => p.fresh.replace('{ws}', dir))]) {
    await rm(entry.startsWith('/') ? entry : `${dir}/${entry}`, { force: true });
  }
  for (const [rel, content] of Object.entries(VCS_TREE)) {
    if (typeof content !== 'string') continue;
    await rm(`${dir}/${rel}`, { force: true });
    await writeTree(dir, { [rel]: content });
  }
}

describe('accept-edits does not cover .git and .jj: headless, the edit is refused', () => {
  it.each(VCS_PATHS)('$path ($why): vcs $vcs', async ({ path: spelled, fresh: freshSpelled, vcs }) => {
    const rt = await setup({ tree: VCS_TREE, flags: { mode: 'accept-edits' } });
    const p = spelled.replace('{ws}', rt.dir);
    const fresh = freshSpelled.replace('{ws}', rt.dir);
    for (const [label, tool, args] of editCalls(p, fresh)) {
      await reset(rt.dir);
      const before = await snapshot(rt.dir);
      const r = await rt.dispatcher.call(tool, args);
      if (vcs) {
        expect(r.ok ? `${label}: ran` : r.error, label).toMatch(/is under a \.git or \.jj directory, whose hooks and config are commands/);
        expect(await snapshot(rt.dir), label).toEqual(before);
      } else {
        expect(r.ok ? 'ran' : `${label}: ${r.error}`).toBe('ran');
      }
    }
  });
});

describe('with a terminal, an edit under .git asks', () => {
  function recording(answer: 'once' | 'session' | 'deny') {
    const asked: string[] = [];
    const prompter: Prompter = {
      async ask(req) {
        asked.push(`${req.tool} ${req.subjects.map((s) => s.forms[0]).join(',')}`);
        return answer;
      },
    };
    return { asked, prompter };
  }

  it('accept-edits: .git/config asks and is written once approved; a plain file does not ask', async () => {
    const { asked, prompter } = recording('once');
    const rt = await setup({ tree: VCS_TREE, flags: { mode: 'accept-edits' }, prompter });
    await rt.ok('write_file', { path: 'plain.txt', content: 'new\n' });
    expect(asked).toEqual([]);
    await rt.ok('apply_patch', {
      patch:
        '*** Begin Patch\n*** Update File: .git/hooks/pre-commit.sample\n*** Move to: .git/hooks/post-checkout\n@@\n-old\n+new\n*** End Patch',
    });
    expect(asked).toEqual(['apply_patch .git/hooks/pre-commit.sample,.git/hooks/post-checkout']);
  });

  it('ask mode: a session grant for the whole tool does not cover .git; a grant for the path does', async () => {
    const { asked, prompter } = recording('session');
    const rt = await setup({ tree: VCS_TREE, flags: { mode: 'ask' }, prompter });
    await rt.ok('write_file', { path: 'plain.txt', content: 'new\n' }); // asked: the grant for write_file
    await rt.ok('write_file', { path: 'git/config', content: 'new\n' }); // covered by it
    expect(asked).toHaveLength(1);
    await rt.ok('write_file', { path: '.git/config', content: 'new\n' }); // asked again
    expect(asked).toEqual(['write_file plain.txt', 'write_file .git/config']);
    rt.gate.grantSession('write_file', '.git/info/exclude');
    await rt.ok('write_file', { path: '.git/info/exclude', content: 'x\n' });
    expect(asked).toHaveLength(2);
  });

  it('an allow rule naming the path lets it through in accept-edits', async () => {
    const rt = await setup({
      tree: VCS_TREE,
      flags: { mode: 'accept-edits' },
      recipe: 'permissions:\n  allow: ["tool.write_file:.git/info/exclude"]\n',
    });
    await rt.ok('write_file', { path: '.git/info/exclude', content: 'x\n' });
    expect(await rt.refused('write_file', { path: '.git/config', content: 'x\n' })).toMatch(/use --yolo\.$/);
  });
});
