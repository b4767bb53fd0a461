// Loads the CLI for the entry (src/main.ts). In the bundle the CLI's file is a script
// (scripts/bundle/esbuild-options.mjs, cliScriptOptions): one function expression that takes `module`,
// `require` and its own URL. It is compiled here through node:vm with V8's code cache, and the
// cache is made after a run, not after compiling: V8 compiles a function when it is first
// called, so a cache made at compile time — what Node's module compile cache stores — holds
// little more than the file's top level, and every start compiled the few hundred functions it
// ran again. Made after the run, it holds them (docs/benchmarks.md has the figures).
import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { joinUnder } from './join-path.ts';
import { asCompiled, cliCompiled, whenStartIsOver } from './v8-flags.ts';
import { cacheGroup, compileCacheDir, fnv1a, pruneCompileCache, type CommandWords } from './compile-cache.ts';

/** What a CLI script exports (src/cli/start.ts, src/cli/start-tools.ts). */
export interface Cli {
  start(argv: string[], env: NodeJS.ProcessEnv): Promise<void>;
}

/**
 * What the entry tells the loader about the CLI, which the loader sits below and does not
 * import: the command words that name the code cache's files, and the CLI's module as the
 * sources have it (the entry's `import()` of src/cli/start.ts, which the build leaves out).
 */
export interface LoadOptions {
  daemon: boolean;
  words: CommandWords;
  fromSources: () => Promise<Cli>;
}

/**
 * The CLI: in the bundle a script beside the entry — the tools' listing script
 * (src/cli/start-tools.ts) for `core-agent tools …` but `tools call`, the whole CLI for every
 * other command line; from the sources, the whole CLI's module itself.
 */
export async function loadCli(argv: readonly string[], env: NodeJS.ProcessEnv, o: LoadOptions): Promise<Cli> {
  if (typeof __CORE_AGENT_CLI_SCRIPT__ === 'string' && typeof __CORE_AGENT_TOOLS_SCRIPT__ === 'string') {
    const url = new URL(listsTools(argv) ? __CORE_AGENT_TOOLS_SCRIPT__ : __CORE_AGENT_CLI_SCRIPT__, import.meta.url);
    return loadCliScript(fileURLToPath(url), argv, env, o.daemon, o.words, url.href);
  }
  return o.fromSources();
}

/**
 * Whether the listing script serves this command line: `tools list` and the tools' help. A
 * `tools call` validates its arguments and runs a tool, which needs zod and the tool's module
 * at once: the whole CLI has both in its script, where the listing script keeps zod in a chunk
 * it would decode and compile at every call (scripts/bundle/listing-zod.mjs).
 */
export const listsTools = (argv: readonly string[]): boolean => argv[0] === 'tools' && argv[1] !== 'call';

/** The build's first line of the script: `//core-agent-cli <content hash>`. */
const IDENTITY = /^\/\/core-agent-cli ([0-9a-f]{8,64})\n/;

/**
 * Compiles and evaluates the CLI's script with the cache for this command line, and arranges
 * for the cache to be written when there was none to use (or V8 refused it): at exit, or for a
 * daemon once it is up (src/startup/daemon-start.ts, daemonReady), under the V8 flags it was
 * compiled with (src/startup/v8-flags.ts). Only a run that succeeds writes one — a usage error
 * compiles little — and a help request writes only a help file, which serves until the
 * command proper has written its own. `href`: the file's URL, when the caller has it (the entry
 * does): made from the path it costs a path resolution, and each of those at start-up brings
 * Node's path functions closer to an optimizing compile the one-shot command never profits from.
 */
export function loadCliScript(
  file: string,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  daemon: boolean,
  words: CommandWords,
  href = pathToFileURL(file).href,
): Cli {
  const { source, scratch } = readSource(file);
  collectYoungNow(source.length);
  const cache = cacheFiles(source, argv, env, daemon, words);
  const debug = /\bcore-agent\b/.test(env.NODE_DEBUG ?? '');
  let used: string | undefined;
  let cachedData: Buffer | undefined;
  for (const candidate of cache?.read ?? []) {
    const bytes = readIfThere(candidate, scratch);
    if (bytes === undefined) continue;
    cachedData = unsealed(bytes);
    if (cachedData !== undefined) {
      used = candidate;
      break;
    }
    // A file that fails its check never reaches V8 (which would take it, and crash); it goes.
    if (debug) say(`core-agent code cache: ${candidate}: damaged\n`);
    removeQuietly(candidate);
  }
  cliCompiled(env);
  const script = new Script(source, { filename: file, cachedData });
  const accepted = cachedData !== undefined && !script.cachedDataRejected;
  if (debug && cache !== undefined)
    say(`core-agent code cache: ${used ?? cache.complete}: ${used === undefined ? 'absent' : accepted ? 'accepted' : 'rejected'}\n`);
  // One V8 refused (made under other flags) goes too: else a help request, which writes only the
  // help file, would find the command's file first and refuse it again at every start.
  if (used !== undefined && !accepted) removeQuietly(used);
  // Nothing to write once V8 took the command's own file, or (a help request) the help file.
  if (cache !== undefined && !(accepted && (used === cache.complete || used === cache.write))) {
    let saved = false;
    const save = () => {
      if (saved) return;
      saved = true;
      // The directory grows only here, so here is where it is kept bounded.
      if (writeCache(cache.dir, cache.write, script, debug) && cache.owned) pruneCompileCache(cache.dir);
    };
    // A daemon's file holds its start: written once it is up, never at an exit before that (a
    // watcher stopped while it waits for its cluster); a help request's, at its exit.
    process.once('exit', (code) => {
      if (code === 0 && (!daemon || cache.help)) save();
    });
    if (daemon) whenStartIsOver(save);
  }
  const module = { exports: {} as Cli };
  const body = script.runInThisContext() as (module: { exports: Cli }, require: NodeJS.Require, url: string) => void;
  body(module, builtinRequire, href);
  return module.exports;
}

/**
 * The CLI's `require`. The build bundles every package into the script, so what it requires is
 * Node's built-ins alone (the lazy built-ins of scripts/bundle/esbuild-options.mjs, and the few a
 * bundled package names itself); the build refuses a script that requires anything else
 * (finishCliScript). A require made by createRequire would cost a module object and a
 * resolution of the script's directory at every start. Anything else asked for here is a
 * build mistake, and says so.
 */
const builtinRequire = ((id: string) => {
  const builtin = process.getBuiltinModule(id) as unknown;
  if (builtin === undefined)
    throw new Error(`core-agent: the CLI's script requires "${id}", which is not a Node built-in (a build mistake)`);
  return builtin;
}) as NodeJS.Require;

interface CacheFiles {
  dir: string;
  owned: boolean;
  /** The command's own file: once it is there and V8 takes it, nothing is written. */
  complete: string;
  /**
   * What to read, in order: the command's file, then the help file — made by a help request
   * (the image's build warms the watcher's so), it holds less than the command's own file, but
   * V8 takes it all the same, and the command's run then writes its own.
   */
  read: string[];
  /** What this run writes when what it read was absent or refused. */
  write: string;
  /** A help request: it writes the help file. */
  help: boolean;
}

/**
 * The files for this build of the CLI, this Node and this kind of start (a daemon's flags), and
 * this command line's group. V8 checks a cache against the source's length and its own version
 * and flags, not the source's content, so the build's content hash (the script's first line)
 * and its length are in the name: another build at the same path never finds this one's cache.
 * Not the file's time: the image's build sets every time after it has warmed the cache. Flags a
 * user gives Node are V8's to check: a cache made under others is refused, and written again.
 */
function cacheFiles(
  source: string,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  daemon: boolean,
  words: CommandWords,
): CacheFiles | undefined {
  const where = compileCacheDir(env);
  const build = IDENTITY.exec(source.slice(0, 100))?.[1];
  if (where === undefined || build === undefined) return undefined;
  const runtime = fnv1a([source.length, process.version, process.arch, daemon].join('\0'));
  const group = cacheGroup(argv, words);
  const stem = joinUnder(where.dir, `cli-${build.slice(0, 16)}-${runtime}-${group.name}`);
  const name = (help: boolean) => `${stem}${help ? '.help' : ''}.v8`;
  const complete = name(false);
  return { dir: where.dir, owned: where.owned, complete, read: [complete, name(true)], write: name(group.help), help: group.help };
}

/**
 * A cache file: `CAC2`, the data's length and a check of it (32 bits each, little-endian), four
 * zero bytes, then V8's data. V8 checks its data's header (version, flags, the source's length)
 * but not the rest: damaged data it takes, and crashes the process. The file is written whole
 * or not at all (writeCache), so what the check is for is damage at rest: a file cut short, or
 * blocks of it zeroed or overwritten. It reads one 32-bit word in every 256 bytes — a full
 * checksum of the 0.6–0.9 MB cost 5 ms in JavaScript, or 4–11 ms to load node:zlib's or
 * node:crypto's — so a bit flipped inside a block can pass.
 *
 * The data starts at byte 16: read into a buffer of its own (malloc'd, so 16-byte aligned), it
 * is 8-byte aligned, and V8 takes it where it is. Data that is not aligned V8 copies first
 * (AlignedCachedData): with the 12-byte header of the first layout, ~150 fresh pages of
 * memory at every start (docs/benchmarks.md).
 */
const MAGIC = 0x32434143; // "CAC2"
const HEADER = 16;
const STRIDE = 256;

const PRIME = 0x01000193;
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

function check(data: Buffer): number {
  let h = 0x811c9dc5 ^ data.length;
  const last = data.length - 4;
  if (last < 0) return h >>> 0;
  if (LITTLE_ENDIAN && data.byteOffset % 4 === 0) {
    // The same words through a typed array: ~2,500 readInt32LE calls made V8 compile the loop
    // on the way (3–6 ms and ~150 page faults of a start); indexed reads stay in the interpreter.
    const words = new Int32Array(data.buffer, data.byteOffset, data.length >>> 2);
    for (let i = 0; i < words.length; i += STRIDE / 4) h = Math.imul(h ^ words[i]!, PRIME);
  } else {
    for (let at = 0; at <= last; at += STRIDE) h = Math.imul(h ^ data.readInt32LE(at), PRIME);
  }
  return Math.imul(h ^ data.readInt32LE(last), PRIME) >>> 0;
}

/** V8's data with the file's header before it. */
export function sealed(data: Buffer): Buffer {
  const header = Buffer.alloc(HEADER);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(data.length, 4);
  header.writeUInt32LE(check(data), 8);
  // Bytes 12–15 stay zero.
  return Buffer.concat([header, data]);
}

/** V8's data, or undefined for a file that is not one sealed whole. */
export function unsealed(file: Buffer): Buffer | undefined {
  if (
    file.length < HEADER ||
    file.readUInt32LE(0) !== MAGIC ||
    file.readUInt32LE(4) !== file.length - HEADER ||
    file.readUInt32LE(12) !== 0
  ) {
    return undefined;
  }
  const data = file.subarray(HEADER);
  return check(data) === file.readUInt32LE(8) ? data : undefined;
}

function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // A directory that cannot be written (the image's): the file stays, and is refused again.
  }
}

/**
 * The CLI's source, and a buffer for its cache to be read into. Every fresh page a start touches
 * costs a page fault, which is most of what a start costs beyond Node's own (docs/benchmarks.md):
 * the source is read into a buffer, copied into V8's heap as a string, and the same buffer then
 * takes the cache file (0.6–1.1 MB) — one buffer's pages, not two. It is sized for a cache half
 * as large again as the source; pages never written are never touched. The source is ASCII
 * (the build refuses anything else), so Latin-1 is its exact decoding, and the cheapest.
 */
function readSource(file: string): { source: string; scratch: Buffer } {
  const fd = openSync(file, 'r');
  try {
    const { bytes, buffer } = readToEnd(fd, Buffer.allocUnsafeSlow(Math.ceil(fstatSync(fd).size * 1.5) + HEADER));
    return { source: bytes.toString('latin1'), scratch: buffer };
  } finally {
    closeSync(fd);
  }
}

/**
 * Makes V8 collect its young generation now, while what is young is little more than the
 * CLI's source. The source string (0.7–0.9 MB) is one young large object, and with what Node's
 * start left there it all but fills the young generation; left alone, V8 collects it at the
 * first turn of the event loop, by then with the CLI's modules evaluated and ~1 MB of their
 * objects to copy (4–7 ms, and V8's worker threads helping). Collected now, the collection
 * moves the source out of the young generation as it is (a large object is not copied), and,
 * as much having survived as the young generation holds, V8 grows it. A `tools list` then ends
 * with no other collection: its main thread spends ~3.4 ms collecting instead of ~7.3 ms. A
 * `run`, which allocates more, has a second collection later: ~1.3 ms more than it spent.
 *
 * What makes V8 collect is a young large object that does not fit beside the source: young
 * large objects have room for as much as the young generation holds (1 MiB at the start, on
 * 64 bits), so an array a little larger than what the source leaves, garbage at once. Every
 * page of it is fresh memory, so it is no larger than that. A young generation made larger
 * (--min-semi-space-size) leaves room for it, and V8 collects later with the rest, as it did.
 * The figures are V8 CPU profiles' "(garbage collector)", 25 runs each (docs/benchmarks.md);
 * test/cli/startup.test.ts holds the one collection.
 */
function collectYoungNow(sourceLength: number): void {
  // A script smaller than the whole CLI's (the tools', 0.7 MB) leaves more room than one large
  // array should fill, and too little survives the collection for V8 to grow the young
  // generation enough: `tools list` then had a second collection (3–6 ms). An array kept alive
  // across the collection fills the room to ROOM_LEFT, and survives it as the larger source did.
  // A source that fills the young generation alone is collected with the next allocation anyway.
  if (sourceLength >= YOUNG_AT_START) return;
  const keep = Math.max(0, YOUNG_AT_START - sourceLength - ROOM_LEFT);
  KEPT.array = keep > 0 ? new Array<undefined>(Math.ceil(keep / 8)) : undefined;
  const room = YOUNG_AT_START - sourceLength - keep;
  // Large enough to be a large object itself (a smaller one is allocated in the young
  // generation's pages, and collects nothing).
  void new Array(Math.ceil(Math.max(room + OVERFLOW, LARGE_OBJECT) / 8));
  KEPT.array = undefined;
}
/** V8's young generation at the start on 64 bits (a semi-space), which is also what its young large objects may take. */
const YOUNG_AT_START = 1024 * 1024;
/** How far beyond the room the array goes: its header, and what else came to be young since. */
const OVERFLOW = 16 * 1024;
/** The room left beside the source and what is kept; the array that makes V8 collect is larger. */
const ROOM_LEFT = 120 * 1024;
/** Past V8's largest regular object (128 KiB): allocated as a large object. */
const LARGE_OBJECT = 136 * 1024;
/** Where the kept array is held across the collection (a local V8 may see as dead). */
const KEPT: { array: undefined[] | undefined } = { array: undefined };

/** A file's bytes, read into `scratch` when they fit; undefined when it cannot be read. */
function readIfThere(file: string, scratch: Buffer): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    // One byte to spare: the read that finds the end then needs no larger buffer.
    const size = fstatSync(fd).size;
    return readToEnd(fd, size < scratch.length ? scratch : Buffer.allocUnsafeSlow(size + 1)).bytes;
  } catch {
    return undefined;
  } finally {
    try {
      closeSync(fd);
    } catch {
      // A cache is never a reason to fail.
    }
  }
}

/**
 * Reads `fd` from its start to its end into `into`, or into a larger copy when the file is
 * longer than `into`: one that grew since its size was read, or on a file system that reports
 * none. `bytes`: what was read; `buffer`: all of the memory it is in.
 */
export function readToEnd(fd: number, into: Buffer): { bytes: Buffer; buffer: Buffer } {
  let buffer = into;
  let got = 0;
  for (;;) {
    if (got === buffer.length) {
      const larger = Buffer.allocUnsafeSlow(Math.max(buffer.length * 2, 64 * 1024));
      buffer.copy(larger, 0, 0, got);
      buffer = larger;
    }
    const n = readSync(fd, buffer, got, buffer.length - got, got);
    if (n === 0) return { bytes: buffer.subarray(0, got), buffer };
    got += n;
  }
}

/**
 * Written whole or not at all (a temporary file renamed over it). A directory that cannot be
 * written (the image's, read-only) is no failure, and is found out before the cache is made.
 * Whether the file was written.
 */
function writeCache(dir: string, file: string, script: Script, debug: boolean): boolean {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    const fd = openSync(temporary, 'w', 0o600);
    let bytes: number;
    try {
      const data = asCompiled(() => script.createCachedData());
      writeFileSync(fd, sealed(data));
      bytes = data.length;
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
    if (debug) say(`core-agent code cache: ${file}: written, ${bytes} bytes\n`);
    return true;
  } catch (err) {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was made, or it cannot be removed either: the next write replaces it.
    }
    if (debug) say(`core-agent code cache: ${file}: not written (${(err as Error).message})\n`);
    return false;
  }
}

function say(line: string): void {
  try {
    writeSync(2, line);
  } catch {
    // Debug output to a closed stderr is no reason to fail.
  }
}
