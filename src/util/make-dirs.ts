import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * `mkdir -p`, one component at a time. Node's `mkdirSync(dir, {recursive: true})`
 * (and the async one) spin forever where mkdir of a missing directory answers
 * ENOENT although its parent exists — /proc/anything, a dead mount — so a user's
 * `--session-db /proc/x/s.db` or XDG_STATE_HOME once hung the process at 100%
 * CPU. Here such a directory fails with ENOENT, like any other that cannot be made.
 */
export function makeDirs(dir: string, mode?: number): void {
  const missing: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    try {
      if (statSync(d).isDirectory()) break;
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${d}'`), { code: 'ENOTDIR', path: d });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    missing.push(d);
    if (path.dirname(d) === d) break;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, mode === undefined ? undefined : { mode });
    } catch (err) {
      // Made meanwhile by another process: as good as made here.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}
