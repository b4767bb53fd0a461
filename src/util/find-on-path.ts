import { accessSync, constants, statSync } from 'node:fs';

/**
 * The executable `name` on `env`'s PATH, as a spawn with that environment would
 * find it, or undefined. A stat per PATH entry instead of spawning `which`: the
 * composition root asks once per run, and nothing is started to find out.
 *
 * Every run looks up three names (git, jj, sciontool), most of them absent, so a
 * miss throws nothing (`throwIfNoEntry: false`; before, each missing candidate
 * built and threw an ENOENT error: 39 a start on a PATH of 14 entries). The
 * candidate is the entry and the name joined with one `/`, as bash prints it, not
 * normalized. A PATH entry named twice is looked in once.
 */
export function findOnPath(name: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const seen = new Set<string>();
  for (const dir of (env.PATH ?? '').split(':')) {
    // An empty or relative entry is relative to the current directory, as a shell reads it; a
    // tool's binary is never looked up there.
    if (dir === '' || dir[0] !== '/' || seen.has(dir)) continue;
    seen.add(dir);
    const candidate = dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
    try {
      if (statSync(candidate, { throwIfNoEntry: false })?.isFile() !== true) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not executable, or any other error (EACCES, ELOOP, ENAMETOOLONG, EIO): the next PATH entry.
    }
  }
  return undefined;
}
