import { spawnSync } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTime } from '../../src/tools/shared/pending-writes.ts';
import { setup, tempDir } from '../helpers/workspace.ts';

/** The pid of a process that has exited (its number is free, nothing runs under it now). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('temporary files a crashed run left behind', () => {
  it('are removed at the next start; a live owner’s and anything not ours are kept', async () => {
    const state = await tempDir('core-agent-state-');
    const ws = await tempDir();
    const journal = path.join(state, 'pending-writes');
    await mkdir(journal, { recursive: true });
    const dead = deadPid();
    const stale = path.join(ws, `.notes.md.${dead}.1a2b.core-agent.tmp`);
    const mine = path.join(ws, `.mine.md.${process.pid}.1a2b.core-agent.tmp`);
    const notOurs = path.join(ws, 'important.txt');
    for (const f of [stale, mine, notOurs]) await writeFile(f, 'half-written');
    await writeFile(path.join(journal, `${dead}-12345-0`), stale);
    await writeFile(path.join(journal, `${process.pid}-${startTime(process.pid)}-zz`), mine);
    // A dead owner's entry that names a file without the temporary suffix: the entry goes, the file stays.
    await writeFile(path.join(journal, `${dead}-12345-1`), notOurs);

    const rt = await setup({ workspace: ws, stateDir: state, flags: { mode: 'yolo' } });
    const left = await readdir(ws);
    expect(left).not.toContain(path.basename(stale));
    expect(left).toContain(path.basename(mine));
    expect(left).toContain('important.txt');
    expect((await readdir(journal)).sort()).toEqual([`${process.pid}-${startTime(process.pid)}-zz`]);

    // A write in progress is journalled and the entry is gone once it is done.
    await rt.ok('write_file', { path: 'a.txt', content: 'x' });
    expect(await readdir(journal)).toHaveLength(1);
  });

  it('a journal that cannot be written does not stop the write', async () => {
    const state = path.join(await tempDir('core-agent-state-'), 'not-a-directory');
    await writeFile(state, 'a file where the state directory should be');
    const rt = await setup({ stateDir: state, flags: { mode: 'yolo' } });
    expect(await rt.ok('write_file', { path: 'a.txt', content: 'x' })).toMatchObject({ created: true });
    expect(await readdir(rt.dir)).toEqual(['a.txt']);
  });
});
