// src/startup/fs-callbacks.ts gives what node:fs/promises gives: the same results and the same
// errors (code, syscall, path, message), call by call, over one tree on disk — made
// synchronously while the start-up lasts, and through libuv's thread pool after it.
import * as fsp from 'node:fs/promises';
import { constants, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lstat, openFile, readdirEntries, readdirNames, readlink, realpath, stat, startUpIsOver } from '../../src/startup/fs-callbacks.ts';

const root = mkdtempSync(path.join(tmpdir(), 'fs-callbacks-'));
mkdirSync(path.join(root, 'dir'));
writeFileSync(path.join(root, 'dir', 'file'), 'héllo\n');
symlinkSync('dir/file', path.join(root, 'link'));
symlinkSync('nowhere', path.join(root, 'dangling'));
symlinkSync('loop', path.join(root, 'loop'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const at = (p: string) => path.join(root, p);
const PATHS = ['dir', 'dir/file', 'link', 'dangling', 'loop', 'missing', 'dir/file/under', ''].map(at);

/** The outcome of a call, comparable: the value, or the error's identifying fields. */
async function outcome<T>(run: () => Promise<T>, view: (v: T) => unknown = (v) => v) {
  try {
    return { value: view(await run()) };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { error: { code: e.code, errno: e.errno, syscall: e.syscall, path: e.path, message: e.message } };
  }
}

const statView = (s: import('node:fs').Stats) => ({
  ino: s.ino,
  size: s.size,
  mode: s.mode,
  dir: s.isDirectory(),
  link: s.isSymbolicLink(),
});
const direntView = (ds: import('node:fs').Dirent[]) => ds.map((d) => [d.name, d.isDirectory(), d.isFile(), d.isSymbolicLink()]).sort();

function againstFsPromises(): void {
  it.each(PATHS.map((p) => [path.relative(root, p) || '.', p]))('%s', async (_name, p) => {
    expect(await outcome(() => stat(p), statView)).toEqual(await outcome(() => fsp.stat(p), statView));
    expect(await outcome(() => lstat(p), statView)).toEqual(await outcome(() => fsp.lstat(p), statView));
    expect(await outcome(() => realpath(p))).toEqual(await outcome(() => fsp.realpath(p)));
    expect(await outcome(() => readlink(p))).toEqual(await outcome(() => fsp.readlink(p)));
    expect(await outcome(() => readdirEntries(p), direntView)).toEqual(
      await outcome(() => fsp.readdir(p, { withFileTypes: true }), direntView),
    );
    expect(
      await outcome(
        () => readdirNames(p),
        (names) => [...names].sort(),
      ),
    ).toEqual(
      await outcome(
        () => fsp.readdir(p),
        (names) => [...names].sort(),
      ),
    );
    expect(await outcome(() => openFile(p, constants.O_RDONLY).then((f) => f.close()))).toEqual(
      await outcome(() => fsp.open(p, constants.O_RDONLY).then((f) => f.close())),
    );
  });

  it('an open file: fstat, reads from the current position to the end, close', async () => {
    const f = await openFile(at('dir/file'), constants.O_RDONLY);
    expect((await f.stat()).size).toBe(7);
    const buf = Buffer.alloc(4);
    const parts: string[] = [];
    for (let n; (n = await f.read(buf, 0, 4)) > 0;) parts.push(buf.subarray(0, n).toString('latin1'));
    expect(Buffer.from(parts.join(''), 'latin1').toString()).toBe('héllo\n');
    await f.close();
    await f.close(); // a no-op: closing the number again could close a file opened since
  });
}

/** Whether a call is waiting on libuv's thread pool (a request node:fs made for it). */
const queued = () => process.getActiveResourcesInfo().includes('FSReqCallback');

// The file's describes run in order: the start-up first, then after startUpIsOver.
describe('fs-callbacks while the start-up lasts: synchronous', () => {
  it('settles without a request to the thread pool', async () => {
    const pending = stat(at('dir'));
    expect(queued()).toBe(false);
    expect((await pending).isDirectory()).toBe(true);
    await expect(lstat(at('missing'))).rejects.toMatchObject({ code: 'ENOENT', syscall: 'lstat' });
    expect(queued()).toBe(false);
  });
  againstFsPromises();
});

describe('fs-callbacks after the start-up: through the thread pool', () => {
  it('makes a request to the thread pool', async () => {
    startUpIsOver();
    const pending = stat(at('dir'));
    expect(queued()).toBe(true);
    expect((await pending).isDirectory()).toBe(true);
  });
  againstFsPromises();
});
