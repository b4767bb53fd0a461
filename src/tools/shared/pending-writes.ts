import { readFileSync } from 'node:fs';
import { lstat, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readdirNames } from '../../startup/fs-callbacks.ts';
import { makeDirs } from '../../util/make-dirs.ts';

/**
 * A journal of the temporary files an atomic write has created and not yet
 * renamed or removed. A failure removes its temporary file itself; this is for
 * the process that never got to (kill -9, a power cut): the next core-agent to
 * start removes what a dead owner left behind. One small file per write, named
 * after its owner (pid and process start time, so a reused pid is not mistaken
 * for the owner), holding the temporary file's path.
 */
export class PendingWrites {
  private readonly owner: string;
  private counter = 0;
  private made = false;

  constructor(private readonly dir: string) {
    this.owner = `${process.pid}-${startTime(process.pid) ?? 0}`;
  }

  /**
   * Journal a temporary file about to be created. A journal that cannot be
   * written (its disk full, its directory read-only) does not stop the write:
   * the entry is what makes a crash's leftover findable, not the write safe.
   */
  async begin(tmpPath: string): Promise<string | undefined> {
    try {
      if (!this.made) {
        makeDirs(this.dir, 0o700);
        this.made = true;
      }
      const entry = path.join(this.dir, `${this.owner}-${(this.counter++).toString(36)}`);
      await writeFile(entry, tmpPath, { mode: 0o600 });
      return entry;
    } catch {
      return undefined;
    }
  }

  async end(entry: string | undefined): Promise<void> {
    if (entry) await unlink(entry).catch(() => undefined);
  }

  /**
   * Remove the temporary files of owners that are no longer running, and their
   * entries. Only a regular file whose name carries the owner's pid and the
   * temporary-file suffix is removed. Returns the paths removed.
   */
  async reapStale(tmpSuffix: string): Promise<string[]> {
    let names: string[];
    try {
      // Over node:fs's callbacks: every start reaps, and most find nothing, so node:fs/promises
      // (about 3 ms of a replayed run's start) loads only when there is an entry to read.
      names = await readdirNames(this.dir);
    } catch {
      return []; // no journal yet
    }
    const removed: string[] = [];
    for (const name of names) {
      const m = /^(\d+)-(\d+)-[0-9a-z]+$/.exec(name);
      if (!m || ownerAlive(Number(m[1]), Number(m[2]))) continue;
      const entry = path.join(this.dir, name);
      const tmp = await readFile(entry, 'utf8').catch(() => '');
      const base = path.basename(tmp);
      if (path.isAbsolute(tmp) && base.endsWith(tmpSuffix) && base.includes(`.${m[1]}.`)) {
        const st = await lstat(tmp).catch(() => undefined);
        if (st?.isFile()) {
          await unlink(tmp).catch(() => undefined);
          removed.push(tmp);
        }
      }
      await unlink(entry).catch(() => undefined);
    }
    return removed;
  }
}

/** A process's start time in clock ticks since boot (/proc/PID/stat field 22), or undefined without /proc. */
export function startTime(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[19]);
  } catch {
    return undefined;
  }
}

function ownerAlive(pid: number, started: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, someone else's
  }
  const now = startTime(pid);
  return now === undefined || started === 0 || now === started;
}
