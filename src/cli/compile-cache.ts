// V8's code cache for the CLI's file (dist/core-agent-cli.mjs), turned on by the entry just
// before it imports that file: a warm start deserialises the compiled code instead of parsing
// and compiling the 0.7 MB of JavaScript again (docs/benchmarks.md has the figures).
import { readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { enableCompileCache, getCompileCacheDir } from 'node:module';
import path from 'node:path';

/** The variable that names a cache directory of one's own: an absolute path (src/runtime/settings.ts checks it). */
export const COMPILE_CACHE_VAR = 'CORE_AGENT_COMPILE_CACHE';

/**
 * Where the cache goes, or undefined when there is nothing to do: NODE_COMPILE_CACHE set means
 * Node enabled it at start-up, and NODE_DISABLE_COMPILE_CACHE is the user's off switch.
 * CORE_AGENT_COMPILE_CACHE names a directory as it is (the image's, warmed at build time); it
 * differs from NODE_COMPILE_CACHE in when the cache is turned on: here, after the entry has set
 * a daemon's V8 flags (src/cli/daemon-start.ts), so the daemons' entries are made and found under
 * the flags they run with. Otherwise the user's cache directory. `owned`: core-agent's own
 * directory, which it prunes; one the operator names is left as it is (it may be read-only).
 */
export function compileCacheDir(env: NodeJS.ProcessEnv): { dir: string; owned: boolean } | undefined {
  if (env.NODE_COMPILE_CACHE || env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  // Each must be absolute: a relative one would put the cache under whatever directory the
  // command was started in (a test harness's HOME=rel left .cache/ in the repository). A relative
  // CORE_AGENT_COMPILE_CACHE is an error the CLI reports; here it only means no cache.
  const absolute = (p: string | undefined) => (p && path.isAbsolute(p) ? p : undefined);
  const named = env[COMPILE_CACHE_VAR];
  if (named) return named.length <= 4096 && path.isAbsolute(named) ? { dir: named, owned: false } : undefined;
  const xdg = absolute(env.XDG_CACHE_HOME);
  const home = absolute(env.HOME);
  const base = xdg ?? (home === undefined ? undefined : path.join(home, '.cache'));
  return base === undefined ? undefined : { dir: path.join(base, 'core-agent', 'compile-cache'), owned: true };
}

/** Turns the cache on for modules loaded from here on. An unwritable directory is no failure: Node reports it and runs uncached. */
export function enableCliCompileCache(env: NodeJS.ProcessEnv): void {
  const where = compileCacheDir(env);
  if (where === undefined || getCompileCacheDir() !== undefined) return;
  enableCompileCache(where.dir);
  // getCompileCacheDir: Node's directory under dir for this Node and these V8 flags, which this
  // process reads and writes.
  if (where.owned) pruneCompileCache(where.dir, Date.now(), getCompileCacheDir());
}

/** How many entries each of Node's cache directories keeps: one per place the CLI's file was run from. */
export const CACHE_ENTRIES_KEPT = 16;
/** A directory of Node's (one per Node version and V8 flag set) written to last this long ago goes whole. */
export const CACHE_DIR_UNUSED_MS = 30 * 24 * 3600_000;
/** Pruning runs at most once a day; the other starts pay one stat of the stamp file. */
export const CACHE_PRUNE_EVERY_MS = 24 * 3600_000;
const STAMP = '.pruned';

/**
 * Keeps the cache directory bounded. Node writes one entry per path the CLI's file is loaded
 * from (each npx version, each checkout) into a directory per Node version and V8 flag set,
 * and never removes one: a developer's cache had grown to 99 entries, 15 MB. Here, once a day,
 * each such directory keeps its CACHE_ENTRIES_KEPT newest entries, and one not written to in
 * CACHE_DIR_UNUSED_MS (an old Node) is removed. An entry removed in use costs its owner one
 * uncached start, after which Node writes it again. `inUse`, the directory this process's Node
 * reads and writes, is never removed whole, however old. Only core-agent's own directory is pruned
 * (never NODE_COMPILE_CACHE's), and any file-system error ends the pruning quietly: a cache is
 * never a reason to fail.
 */
export function pruneCompileCache(dir: string, now = Date.now(), inUse?: string): string[] {
  const removed: string[] = [];
  try {
    const stamp = path.join(dir, STAMP);
    const last = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs;
    if (last !== undefined && now - last < CACHE_PRUNE_EVERY_MS && last <= now) return removed;
    writeFileSync(stamp, '');
    utimesSync(stamp, now / 1000, now / 1000);
    for (const sub of readdirSync(dir, { withFileTypes: true })) {
      if (!sub.isDirectory()) continue;
      const at = path.join(dir, sub.name);
      // An entry another process removed meanwhile is skipped, not the end of the pass.
      const entries = readdirSync(at, { withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => ({ file: path.join(at, e.name), mtimeMs: statSync(path.join(at, e.name), { throwIfNoEntry: false })?.mtimeMs }))
        .filter((e): e is { file: string; mtimeMs: number } => e.mtimeMs !== undefined)
        .sort((a, b) => b.mtimeMs - a.mtimeMs);
      const newest = entries[0]?.mtimeMs ?? statSync(at).mtimeMs;
      const unused = now - newest > CACHE_DIR_UNUSED_MS && (inUse === undefined || path.resolve(inUse) !== at);
      const gone = unused ? [at] : entries.slice(CACHE_ENTRIES_KEPT).map((e) => e.file);
      for (const p of gone) {
        rmSync(p, { recursive: true, force: true });
        removed.push(p);
      }
    }
  } catch {
    // Unwritable, removed under us, not a directory: the cache stays as it is.
  }
  return removed;
}
