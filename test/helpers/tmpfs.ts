// A real full disk for tests: a size-limited tmpfs mounted for one test and
// unmounted after it. Mounting needs root (or CAP_SYS_ADMIN) — the dev machine and
// CI run as root; elsewhere the test is skipped with the reason, never failed. An
// unprivileged user runs these tests in a user and mount namespace of their own
// (`unshare -rm npx vitest run …`: root there, so the mount works, seen by the test and
// the processes it starts). The mount cannot be made in a namespace and used from outside
// through /proc/PID/root: SQLite and realpath resolve that link to the path outside.
//
//   it('...', async (ctx) => {
//     const disk = await mountTmpfs(ctx, { bytes: 2 * MiB });
//     // put the files under test in disk.dir, then:
//     await disk.fill({ leaveBytes: 0 });   // the next write gets ENOSPC
//     await disk.free();                    // space again
//   });
import { execFile } from 'node:child_process';
import { mkdtemp, open, rm, rmdir, statfs, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestContext } from 'vitest';

const run = promisify(execFile);
export const MiB = 1024 * 1024;

export interface Tmpfs {
  /** The mount point: a fresh, empty directory on the small file system. */
  readonly dir: string;
  readonly bytes: number;
  /**
   * Fill the file system with a filler file until a write fails with ENOSPC, then
   * give back `leaveBytes` (rounded up to whole 4 KiB pages) — so a write larger
   * than that fails partway. Returns the filler's path.
   */
  fill(opts?: { leaveBytes?: number }): Promise<string>;
  /** Remove the filler: the space is back. */
  free(): Promise<void>;
  /** Bytes an unprivileged write could still use. */
  available(): Promise<number>;
  /** Remount read-only (`true`) or read-write (`false`), keeping the files. */
  readOnly(on: boolean): Promise<void>;
}

let refused: string | null | undefined;

/**
 * A tmpfs of `bytes` for this test, unmounted when it finishes (pass the test's
 * context). Skips the test, with a message saying why, when mount is not permitted.
 */
export async function mountTmpfs(ctx: TestContext, opts: { bytes: number }): Promise<Tmpfs> {
  if (refused) ctx.skip(refused);
  const dir = await mkdtemp(path.join(tmpdir(), 'core-agent-tmpfs-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${opts.bytes},mode=0755`, 'tmpfs', dir]);
  } catch (err) {
    await rmdir(dir).catch(() => {});
    const why = ((err as { stderr?: string }).stderr || (err as Error).message).trim().split('\n')[0];
    refused = `full-disk test skipped: cannot mount a tmpfs here (${why}); it needs root or CAP_SYS_ADMIN (unprivileged: run the test under unshare -rm)`;
    ctx.skip(refused);
  }
  refused = null;
  const filler = path.join(dir, '.filler');
  ctx.onTestFinished(async () => {
    // Lazy: a file still open in this process (a database under test) must not keep the mount.
    await run('umount', ['-l', dir]).catch(() => {});
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  });
  return {
    dir,
    bytes: opts.bytes,
    async fill({ leaveBytes = 0 } = {}) {
      const fh = await open(filler, 'a');
      const chunk = Buffer.alloc(64 * 1024, 0x66);
      try {
        for (;;) {
          try {
            await fh.write(chunk);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
            break;
          }
        }
        // A short last write may have left part of a chunk: fill to the last byte.
        for (let size = 32 * 1024; size >= 1; size = Math.floor(size / 2)) {
          try {
            await fh.write(chunk.subarray(0, size));
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
          }
        }
        if (leaveBytes > 0) {
          const { size } = await fh.stat();
          await fh.truncate(Math.max(0, size - Math.ceil(leaveBytes / 4096) * 4096));
        }
      } finally {
        await fh.close();
      }
      return filler;
    },
    async free() {
      await unlink(filler).catch(() => {});
    },
    async available() {
      const s = await statfs(dir);
      return s.bavail * s.bsize;
    },
    async readOnly(on) {
      await run('mount', ['-o', `remount,${on ? 'ro' : 'rw'}`, dir]);
    },
  };
}
