import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { principal } from '../../../src/core/principal.ts';
import { silentLogger, type Logger } from '../../../src/log.ts';
import { runCli } from '../../helpers/cli.ts';
import { setup, setupIn, tempDir, writeTree } from '../../helpers/workspace.ts';
import { md } from './skill-store.cases.ts';

const alice = principal('alice', { group: 'g1', tenant: 't1' });

describe('skills at start-up', () => {
  it("skips a malformed SKILL.md of the user's, naming the file, and starts", async () => {
    const state = await tempDir('core-agent-skills-');
    await writeTree(state, {
      'users/alice/skills/bad/SKILL.md': '# no front matter\n',
      'groups/g1/skills/worse/SKILL.md': '---\nname: Worse\ndescription: d\n---\n',
      'users/alice/skills/ok/SKILL.md': md('ok'),
    });
    const warned: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (_o: unknown, msg?: string) => void warned.push(String(msg ?? _o)) };
    const rt = await setup({ stateDir: state, principal: alice, logger });
    expect(rt.catalog.get('skill')!.description).toContain('- `ok`: about ok');
    expect(rt.catalog.get('skill')!.description).not.toMatch(/`bad`|`worse`/);
    expect(warned.join('\n')).toContain(path.join(state, 'users/alice/skills/bad'));
    expect(warned.join('\n')).toMatch(/must start with front matter/);
    expect(warned.join('\n')).toContain(path.join(state, 'groups/g1/skills/worse'));
  });

  it('still stops on a malformed SKILL.md in the workspace or the recipe', async () => {
    const state = await tempDir('core-agent-skills-');
    await expect(
      setup({ stateDir: state, principal: alice, tree: { '.agents/skills/x/SKILL.md': '# no front matter\n' } }),
    ).rejects.toThrow(/SKILL\.md must start with front matter/);
    const extra = await tempDir();
    await writeTree(extra, { 'y/SKILL.md': '---\nname: Bad Name\ndescription: d\n---\n' });
    await expect(setup({ stateDir: state, principal: alice, recipe: `skills:\n  dirs: [${JSON.stringify(extra)}]\n` })).rejects.toThrow(
      /y\/SKILL\.md:2:7: name: lower-case letters/,
    );
  });

  it('still refuses two workspace and recipe skills of one name, but a user skill shadows either', async () => {
    const state = await tempDir('core-agent-skills-');
    const extra = await tempDir();
    await writeTree(extra, { 's/SKILL.md': md('s', 'recipe') });
    const recipe = `skills:\n  dirs: [${JSON.stringify(extra)}]\n`;
    await expect(setup({ stateDir: state, principal: alice, recipe, tree: { '.agents/skills/s/SKILL.md': md('s') } })).rejects.toThrow(
      /a skill named "s" is already loaded/,
    );
    await writeTree(state, { 'users/alice/skills/s/SKILL.md': md('s', 'mine') });
    const rt = await setup({ stateDir: state, principal: alice, recipe });
    expect((await rt.ok('skill', { name: 's' })).content).toBe(md('s', 'mine'));
  });

  it('offers the four golem names under golem, and one tool a job under core-agent and cagent', async () => {
    const state = await tempDir('core-agent-skills-');
    const names = (rt: Awaited<ReturnType<typeof setup>>) =>
      rt.catalog
        .list()
        .map((t) => t.modelName)
        .filter((n) => /skill/i.test(n))
        .sort();
    expect(names(await setupIn('golem')({ stateDir: state, principal: alice }))).toEqual([
      'DeleteSkill',
      'ListSkills',
      'ReadSkillFile',
      'WriteSkillFile',
    ]);
    for (const d of ['core-agent', 'cagent'] as const)
      expect(names(await setupIn(d)({ stateDir: state, principal: alice }))).toEqual([
        'delete_skill',
        'list_skills',
        'skill',
        'write_skill_file',
      ]);
    // Without a home of its own (no state directory) nothing can be written: the writers are left out, saying why.
    const bare = await setupIn('golem')({ tree: { '.agents/skills/w/SKILL.md': md('w') } });
    expect(names(bare)).toEqual(['ListSkills', 'ReadSkillFile']);
  });

  it('leaves the writers out of a read-only recipe', async () => {
    const state = await tempDir('core-agent-skills-');
    const rt = await setup({ stateDir: state, principal: alice, recipe: 'tools:\n  kinds: [read]\n' });
    expect(rt.catalog.has('list_skills')).toBe(true);
    expect(rt.catalog.has('write_skill_file')).toBe(false);
    expect(rt.catalog.has('delete_skill')).toBe(false);
  });
});

describe('the built CLI, one process a session', () => {
  it('a skill WriteSkillFile writes (golem names) is offered by skill in the next process, to that user only', async () => {
    const ws = await tempDir();
    const env = (user: string) => ({ XDG_STATE_HOME: path.join(ws, 'state'), CORE_AGENT_USER: user });
    const call = (user: string, args: string[]) => runCli(['tools', 'call', ...args], ws, env(user));
    const wrote = await call('alice', [
      '--dialect',
      'golem',
      '--mode',
      'yolo',
      'WriteSkillFile',
      JSON.stringify({ skill: 'notes', file: 'SKILL.md', content: md('notes') }),
    ]);
    expect(wrote.stderr).toBe('');
    expect(JSON.parse(wrote.stdout)).toMatchObject({ skill: 'notes', file: 'SKILL.md', created: true });
    const golemRead = await call('alice', ['--dialect', 'golem', 'ReadSkillFile', JSON.stringify({ skill: 'notes', file: 'SKILL.md' })]);
    expect(JSON.parse(golemRead.stdout)).toEqual({ content: md('notes') });
    const read = await call('alice', ['skill', JSON.stringify({ name: 'notes' })]);
    expect(JSON.parse(read.stdout)).toMatchObject({ skill: 'notes', content: md('notes') });
    const bob = await call('bob', ['list_skills', '{}']);
    expect(JSON.parse(bob.stdout)).toEqual({ skills: [] });
    const wrongName = await call('alice', ['--dialect', 'golem', 'DeleteSkill', JSON.stringify({ name: 'notes' })]);
    expect(JSON.parse(wrongName.stdout).error).toMatch(/DeleteSkill: invalid arguments: .*"name".*\(valid: skill\)/);
  });
});
