// V8's code cache for the CLI's file (dist/core-agent-cli.mjs), turned on by the entry just
// before it imports that file: a warm start deserialises the compiled code instead of parsing
// and compiling the 0.7 MB of JavaScript again (docs/benchmarks.md has the figures).
import { enableCompileCache, getCompileCacheDir } from 'node:module';
import path from 'node:path';

/**
 * Where the cache goes, or undefined when there is nothing to do: NODE_COMPILE_CACHE set means
 * Node enabled it at start-up (the image points it at a cache warmed at build time), and
 * NODE_DISABLE_COMPILE_CACHE is the user's off switch. Otherwise the user's cache directory.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env.NODE_COMPILE_CACHE || env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  // Both must be absolute: a relative one would put the cache under whatever directory the
  // command was started in (a test harness's HOME=rel left .cache/ in the repository).
  const absolute = (p: string | undefined) => (p && path.isAbsolute(p) ? p : undefined);
  const xdg = absolute(env.XDG_CACHE_HOME);
  const home = absolute(env.HOME);
  const base = xdg ?? (home === undefined ? undefined : path.join(home, '.cache'));
  return base === undefined ? undefined : path.join(base, 'core-agent', 'compile-cache');
}

/** Turns the cache on for modules loaded from here on. An unwritable directory is no failure: Node reports it and runs uncached. */
export function enableCliCompileCache(env: NodeJS.ProcessEnv): void {
  const dir = compileCacheDir(env);
  if (dir === undefined || getCompileCacheDir() !== undefined) return;
  enableCompileCache(dir);
}
