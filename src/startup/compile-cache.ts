// Where V8's code cache for the CLI's file (dist/core-agent-cli.js) lives, what each of its
// files is named after, and how the directory is kept bounded. The entry reads and writes the
// cache itself (src/startup/cli-script.ts); docs/benchmarks.md has the figures.
import { readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { joinUnder } from './join-path.ts';

/** The variable that names a cache directory of one's own: an absolute path (src/runtime/settings.ts checks it). */
export const COMPILE_CACHE_VAR = 'CORE_AGENT_COMPILE_CACHE';

/**
 * Where the cache goes, or undefined for none. NODE_DISABLE_COMPILE_CACHE, Node's off switch, is
 * the user's here too. CORE_AGENT_COMPILE_CACHE names a directory used as it is (the image's,
 * warmed at build time and read-only); so does NODE_COMPILE_CACHE, the directory a user gave
 * Node's own cache, which does not cover a file compiled through node:vm. Otherwise the user's
 * cache directory. `owned`: core-agent's own directory, which it prunes; one the operator names
 * is left as it is.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv): { dir: string; owned: boolean } | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  // Each must be absolute: a relative one would put the cache under whatever directory the
  // command was started in (a test harness's HOME=rel left .cache/ in the repository). A relative
  // CORE_AGENT_COMPILE_CACHE is an error the CLI reports; here it only means no cache.
  const absolute = (p: string | undefined) => (p && p.length <= 4096 && path.isAbsolute(p) ? p : undefined);
  for (const named of [env[COMPILE_CACHE_VAR], env.NODE_COMPILE_CACHE]) {
    if (named) return absolute(named) === undefined ? undefined : { dir: named, owned: false };
  }
  const xdg = absolute(env.XDG_CACHE_HOME);
  const home = absolute(env.HOME);
  if (xdg !== undefined) return { dir: joinUnder(xdg, 'core-agent/compile-cache'), owned: true };
  return home === undefined ? undefined : { dir: joinUnder(home, '.cache/core-agent/compile-cache'), owned: true };
}

/**
 * The CLI's command words (src/cli/main-help.ts's COMMANDS) and the command a line whose first
 * word is none of them runs (its impliedCommand: `run` for a prompt): handed in by the entry.
 */
export interface CommandWords {
  readonly commands: readonly string[];
  impliedCommand(argv: readonly string[]): string | undefined;
}

/** Commands whose second word picks what they run (`tools list`, `mcp serve`): each such pair caches apart. */
const WITH_SUBCOMMANDS: ReadonlySet<string> = new Set(['tools', 'mcp', 'sessions', 'recipe']);
const WORD = /^[a-z][a-z-]{0,23}$/;

/**
 * Which of the cache's files a command line reads and writes. A cache holds the functions the run
 * that wrote it compiled, so commands that run different code keep apart: `tools-list`, `run`,
 * `watch`. A help request is marked, so that its few functions never stand in for the command's.
 */
export function cacheGroup(argv: readonly string[], { commands, impliedCommand }: CommandWords): { name: string; help: boolean } {
  const [first, second] = argv;
  // A prompt without the word (`core-agent "why?"`, `-p …`) runs run's code: run's file, not one per first word.
  const words = first !== undefined && commands.includes(first) && WORD.test(first) ? [first] : [impliedCommand(argv) ?? 'default'];
  if (first !== undefined && WITH_SUBCOMMANDS.has(first) && second !== undefined && WORD.test(second)) words.push(second);
  return { name: words.join('-'), help: argv.some((a) => a === '--help' || a === '-h') };
}

/** FNV-1a, 32 bits, as 8 hex digits: a file name's part, not a check of content (V8 checks what it loads). */
export function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** How a cache file is named: `cli-<build>-<runtime>-<group>[.help].v8`. */
export const CACHE_FILE = /^cli-[0-9a-f]+-[0-9a-f]{8}-[a-z-]+(\.help)?\.v8$/;

/** How many cache files core-agent's own directory keeps, newest first. */
export const CACHE_FILES_KEPT = 48;
/** A cache file not written for this long goes; so does anything else in the directory (Node's old layout). */
export const CACHE_FILE_UNUSED_MS = 30 * 24 * 3600_000;
/** Pruning runs at most once a day; the other writes of a cache file pay one stat of the stamp file. */
export const CACHE_PRUNE_EVERY_MS = 24 * 3600_000;
const STAMP = '.pruned';

/**
 * Keeps core-agent's own cache directory bounded. Each build, Node, V8 flag set and command
 * group has a file (about 0.3–1 MB), and a developer's directory collects them for every npx
 * version and checkout. Called after a cache file is written (src/startup/cli-script.ts), the only
 * time the directory grows, so a start that finds its cache pays nothing for it. Once a day: the
 * CACHE_FILES_KEPT newest cache files stay, older ones and any unused for CACHE_FILE_UNUSED_MS
 * go, and so does whatever else is there — the directories Node's own compile cache wrote when
 * the CLI was an ES module, which nothing reads any more. A file removed in use costs its owner
 * one uncached start. Any file-system error ends the pruning quietly: a cache is never a reason
 * to fail. Only core-agent's own directory is pruned.
 */
export function pruneCompileCache(dir: string, now = Date.now()): string[] {
  const removed: string[] = [];
  try {
    const stamp = path.join(dir, STAMP);
    const last = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs;
    if (last !== undefined && now - last < CACHE_PRUNE_EVERY_MS && last <= now) return removed;
    writeFileSync(stamp, '');
    utimesSync(stamp, now / 1000, now / 1000);
    const files: Array<{ file: string; mtimeMs: number }> = [];
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === STAMP) continue;
      const at = path.join(dir, entry.name);
      // An entry another process removed meanwhile is skipped, not the end of the pass.
      const mtimeMs = statSync(at, { throwIfNoEntry: false })?.mtimeMs;
      if (mtimeMs === undefined) continue;
      if (entry.isFile() && CACHE_FILE.test(entry.name)) files.push({ file: at, mtimeMs });
      else if (!entry.isFile() || now - mtimeMs > CACHE_FILE_UNUSED_MS) remove(at);
    }
    files.sort((a, b) => b.mtimeMs - a.mtimeMs);
    files.forEach(({ file, mtimeMs }, i) => {
      if (i >= CACHE_FILES_KEPT || now - mtimeMs > CACHE_FILE_UNUSED_MS) remove(file);
    });
  } catch {
    // Unwritable, removed under us, not a directory: the cache stays as it is.
  }
  return removed;

  function remove(p: string): void {
    rmSync(p, { recursive: true, force: true });
    removed.push(p);
  }
}
