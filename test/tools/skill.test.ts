import { rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { setup, tempDir, writeTree } from '../helpers/workspace.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SKILL = '---\nname: disk-full\ndescription: What to do when a disk fills up.\n---\n# disk-full\nRead references/logs.md.\n';

describe('skills', () => {
  it('lists installed skills in the skill tool’s description and reads SKILL.md and its references', async () => {
    const rt = await setup({
      tree: { '.agents/skills/disk-full/SKILL.md': SKILL, '.agents/skills/disk-full/references/logs.md': 'rotate them\n' },
    });
    expect(rt.catalog.get('skill')!.description).toContain('- `disk-full`: What to do when a disk fills up.');
    expect(await rt.ok('skill', { name: 'disk-full' })).toEqual({
      skill: 'disk-full',
      file: 'SKILL.md',
      content: SKILL,
      files: ['references/logs.md'],
    });
    expect(await rt.ok('skill', { name: 'disk-full', file: 'references/logs.md' })).toMatchObject({ content: 'rotate them\n' });
    expect(await rt.refused('skill', { name: 'disk-ful' })).toMatch(/no skill named "disk-ful"; installed: disk-full/);
    expect(await rt.refused('skill', { name: 'disk-full', file: '../../../etc/passwd' })).toMatch(/has no file/);
  });

  it('refuses a reference that is a symlink out of the skill', async () => {
    const rt0 = await tempDir();
    await writeTree(rt0, { 'secret.txt': 'no', '.agents/skills/s/SKILL.md': SKILL.replace('disk-full', 's') });
    await symlink(path.join(rt0, 'secret.txt'), path.join(rt0, '.agents/skills/s/leak.md'));
    const rt = await setup({ workspace: rt0 });
    expect(await rt.refused('skill', { name: 's', file: 'leak.md' })).toMatch(/has no file|outside the skill/);
  });

  it('a SKILL.md symlinked out of its skill stops the run; one linked within the skill is used', async () => {
    const ws = await tempDir();
    await writeTree(ws, {
      'outside.md': SKILL.replace('disk-full', 'leak'),
      '.agents/skills/s/README.md': SKILL.replace('disk-full', 's'),
    });
    await symlink(path.join(ws, 'outside.md'), path.join(ws, '.agents/skills/s/SKILL.md'));
    await expect(setup({ workspace: ws })).rejects.toThrow(/SKILL\.md is a symlink to .*outside\.md, outside the skill's directory/);
    await rm(path.join(ws, '.agents/skills/s/SKILL.md'));
    await symlink('README.md', path.join(ws, '.agents/skills/s/SKILL.md'));
    const rt = await setup({ workspace: ws });
    expect(rt.catalog.get('skill')!.description).toContain('- `s`: What to do when a disk fills up.');
    expect((await rt.ok('skill', { name: 's' })).content).toBe(SKILL.replace('disk-full', 's'));
  });

  it('path_scope.deny hides a skill’s files from the listing and the tool, inside the workspace and out', async () => {
    const extra = await tempDir('core-agent-skills-');
    await writeTree(extra, {
      'certs/SKILL.md': SKILL.replace('disk-full', 'certs'),
      'certs/key.pem': 'PRIVATE',
      'certs/how.md': 'rotate\n',
    });
    const rt = await setup({
      tree: {
        '.agents/skills/disk-full/SKILL.md': SKILL,
        '.agents/skills/disk-full/references/logs.md': 'rotate them\n',
        '.agents/skills/disk-full/references/server.pem': 'PRIVATE',
        '.agents/skills/hidden/SKILL.md': SKILL.replace('disk-full', 'hidden'),
      },
      recipe: `skills:\n  dirs: [${JSON.stringify(extra)}]\npermissions:\n  path_scope:\n    deny: ["**/*.pem", ".agents/skills/hidden/**"]\n`,
    });
    const desc = rt.catalog.get('skill')!.description as string;
    expect(desc).toContain('`disk-full`');
    expect(desc).toContain('`certs`');
    expect(desc).not.toContain('hidden'); // its SKILL.md is denied: the skill is not offered
    expect((await rt.ok('skill', { name: 'disk-full' })).files).toEqual(['references/logs.md']);
    expect((await rt.ok('skill', { name: 'certs' })).files).toEqual(['how.md']);
    for (const [name, file] of [
      ['disk-full', 'references/server.pem'],
      ['certs', 'key.pem'],
    ]) {
      const err = await rt.refused('skill', { name, file });
      expect(err).toMatch(/has no file/);
      expect(err).not.toContain('PRIVATE');
    }
  });

  it('a listed reference swapped for a symlink after start-up is refused, not followed', async () => {
    const rt = await setup({
      tree: {
        'secret.txt': 'secret\n',
        '.agents/skills/disk-full/SKILL.md': SKILL,
        '.agents/skills/disk-full/references/logs.md': 'rotate\n',
      },
    });
    const ref = path.join(rt.dir, '.agents/skills/disk-full/references/logs.md');
    await rm(ref);
    await symlink(path.join(rt.dir, 'secret.txt'), ref);
    const err = await rt.refused('skill', { name: 'disk-full', file: 'references/logs.md' });
    // The skills are read afresh at each call (a skill written in this session is served): the
    // link is then not among the skill's files at all; between that read and the open, the open refuses it.
    expect(err).toMatch(/has no file "references\/logs\.md"|became a symlink after the permission check/);
    expect(err).not.toContain('secret\n');
  });

  it('is not registered without skills; a broken SKILL.md stops the run with FILE:LINE:COL', async () => {
    expect((await setup()).catalog.has('skill')).toBe(false);
    await expect(setup({ tree: { '.agents/skills/x/SKILL.md': '# no front matter\n' } })).rejects.toThrow(
      /SKILL\.md must start with front matter/,
    );
    await expect(setup({ tree: { '.agents/skills/x/SKILL.md': '---\nname: Bad Name\ndescription: d\n---\n' } })).rejects.toThrow(
      /x\/SKILL\.md:2:7: name: lower-case letters, digits and -/,
    );
  });

  it('ships k8s-triage with a reference for every reason it routes to', async () => {
    const rt = await setup({ recipe: `skills:\n  dirs: [${JSON.stringify(path.join(root, 'skills'))}]\n` });
    const skill = await rt.ok('skill', { name: 'k8s-triage' });
    const files = skill.files as string[];
    for (const reason of [
      'crashloopbackoff',
      'imagepullbackoff',
      'oomkilled',
      'failedscheduling',
      'failedmount',
      'unhealthy',
      'evicted',
      'nodenotready',
    ]) {
      expect(files).toContain(`references/${reason}.md`);
      expect(String(skill.content)).toContain(`references/${reason}.md`);
      const ref = String((await rt.ok('skill', { name: 'k8s-triage', file: `references/${reason}.md` })).content);
      // Every path ends in a convergence check and one of the two outcomes.
      expect(ref).toContain('wait_and_verify');
      expect(ref).toMatch(/RESOLVED only on\s+`verified: true`/);
      expect(ref).toContain('UNRESOLVED');
    }
  });
});

describe('the shipped recipes', () => {
  it('all validate', async () => {
    // The incident recipes require a cluster, MCP servers and an alert target: validate looks for none of them.
    const home = await tempDir();
    for (const r of ['k8s-incident.yaml', 'gke-incident.yaml', 'k8s-remediate.yaml']) {
      // Run from the repository (its .agents/skills), with a HOME of its own: the code cache goes there.
      const out = await runCli(['recipe', 'validate', path.join(root, 'recipes', r)], root, { HOME: home });
      expect(out.stderr, r).toBe('');
      expect(out.code, r).toBe(0);
      expect(out.stdout).toContain('skill');
      expect(out.stdout).not.toMatch(/\bbash\b|write_file|edit_file|delete_file/);
    }
  });
});
