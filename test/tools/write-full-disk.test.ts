import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshot } from '../helpers/tree-snapshot.ts';
import { MiB, mountTmpfs } from '../helpers/tmpfs.ts';
import { setup } from '../helpers/workspace.ts';

const BIG = 'x'.repeat(200 * 1024);

/** Everything on the disk but the filler that makes it full. */
async function files(dir: string): Promise<Record<string, string>> {
  const all = await snapshot(dir);
  delete all['.filler'];
  return all;
}

describe('file writes on a full or read-only file system (a real tmpfs)', () => {
  it('a write that does not fit fails with a sentence and leaves the old file whole, no temporary file', async (ctx) => {
    const disk = await mountTmpfs(ctx, { bytes: 2 * MiB });
    await writeFile(path.join(disk.dir, 'a.txt'), 'original\n');
    const rt = await setup({ workspace: disk.dir, flags: { mode: 'yolo' } });
    await disk.fill({ leaveBytes: 16 * 1024 });
    const before = await files(disk.dir);

    for (const [tool, args] of [
      ['write_file', { path: 'a.txt', content: BIG }],
      ['write_file', { path: 'new.txt', content: BIG }],
      ['edit_file', { path: 'a.txt', old_string: 'original', new_string: BIG }],
    ] as const) {
      const err = await rt.refused(tool, args);
      expect(err, tool).toMatch(/no space left on the filesystem holding .* \(ENOSPC\); nothing was changed/);
      expect(await files(disk.dir), tool).toEqual(before);
    }
    expect(await readFile(path.join(disk.dir, 'a.txt'), 'utf8')).toBe('original\n');
    expect((await readdir(disk.dir)).filter((n) => n.endsWith('.core-agent.tmp'))).toEqual([]);

    await disk.free();
    expect(await rt.ok('write_file', { path: 'a.txt', content: BIG })).toMatchObject({ created: false });
    expect(await readFile(path.join(disk.dir, 'a.txt'), 'utf8')).toBe(BIG);
  });

  it('a read-only file system is a sentence, and nothing changes', async (ctx) => {
    const disk = await mountTmpfs(ctx, { bytes: 1 * MiB });
    await writeFile(path.join(disk.dir, 'a.txt'), 'original\n');
    const rt = await setup({ workspace: disk.dir, flags: { mode: 'yolo' } });
    await disk.readOnly(true);
    for (const [tool, args] of [
      ['write_file', { path: 'a.txt', content: 'new' }],
      ['write_file', { path: 'dir/new.txt', content: 'new' }],
      ['edit_file', { path: 'a.txt', old_string: 'original', new_string: 'new' }],
      ['delete_file', { path: 'a.txt' }],
    ] as const) {
      expect(await rt.refused(tool, args), tool).toMatch(/is on a read-only filesystem; nothing was changed/);
    }
    await disk.readOnly(false);
    expect(await readdir(disk.dir)).toEqual(['a.txt']);
    expect(await readFile(path.join(disk.dir, 'a.txt'), 'utf8')).toBe('original\n');
  });
});
