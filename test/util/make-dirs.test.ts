import { spawnSync } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDirs } from '../../src/util/make-dirs.ts';
import { bundle } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';

const hasProc = existsSync('/proc/self');

describe('makeDirs: mkdir -p that cannot spin', () => {
  it('makes every missing level with the mode, and is a no-op on a directory that exists', async () => {
    const root = await tempDir();
    const deep = path.join(root, 'a/b/c');
    makeDirs(deep, 0o700);
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(statSync(path.join(root, 'a')).mode & 0o777).toBe(0o700);
    makeDirs(deep, 0o700);
    makeDirs(root);
  });

  it('a file on the path is ENOTDIR, not a loop', async () => {
    const root = await tempDir();
    writeFileSync(path.join(root, 'f'), 'x');
    expect(() => makeDirs(path.join(root, 'f/sub'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });

  // Node's own recursive mkdir loops forever here (mkdir of /proc/x answers ENOENT though /proc exists).
  it.skipIf(!hasProc)('a directory that cannot be made under an existing parent fails at once with ENOENT', () => {
    expect(() => makeDirs('/proc/core-agent-nope/x')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it.skipIf(!hasProc)('run --session-db under /proc says why in one sentence (it used to hang at 100% CPU)', async () => {
    const ws = await tempDir();
    writeFileSync(path.join(ws, 's.jsonl'), JSON.stringify({ text: 'hi' }));
    const r = spawnSync(process.execPath, [bundle, 'run', '--session-db', '/proc/core-agent-nope/s.db', '-m', 'replay:s.jsonl', 'hi'], {
      cwd: ws,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: ws },
      timeout: 60_000,
    });
    expect(r.error, 'the run must end by itself').toBeUndefined();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/its directory \/proc\/core-agent-nope cannot be created there/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});
