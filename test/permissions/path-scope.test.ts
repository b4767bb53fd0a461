import { mkdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PathScope } from '../../src/permissions/path-scope.ts';
import { resolvePath } from '../../src/permissions/resolve-path.ts';
import { fileTools } from '../helpers/file-tools.ts';
// Every dialect's tools: the matrix tries each tool that touches a path or the network.
import { setupEvery as setup, tempDir } from '../helpers/workspace.ts';

async function outsideDir(): Promise<string> {
  const dir = await tempDir('core-agent-outside-');
  await writeFile(path.join(dir, 'secret.txt'), 'secret\n');
  await mkdir(path.join(dir, 'sub'));
  await writeFile(path.join(dir, 'sub', 'secret.txt'), 'secret\n');
  return dir;
}

describe('path_scope escapes are refused for every file tool, in yolo mode too', () => {
  // The escape forms themselves, for every file tool: path-escapes.cases.ts.

  it('delete_file on a link to outside removes only the link (the link is inside)', async () => {
    const outside = await outsideDir();
    const rt = await setup({ flags: { mode: 'yolo' } });
    await symlink(path.join(outside, 'secret.txt'), path.join(rt.dir, 'link-file'));
    await symlink(outside, path.join(rt.dir, 'link-dir'));
    await symlink(path.join(outside, 'none'), path.join(rt.dir, 'dangling'));
    for (const link of ['link-file', 'link-dir', 'dangling']) {
      expect(await rt.ok('delete_file', { path: link })).toMatchObject({
        deleted: true,
        note: 'removed the symlink; its target is untouched',
      });
    }
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret\n');
    expect(await readFile(path.join(outside, 'sub', 'secret.txt'), 'utf8')).toBe('secret\n');
    // …but a path *through* a link to outside is outside.
    await symlink(outside, path.join(rt.dir, 'link-dir'));
    expect(await rt.refused('delete_file', { path: 'link-dir/secret.txt' })).toMatch(/outside path_scope/);
  });

  it('the refusal names path_scope and what the path resolved to', async () => {
    const outside = await outsideDir();
    const rt = await setup();
    await symlink(path.join(outside, 'secret.txt'), path.join(rt.dir, 'link'));
    const err = await rt.refused('read_file', { path: 'link' });
    expect(err).toBe(
      `read_file: permission denied: link (resolved to ${path.join(outside, 'secret.txt')}) is outside path_scope ` +
        `(allowed: .; relative entries are under ${rt.dir}). To grant it, add the path to permissions.path_scope.allow in the recipe.`,
    );
  });

  it('a symlink loop is refused, not followed forever', async () => {
    const rt = await setup({ flags: { mode: 'yolo' } });
    await symlink('loop-b', path.join(rt.dir, 'loop-a'));
    await symlink('loop-a', path.join(rt.dir, 'loop-b'));
    for (const [tool, args] of fileTools('loop-a')) {
      if (tool === 'delete_file') continue; // removes the link itself, which is fine
      expect(await rt.refused(tool, args)).toMatch(/symlink loop/);
    }
  });

  it('a directory swapped for a symlink after the check is caught at open', async () => {
    const outside = await outsideDir();
    let swap = false;
    const rt = await setup({
      tree: { 'dir/secret.txt': 'inside\n' },
      flags: { mode: 'yolo' },
      async afterGate() {
        if (!swap) return;
        await rename(path.join(rt.dir, 'dir'), path.join(rt.dir, 'dir-old'));
        await symlink(path.join(outside, 'sub'), path.join(rt.dir, 'dir'));
      },
    });
    const reset = async () => {
      const { rm } = await import('node:fs/promises');
      await rm(path.join(rt.dir, 'dir'), { force: true });
      await rename(path.join(rt.dir, 'dir-old'), path.join(rt.dir, 'dir'));
    };
    for (const [tool, args] of [
      ['read_file', { path: 'dir/secret.txt' }],
      ['edit_file', { path: 'dir/secret.txt', old_string: 'secret', new_string: 'pwned' }],
      ['json_query', { expression: '.', path: 'dir/secret.txt' }],
      ['list_dir', { path: 'dir' }],
    ] as const) {
      swap = true;
      const err = await rt.refused(tool, args);
      swap = false;
      expect(err, tool).toMatch(/after the permission check/);
      await reset();
    }
    swap = true;
    const many = await rt.ok('read_many_files', { paths: ['dir/secret.txt'] });
    swap = false;
    expect(JSON.stringify(many)).not.toContain('secret\\n');
    expect(await readFile(path.join(outside, 'sub', 'secret.txt'), 'utf8')).toBe('secret\n');
  });

  it('path_scope.allow extends access; path_scope.deny carves out of it', async () => {
    const outside = await outsideDir();
    const rt = await setup({
      tree: { 'src/a.ts': 'a', '.env': 'KEY=1', 'certs/x.pem': 'p' },
      recipe: `permissions:\n  path_scope:\n    allow: [".", "${outside}"]\n    deny: [".env", "**/*.pem"]\n`,
    });
    expect((await rt.ok('read_file', { path: path.join(outside, 'secret.txt') })).content).toBe('secret\n');
    expect(await rt.refused('read_file', { path: '.env' })).toMatch(/path_scope.deny entry ".env"/);
    expect(await rt.refused('read_file', { path: 'certs/x.pem' })).toMatch(/path_scope.deny entry "\*\*\/\*.pem"/);
    await rt.ok('read_file', { path: 'src/a.ts' });
    // A `**/` deny glob is not narrower than it reads: it covers the extra root outside the workspace too.
    await writeFile(path.join(outside, 'sub', 'key.pem'), 'p');
    expect(await rt.refused('read_file', { path: path.join(outside, 'sub', 'key.pem') })).toMatch(/path_scope.deny entry "\*\*\/\*.pem"/);
    expect((await rt.ok('list_dir', { path: path.join(outside, 'sub') })).entries).not.toContainEqual(
      expect.objectContaining({ name: 'key.pem' }),
    );
  });

  it('a narrowed allow list keeps the rest of the workspace out', async () => {
    const rt = await setup({ tree: { 'src/a.ts': 'a', 'other/b.ts': 'b' }, recipe: 'permissions:\n  path_scope:\n    allow: ["src"]\n' });
    await rt.ok('read_file', { path: 'src/a.ts' });
    expect(await rt.refused('read_file', { path: 'other/b.ts' })).toMatch(/outside path_scope \(allowed: src/);
  });
});

describe('resolvePath', () => {
  it('applies .. to the physical directory after following a link', async () => {
    const base = await tempDir();
    await mkdir(path.join(base, 'a/b'), { recursive: true });
    await symlink(path.join(base, 'a/b'), path.join(base, 'l'));
    expect((await resolvePath('l/../x', base)).real).toBe(path.join(base, 'a/x'));
    expect((await resolvePath('l/new/file', base)).real).toBe(path.join(base, 'a/b/new/file'));
    expect((await resolvePath('l', base, { followFinal: false })).real).toBe(path.join(base, 'l'));
  });

  it('refuses empty and NUL paths and a file used as a directory', async () => {
    const base = await tempDir();
    await writeFile(path.join(base, 'f'), '');
    await expect(resolvePath('', base)).rejects.toThrow(/empty/);
    await expect(resolvePath('a\0b', base)).rejects.toThrow(/NUL/);
    await expect(resolvePath('f/x', base)).rejects.toThrow(/not a directory/);
  });

  it('expands ~ only to the home it is given; without one it refuses rather than guesses', async () => {
    const base = await tempDir();
    const home = await tempDir('core-agent-home-');
    expect((await resolvePath('~/x', base, { home })).real).toBe(path.join(home, 'x'));
    expect((await resolvePath('~', base, { home })).real).toBe(home);
    await expect(resolvePath('~/x', base)).rejects.toThrow(/~ has no home directory/);
    expect((await resolvePath('~x', base)).real).toBe(path.join(base, '~x'));
  });
});

describe('PathScope and ~', () => {
  it('a ~/ entry is under the given home; without a home it is an error, not a guess', async () => {
    const ws = await tempDir();
    const home = await tempDir('core-agent-home-');
    const scope = await PathScope.create(ws, { allow: ['.', '~/'], deny: ['~/secret'] }, { home });
    expect(scope.allows(path.join(home, 'notes.txt'))).toBe(true);
    expect(scope.allows(path.join(home, 'secret', 'key.pem'))).toBe(false);
    await expect(PathScope.create(ws, { deny: ['~/.ssh'] })).rejects.toThrow(/path_scope entry "~\/.ssh": ~ has no home directory/);
  });
});
