import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CACHE_FILE,
  CACHE_FILES_KEPT,
  CACHE_PRUNE_EVERY_MS,
  cacheGroup,
  compileCacheDir,
  fnv1a,
  pruneCompileCache,
} from '../../src/startup/compile-cache.ts';
import { readToEnd, sealed, unsealed } from '../../src/startup/cli-script.ts';
import { COMMANDS, impliedCommand } from '../../src/cli/main-help.ts';

// Where the CLI's V8 code cache goes, what its files are named after and how the directory is
// kept (the whole-process cases of where it lands are in startup.cases.ts).
describe('compileCacheDir', () => {
  const own = (dir: string) => ({ dir, owned: true });
  const named = (dir: string) => ({ dir, owned: false });
  it.each([
    [{ HOME: '/home/u' }, own('/home/u/.cache/core-agent/compile-cache')],
    [{ HOME: '/home/u', XDG_CACHE_HOME: '/x' }, own('/x/core-agent/compile-cache')],
    // Relative values are ignored (the XDG spec; a relative HOME would write under the cwd).
    [{ HOME: '/home/u', XDG_CACHE_HOME: 'rel' }, own('/home/u/.cache/core-agent/compile-cache')],
    [{ HOME: 'rel' }, undefined],
    [{ HOME: '' }, undefined],
    [{}, undefined],
    [{ HOME: 'rel', XDG_CACHE_HOME: '/x' }, own('/x/core-agent/compile-cache')],
    // Node's off switch is the user's here too.
    [{ HOME: '/home/u', NODE_DISABLE_COMPILE_CACHE: '1' }, undefined],
    [{ CORE_AGENT_COMPILE_CACHE: '/app/compile-cache', NODE_DISABLE_COMPILE_CACHE: '1' }, undefined],
    // The directory a user gave Node's cache holds this one too (Node's does not cover a script compiled through node:vm).
    [{ HOME: '/home/u', NODE_COMPILE_CACHE: '/ncc' }, named('/ncc')],
    [{ HOME: '/home/u', NODE_COMPILE_CACHE: 'ncc' }, undefined],
    // CORE_AGENT_COMPILE_CACHE: that directory as it is, never pruned (the image's is read-only); it wins over Node's.
    [{ HOME: '/home/u', CORE_AGENT_COMPILE_CACHE: '/app/compile-cache' }, named('/app/compile-cache')],
    [{ CORE_AGENT_COMPILE_CACHE: '/app/compile-cache', XDG_CACHE_HOME: '/x' }, named('/app/compile-cache')],
    [{ CORE_AGENT_COMPILE_CACHE: '/app/compile-cache', NODE_COMPILE_CACHE: '/ncc' }, named('/app/compile-cache')],
    // Relative or too long: no cache at all (the CLI reports the variable as an error, exit 2).
    [{ HOME: '/home/u', CORE_AGENT_COMPILE_CACHE: 'cache' }, undefined],
    [{ HOME: '/home/u', CORE_AGENT_COMPILE_CACHE: `/${'x'.repeat(4096)}` }, undefined],
    // Empty is unset.
    [{ HOME: '/home/u', CORE_AGENT_COMPILE_CACHE: '' }, own('/home/u/.cache/core-agent/compile-cache')],
    [{ HOME: '/home/u', CORE_AGENT_COMPILE_CACHE: '', NODE_COMPILE_CACHE: '' }, own('/home/u/.cache/core-agent/compile-cache')],
  ])('%j → %j', (env, where) => {
    expect(compileCacheDir(env)).toEqual(where);
  });
});

describe('cacheGroup', () => {
  it.each([
    [['tools', 'list', '--json'], 'tools-list', false],
    [['tools', 'call', 'bash', '{}'], 'tools-call', false],
    [['tools', '--help'], 'tools', true],
    [['tools', 'list', '-h'], 'tools-list', true],
    [['run', '-m', 'replay:x', 'hello'], 'run', false],
    // A prompt's words are no subcommand: run keeps one file whatever it is asked.
    [['run', 'fix', 'the', 'build'], 'run', false],
    [['watch'], 'watch', false],
    [['watch', '--help'], 'watch', true],
    [['mcp', 'serve'], 'mcp-serve', false],
    [['sessions', 'show', 's-1'], 'sessions-show', false],
    [['recipe', 'schema'], 'recipe-schema', false],
    [[], 'default', false],
    [['--yolo'], 'default', false],
    // A prompt without the word run (`core-agent "why?"`, `core-agent -p why`) is a run.
    [['Run'], 'run', false],
    [['../../etc'], 'run', false],
    [['x'.repeat(40)], 'run', false],
    [['why does it crash?', '-m', 'replay:x'], 'run', false],
    [['-m', 'replay:x', '-p', 'why?'], 'run', false],
    [['-m', 'replay:x'], 'default', false],
    [['tools', 'A/B'], 'tools', false],
  ])('%j → %s (help: %s)', (argv, name, help) => {
    const group = cacheGroup(argv, { commands: COMMANDS, impliedCommand });
    expect(group).toEqual({ name, help });
    expect(CACHE_FILE.test(`cli-0123abcd-89abcdef-${group.name}${group.help ? '.help' : ''}.v8`)).toBe(true);
  });

  it('fnv1a: eight hex digits, the reference values', () => {
    expect(fnv1a('')).toBe('811c9dc5');
    expect(fnv1a('a')).toBe('e40c292c');
    expect(fnv1a('foobar')).toBe('bf9cf968');
  });
});

// V8 takes damaged data past its header and crashes the process (a segmentation fault, found
// when this test first damaged a file): the file carries a check of its own.
describe('a cache file’s seal', () => {
  const data = Buffer.from(Array.from({ length: 70_001 }, (_, i) => (i * 7919) % 251));
  const damaged: Array<[string, (b: Buffer) => Buffer]> = [
    ['cut short', (b) => b.subarray(0, b.length - 1000)],
    ['cut to its header', (b) => b.subarray(0, 16)],
    ['cut inside its header', (b) => b.subarray(0, 12)],
    ['empty', () => Buffer.alloc(0)],
    ['longer', (b) => Buffer.concat([b, Buffer.from('x')])],
    ['a 4 KB block zeroed', (b) => Buffer.from(b).fill(0, 20_000, 24_096)],
    ['a 4 KB block from elsewhere', (b) => Buffer.from(b).fill(7, 40_000, 44_096)],
    ['the last bytes changed', (b) => Buffer.from(b).fill(1, b.length - 3)],
    ['another magic', (b) => Buffer.concat([Buffer.from('CAC3'), b.subarray(4)])],
    // The first layout: a 12-byte header, its data 4 bytes past an 8-byte boundary.
    ['the first layout (CAC1)', () => Buffer.concat([Buffer.from('CAC1'), sealed(data).subarray(4, 12), data])],
    ['the header’s last word not zero', (b) => Buffer.from(b).fill(1, 12, 16)],
    ['the check changed', (b) => Buffer.from(b).fill(0, 8, 12)],
    ['V8’s data alone (a file of an older layout)', () => data],
  ];
  it('round-trips', () => {
    expect(unsealed(sealed(data))).toEqual(data);
    expect(unsealed(sealed(Buffer.alloc(0)))).toEqual(Buffer.alloc(0));
    expect(unsealed(sealed(Buffer.from('abc')))).toEqual(Buffer.from('abc'));
  });
  // V8 copies cached data that is not 8-byte aligned before it reads it (~150 fresh pages for
  // the CLI's): a file read into memory of its own (malloc'd, 16-byte aligned) gives aligned data.
  it('gives data 8-byte aligned from a file at an aligned address', () => {
    for (const length of [0, 1, 7, 4096, 70_001]) {
      expect(unsealed(placed(sealed(data.subarray(0, length)), 0))!.byteOffset % 8).toBe(0);
    }
  });
  /** The bytes at `offset` in memory of their own: the data after the header aligned to 4 bytes or not. */
  const placed = (bytes: Buffer, offset: number) => {
    const memory = Buffer.allocUnsafeSlow(bytes.length + offset);
    bytes.copy(memory, offset);
    return memory.subarray(offset);
  };
  // The check reads words through a typed array when the data is aligned, one by one when not:
  // a file sealed one way must be taken the other, and damage refused either way.
  it.each([0, 1, 2, 3, 4, 5])('round-trips with the file %i bytes past an aligned address', (offset) => {
    for (const length of [0, 1, 3, 4, 5, 255, 256, 257, 260, 4096, 70_000, 70_001]) {
      const part = data.subarray(0, length);
      expect(placed(sealed(part), offset).byteOffset % 4).toBe(offset % 4);
      expect(unsealed(placed(sealed(part), offset))).toEqual(part);
      expect(unsealed(placed(sealed(placed(part, offset)), 0))).toEqual(part);
    }
  });
  it.each(damaged.flatMap(([what, damage]) => [0, 1, 2, 3].map((offset) => [what, offset, damage] as const)))(
    '%s, %i bytes past an aligned address: refused',
    (_what, offset, damage) => {
      expect(unsealed(placed(damage(sealed(data)), offset))).toBeUndefined();
    },
  );
});

// The loader reads the CLI's source and a cache file into one buffer, sized from fstat; a file
// longer than that (grown since, or on a file system that reports no size) is read whole all the same.
describe('readToEnd', () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(path.join(tmpdir(), 'read-to-end-'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));
  const read = (file: string, into: Buffer) => {
    const fd = openSync(file, 'r');
    try {
      return readToEnd(fd, into);
    } finally {
      closeSync(fd);
    }
  };

  it.each([
    ['fits with room to spare', 1000, 4096],
    ['fills it exactly', 4096, 4096],
    ['is longer than it', 200_000, 4096],
    ['is empty', 0, 16],
    ['is read into an empty buffer', 70_001, 0],
  ])('a file that %s: every byte, in that buffer while they fit', (_what, length, room) => {
    const file = path.join(base, 'f');
    const content = Buffer.from(Array.from({ length }, (_, i) => (i * 31) % 256));
    writeFileSync(file, content);
    const into = Buffer.alloc(room);
    const { bytes, buffer } = read(file, into);
    expect(bytes.equals(content)).toBe(true);
    expect(buffer === into).toBe(length < room);
    expect(bytes.buffer).toBe(buffer.buffer);
  });

  it('a file its file system gives no size (/proc): read to its end', () => {
    const expected = readFileSync('/proc/self/mountinfo');
    expect(statSync('/proc/self/mountinfo').size).toBe(0);
    expect(read('/proc/self/mountinfo', Buffer.alloc(12)).bytes.length).toBeGreaterThan(0);
    // Another process's view may differ by a line; this one's own is stable across two reads.
    expect(read('/proc/self/mountinfo', Buffer.alloc(12)).bytes.equals(expected)).toBe(true);
  });
});

describe('pruneCompileCache', () => {
  const DAY = 24 * 3600_000;
  const now = Date.parse('2026-12-02T00:00:00Z');
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(path.join(tmpdir(), 'compile-cache-prune-'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  const at = (file: string, ms: number) => utimesSync(file, ms / 1000, ms / 1000);
  /** `n` cache files, the i-th written i hours before `newest`. */
  function cacheFiles(n: number, newest: number, group = 'run'): string[] {
    return Array.from({ length: n }, (_, i) => {
      const file = path.join(base, `cli-${String(i).padStart(8, '0')}-0000000${i % 10}-${group}.v8`);
      writeFileSync(file, 'x');
      at(file, newest - i * 3600_000);
      return path.basename(file);
    });
  }
  const names = () => readdirSync(base).sort();

  it(`keeps the ${CACHE_FILES_KEPT} newest cache files and none unused for 30 days`, () => {
    const files = cacheFiles(CACHE_FILES_KEPT + 3, now - DAY);
    const old = cacheFiles(2, now - 31 * DAY, 'tools-list');
    const removed = pruneCompileCache(base, now).map((p) => path.basename(p));
    expect(removed.sort()).toEqual([...files.slice(CACHE_FILES_KEPT), ...old].sort());
    expect(names()).toEqual(['.pruned', ...files.slice(0, CACHE_FILES_KEPT)].sort());
  });

  it('removes what Node’s own cache left (directories) at once, other files once unused for 30 days', () => {
    const nodeDir = path.join(base, 'v24.22.3-x64-964aae3f-0');
    mkdirSync(nodeDir);
    writeFileSync(path.join(nodeDir, 'e1'), 'x');
    const staleTemp = path.join(base, 'cli-00000000-00000000-run.v8.123.tmp');
    writeFileSync(staleTemp, 'x');
    at(staleTemp, now - 31 * DAY);
    const freshTemp = path.join(base, 'cli-00000000-00000000-run.v8.456.tmp');
    writeFileSync(freshTemp, 'x');
    at(freshTemp, now);
    const keep = cacheFiles(1, now);
    const removed = pruneCompileCache(base, now).map((p) => path.basename(p));
    expect(removed.sort()).toEqual([path.basename(staleTemp), path.basename(nodeDir)].sort());
    expect(names()).toEqual(['.pruned', path.basename(freshTemp), ...keep].sort());
  });

  it('runs at most once a day: the stamp file says when it last did', () => {
    cacheFiles(CACHE_FILES_KEPT + 4, now - DAY);
    expect(pruneCompileCache(base, now)).toHaveLength(4);
    cacheFiles(CACHE_FILES_KEPT + 4, now, 'watch');
    expect(pruneCompileCache(base, now + CACHE_PRUNE_EVERY_MS - 1)).toEqual([]);
    expect(pruneCompileCache(base, now + CACHE_PRUNE_EVERY_MS + 1)).toHaveLength(CACHE_FILES_KEPT + 4);
  });

  it('a stamp from the future (a clock set back) does not stop it', () => {
    cacheFiles(CACHE_FILES_KEPT + 2, now - DAY);
    writeFileSync(path.join(base, '.pruned'), '');
    at(path.join(base, '.pruned'), now + 10 * DAY);
    expect(pruneCompileCache(base, now)).toHaveLength(2);
  });

  it.each([
    ['a directory that does not exist', () => path.join(base, 'missing')],
    ['a file', () => (writeFileSync(path.join(base, 'file'), ''), path.join(base, 'file'))],
  ])('%s: nothing removed, nothing thrown', (_what, dir) => {
    expect(pruneCompileCache(dir(), now)).toEqual([]);
  });
});

// The whole process: the bundle's entry compiles the CLI's script with the cache for its command
// line and writes one after a run that had none to use. NODE_DEBUG=core-agent says which.
describe('the CLI’s code cache, as the bundle uses it', () => {
  const bundle = path.resolve(import.meta.dirname, '../../dist/core-agent.mjs');
  let home: string;
  let cache: string;
  beforeEach(() => {
    home = mkdtempSync(path.join(tmpdir(), 'code-cache-'));
    cache = path.join(home, '.cache', 'core-agent', 'compile-cache');
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  function run(argv: string[], env: Record<string, string> = {}) {
    const r = spawnSync(process.execPath, [bundle, ...argv], {
      cwd: home,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: home, NODE_DEBUG: 'core-agent', ...env },
    });
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('core-agent code cache: '));
    const said = lines.map((l) => l.replace(/^core-agent code cache: .*?cli-[0-9a-f]+-[0-9a-f]+-/, ''));
    return { code: r.status, stdout: r.stdout, stderr: r.stderr, said };
  }
  const files = () =>
    existsSync(cache)
      ? readdirSync(cache, { withFileTypes: true })
          .filter((e) => e.isFile() && e.name.endsWith('.v8'))
          .map((e) => e.name)
      : [];

  it('written after the first run, taken by the next, never written again', () => {
    expect(run(['tools', 'list']).said).toEqual(['tools-list.v8: absent', expect.stringMatching(/^tools-list\.v8: written, \d+ bytes$/)]);
    const [file] = files();
    expect(file).toMatch(CACHE_FILE);
    const written = statSync(path.join(cache, file!)).mtimeMs;
    expect(run(['tools', 'list']).said).toEqual(['tools-list.v8: accepted']);
    expect(statSync(path.join(cache, file!)).mtimeMs).toBe(written);
    // Another command line keeps a file of its own.
    expect(run(['recipe', 'schema']).said).toEqual(['recipe-schema.v8: absent', expect.stringMatching(/^recipe-schema\.v8: written/)]);
    expect(files()).toHaveLength(2);
  });

  it('a damaged file never reaches V8: it goes, is written again, and the command runs as ever', () => {
    run(['tools', 'list']);
    const [file] = files();
    const full = path.join(cache, file!);
    const good = readFileSync(full);
    // Past V8's own header: damage V8 would take (and crash on), which the file's seal refuses.
    writeFileSync(full, Buffer.concat([good.subarray(0, 76), Buffer.alloc(good.length - 76, 7)]));
    const r = run(['tools', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toContainEqual(expect.objectContaining({ name: 'read_file' }));
    expect(r.said).toEqual(['tools-list.v8: damaged', 'tools-list.v8: absent', expect.stringMatching(/^tools-list\.v8: written/)]);
    expect(run(['tools', 'list']).said).toEqual(['tools-list.v8: accepted']);
  });

  it('a failing command writes nothing; a help request writes a help file, which the command replaces', () => {
    expect(run(['tools', 'list', '--no-such-flag']).code).toBe(2);
    expect(files()).toEqual([]);
    expect(run(['tools', 'list', '--help']).said).toEqual([
      'tools-list.v8: absent',
      expect.stringMatching(/^tools-list\.help\.v8: written/),
    ]);
    expect(run(['tools', 'list', '--help']).said).toEqual(['tools-list.help.v8: accepted']);
    // The command proper takes the help file (V8 accepts it) and writes its own.
    expect(run(['tools', 'list']).said).toEqual(['tools-list.help.v8: accepted', expect.stringMatching(/^tools-list\.v8: written/)]);
    expect(run(['tools', 'list']).said).toEqual(['tools-list.v8: accepted']);
    // A help request is served by the command's file once there is one.
    expect(run(['tools', 'list', '--help']).said).toEqual(['tools-list.v8: accepted']);
  });

  it('a command’s file V8 refuses or that fails its check goes: a help request then serves from its own, never rewriting it', () => {
    // Made under another V8 flag (the user's), then refused by a plain help request: removed.
    const made = spawnSync(process.execPath, ['--expose-gc', bundle, 'tools', 'list'], {
      cwd: home,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: home },
    });
    expect(made.status, made.stderr).toBe(0);
    expect(files().map((f) => f.replace(/^cli-[0-9a-f]+-[0-9a-f]+-/, ''))).toEqual(['tools-list.v8']);
    expect(run(['tools', 'list', '--help']).said).toEqual([
      'tools-list.v8: rejected',
      expect.stringMatching(/^tools-list\.help\.v8: written/),
    ]);
    expect(run(['tools', 'list', '--help']).said).toEqual(['tools-list.help.v8: accepted']);
    expect(run(['tools', 'list', '--help']).said).toEqual(['tools-list.help.v8: accepted']);
    // Damaged: removed before V8 sees it, and the next file read.
    expect(run(['tools', 'list']).said).toEqual(['tools-list.help.v8: accepted', expect.stringMatching(/^tools-list\.v8: written/)]);
    const [own] = files().filter((f) => f.endsWith('-tools-list.v8'));
    writeFileSync(path.join(cache, own!), 'damaged');
    expect(run(['tools', 'list', '--help']).said).toEqual([
      expect.stringMatching(/tools-list\.v8: damaged$/),
      'tools-list.help.v8: accepted',
    ]);
    expect(files().filter((f) => f.endsWith('-tools-list.v8'))).toEqual([]);
  });

  it('a run that changes V8’s flags on the way (WebAssembly, for bash’s parser) still writes a cache the next start takes', () => {
    const call = ['tools', 'call', 'bash', '{"command":"echo hi | cat"}', '--yolo'];
    const first = run(call);
    expect(first.code, first.stderr).toBe(0);
    expect(first.said).toEqual(['tools-call.v8: absent', expect.stringMatching(/^tools-call\.v8: written/)]);
    const second = run(call);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ exit_code: 0, output: 'hi\n' });
    expect(second.said).toEqual(['tools-call.v8: accepted']);
  });

  it('a directory that cannot be made: the command runs, nothing is written, nothing said but in debug', () => {
    writeFileSync(path.join(home, 'file'), '');
    const env = { XDG_CACHE_HOME: path.join(home, 'file', 'cache') };
    const r = run(['tools', 'list'], env);
    expect(r.code).toBe(0);
    expect(r.said).toEqual(['tools-list.v8: absent', expect.stringMatching(/^tools-list\.v8: not written \(ENOTDIR/)]);
    expect(readdirSync(home)).toEqual(['file']);
    const quiet = spawnSync(process.execPath, [bundle, 'tools', 'list'], {
      cwd: home,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: home, ...env },
    });
    expect([quiet.status, quiet.stderr]).toEqual([0, '']);
  });

  it('the CLI prunes its own cache directory when it writes a file there, the only time it grows: Node’s old directories go', () => {
    const nodeDir = path.join(cache, 'v24.0.0-x64-00000000-0');
    mkdirSync(nodeDir, { recursive: true });
    writeFileSync(path.join(nodeDir, 'e'), 'x');
    expect(run(['tools', 'list']).code).toBe(0);
    expect(readdirSync(cache).sort()).toEqual(['.pruned', ...files()].sort());
    expect(files()).toHaveLength(1);
    // A start that finds its file writes nothing and does not prune: the old directory and the missing stamp stay.
    mkdirSync(nodeDir);
    rmSync(path.join(cache, '.pruned'));
    expect(run(['tools', 'list']).said).toEqual(['tools-list.v8: accepted']);
    expect(existsSync(nodeDir)).toBe(true);
    expect(existsSync(path.join(cache, '.pruned'))).toBe(false);
    expect(run(['recipe', 'schema']).said).toEqual(['recipe-schema.v8: absent', expect.stringMatching(/^recipe-schema\.v8: written/)]);
    expect(readdirSync(cache).sort()).toEqual(['.pruned', ...files()].sort());
    expect(files()).toHaveLength(2);
  });
});
