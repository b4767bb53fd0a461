// src/startup/daemon-start.ts: watch and serve keep V8's young generation at its initial size and
// start with the optimizing compilers off; every other command lets V8 grow it. Read from the
// process itself: a preload that, at exit, allocates objects that all survive (what grows the
// new space) and reports its size.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeKubeApi } from '../../bench/fake-kube-api.ts';
import { startsAsDaemon, userCompilerFlags } from '../../src/startup/daemon-start.ts';

const bundle = path.resolve(import.meta.dirname, '../../dist/core-agent.mjs');
const PRELOAD = `process.on('exit', () => {
  const keep = [];
  for (let i = 0; i < 400000; i++) keep.push({ i, s: 'x' + i });
  const space = require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  require('node:fs').writeFileSync(process.env.REPORT, String(space.space_size / 1048576));
});`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'core-agent-young-'));
  writeFileSync(path.join(dir, 'preload.cjs'), PRELOAD);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The new space's size in MiB at exit, after the preload's allocations. */
function newSpaceMib(argv: string[], env: Record<string, string> = {}): number {
  const report = path.join(dir, 'report');
  const r = spawnSync(process.execPath, ['--require', path.join(dir, 'preload.cjs'), bundle, ...argv], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: dir, REPORT: report, ...env },
  });
  expect(r.status, r.stderr).toBe(0);
  return Number(readFileSync(report, 'utf8'));
}

describe('a daemon’s start', () => {
  it.each([
    [['watch'], true],
    [['serve', '--listen', '127.0.0.1:0'], true],
    [['run', 'hi'], false],
    [['tools', 'list'], false],
    [['--version'], false],
    [[], false],
    [['--watch'], false],
  ])('%j holds it: %s', (argv, held) => {
    expect(startsAsDaemon(argv)).toBe(held);
  });

  // V8 checks a cache against the flags it was made under; the daemons' files are their own
  // (made under the flags they start with), so neither side recompiles the CLI after the other.
  it.each([[{}], [{ NODE_COMPILE_CACHE: 'ncc' }], [{ CORE_AGENT_COMPILE_CACHE: 'cac' }]])(
    'the code cache is accepted, daemon or not, in any order (%j)',
    (extra) => {
      const home = mkdtempSync(path.join(dir, 'home-'));
      const env = Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, path.join(home, v)]));
      const run = (argv: string[]) =>
        spawnSync(process.execPath, [bundle, ...argv], {
          cwd: dir,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, HOME: home, NODE_DEBUG: 'core-agent', ...env },
        }).stderr;
      // Fill each one's file: the commands', then the daemons' (help requests: help files).
      for (const argv of [
        ['tools', 'list'],
        ['watch', '--help'],
        ['serve', '--help'],
      ])
        expect(run(argv)).toMatch(/: written, \d+ bytes/);
      const later = [run(['tools', 'list']), run(['watch', '--help']), run(['serve', '--help']), run(['tools', 'list'])];
      for (const stderr of later) {
        expect(stderr).toMatch(/\.v8: accepted\n/);
        expect(stderr).not.toMatch(/rejected|written/);
      }
    },
  );

  it.each([
    ['watch', '--help'],
    ['serve', '--help'],
  ])('%s %s: stays at 1 MiB per semi-space', (...argv) => {
    expect(newSpaceMib(argv)).toBeLessThanOrEqual(2);
  });

  it.each([
    ['tools', '--help'],
    ['run', '--help'],
  ])('%s %s: V8 grows it (the control)', (...argv) => {
    expect(newSpaceMib(argv)).toBeGreaterThan(2);
  });

  // The compilers: V8's own account of a hot function (%GetOptimizationStatus, bit 4 optimized,
  // bit 7 interpreted), before the daemon starts, while it starts, and once it is up.
  it('start-up runs on the interpreter; once up, hot code is optimized again', () => {
    const probe = path.join(dir, 'tiers.mjs');
    writeFileSync(
      probe,
      `const { startAsDaemon, daemonReady } = await import(${JSON.stringify(path.resolve(import.meta.dirname, '../../src/startup/daemon-start.ts'))});
let n = 0;
const hot = () => { const f = new Function('x', 'return x * ' + ++n + ' + 1'); let s = 0; for (let i = 0; i < 200000; i++) s += f(i); return %GetOptimizationStatus(f); };
const before = hot();
startAsDaemon(process.env);
const starting = hot();
daemonReady();
const up = hot();
daemonReady();
process.stdout.write(JSON.stringify({ before, starting, up, again: hot() }));
`,
    );
    const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--no-concurrent-recompilation', probe], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const s = JSON.parse(r.stdout) as Record<string, number>;
    const optimized = (status: number) => (status & (1 << 4)) !== 0;
    const interpreted = (status: number) => (status & (1 << 7)) !== 0;
    expect(optimized(s.before!)).toBe(true);
    expect([optimized(s.starting!), interpreted(s.starting!)]).toEqual([false, true]);
    expect(optimized(s.up!)).toBe(true);
    expect(optimized(s.again!)).toBe(true);
    // Compiler flags given to Node are the user's: --no-opt on its command line still holds once the daemon is up.
    const theirs = spawnSync(
      process.execPath,
      ['--allow-natives-syntax', '--no-concurrent-recompilation', '--no-opt', '--no-maglev', probe],
      {
        encoding: 'utf8',
      },
    );
    expect(theirs.stderr).toBe('');
    const t = JSON.parse(theirs.stdout) as Record<string, number>;
    expect([optimized(t.before!), optimized(t.up!), optimized(t.again!)]).toEqual([false, false, false]);
  });

  // Where the product says the daemon is up: the process-wide mark daemon-start.ts keeps, read at exit.
  const MARK = `process.on('exit', () => require('node:fs').writeFileSync(process.env.REPORT, String(globalThis[Symbol.for('core-agent.daemon-start')])));`;

  it.each([
    [['watch', '--help'], 'starting'],
    [['tools', 'list'], 'undefined'],
  ])('%j leaves the mark %s', (argv, mark) => {
    writeFileSync(path.join(dir, 'mark.cjs'), MARK);
    const report = path.join(dir, 'mark');
    const r = spawnSync(process.execPath, ['--require', path.join(dir, 'mark.cjs'), bundle, ...argv], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: dir, REPORT: report },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(report, 'utf8')).toBe(mark);
  });

  /**
   * A daemon of the bundle in `home` with the mark preload; `up` polls until it answers true.
   * Stopped with SIGTERM, it must exit 0; returns the mark it left and what it printed.
   */
  async function daemonMark(argv: string[], home: string, env: Record<string, string>, up: (out: string) => Promise<boolean>) {
    writeFileSync(path.join(dir, 'mark.cjs'), MARK);
    const report = path.join(home, 'mark');
    const child = spawn(process.execPath, ['--require', path.join(dir, 'mark.cjs'), bundle, ...argv], {
      cwd: home,
      env: { PATH: process.env.PATH, HOME: home, REPORT: report, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const deadline = Date.now() + 20_000;
      let ready = false;
      while (!ready && child.exitCode === null && Date.now() < deadline) {
        ready = await up(out);
        if (!ready) await new Promise((r) => setTimeout(r, 50));
      }
      expect(ready, out).toBe(true);
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
    return { mark: readFileSync(report, 'utf8'), out };
  }

  it('watch is up once its informer has synced: /readyz answers 200, the compilers are back on, its code cache written', async () => {
    const home = mkdtempSync(path.join(dir, 'watch-'));
    const api = await startFakeKubeApi(path.join(home, 'kubeconfig'));
    writeFileSync(path.join(home, 'watch.yaml'), 'watch: { namespaces: [shop], reasons: [BackOff] }\n');
    writeFileSync(path.join(home, 'incident.jsonl'), '{"text":"UNRESOLVED: test"}\n');
    const argv = ['watch', '-c', 'watch.yaml', '--model', 'replay:incident.jsonl', '--session-db', 's.db', '--listen', '127.0.0.1:0'];
    const synced = async (out: string) => {
      const url = /health and metrics on (http:\/\/\S+)/.exec(out)?.[1];
      return url !== undefined && (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200;
    };
    const env = { KUBECONFIG: api.kubeconfig, NODE_DEBUG: 'core-agent' };
    const cacheSaid = (out: string) =>
      out
        .split('\n')
        .filter((l) => l.startsWith('core-agent code cache: '))
        .map((l) => l.replace(/^.*cli-[0-9a-f]+-[0-9a-f]+-/, ''));
    try {
      // The first start writes the watcher's cache once it is up (under the flags it started
      // with: the compilers are back on only after), the second takes it.
      const first = await daemonMark(argv, home, env, synced);
      expect(first.mark).toBe('ready');
      expect(cacheSaid(first.out)).toEqual(['watch.v8: absent', expect.stringMatching(/^watch\.v8: written, \d+ bytes$/)]);
      const second = await daemonMark(argv, home, env, synced);
      expect(second.mark).toBe('ready');
      expect(cacheSaid(second.out)).toEqual(['watch.v8: accepted']);
    } finally {
      await api.close();
    }
  });

  it('a watcher stopped before it is up writes no code cache: its file would hold half a start for good', async () => {
    const home = mkdtempSync(path.join(dir, 'watch-unsynced-'));
    // An API that accepts connections and never answers: the informer never syncs.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    writeFileSync(
      path.join(home, 'kubeconfig'),
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        // Plain http is refused unless the kubeconfig says so.
        clusters: [{ name: 'c', cluster: { server: `http://127.0.0.1:${port}`, 'insecure-skip-tls-verify': true } }],
        contexts: [{ name: 'c', context: { cluster: 'c', user: 'u', namespace: 'shop' } }],
        users: [{ name: 'u', user: { token: 'x' } }],
        'current-context': 'c',
      }),
    );
    writeFileSync(path.join(home, 'watch.yaml'), 'watch: { namespaces: [shop], reasons: [BackOff] }\n');
    writeFileSync(path.join(home, 'incident.jsonl'), '{"text":"UNRESOLVED: test"}\n');
    const argv = ['watch', '-c', 'watch.yaml', '--model', 'replay:incident.jsonl', '--session-db', 's.db', '--listen', '127.0.0.1:0'];
    const listening = async (out: string) => /health and metrics on (http:\/\/\S+)/.test(out);
    try {
      const stopped = await daemonMark(argv, home, { KUBECONFIG: path.join(home, 'kubeconfig'), NODE_DEBUG: 'core-agent' }, listening);
      expect(stopped.mark).toBe('starting');
      const said = stopped.out.split('\n').filter((l) => l.startsWith('core-agent code cache: '));
      expect(said).toEqual([expect.stringMatching(/-watch\.v8: absent$/)]);
      const cacheDir = path.join(home, '.cache', 'core-agent', 'compile-cache');
      expect(existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => f.includes('.v8')) : []).toEqual([]);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('releaseStartupMemory returns what start-up dropped to the system, and leaves gc() to no one', () => {
    const probe = path.join(dir, 'release.mjs');
    writeFileSync(
      probe,
      `import { runInNewContext } from 'node:vm';
const { releaseStartupMemory } = await import(${JSON.stringify(path.resolve(import.meta.dirname, '../../src/startup/daemon-start.ts'))});
const rss = () => process.memoryUsage().rss;
// Start-up's garbage: long-lived enough to reach the old space, then dropped.
let keep = [];
for (let i = 0; i < 300000; i++) keep.push({ i, s: 'x'.repeat(20) + i });
await new Promise((r) => setTimeout(r, 50));
keep = undefined;
const before = rss();
releaseStartupMemory();
const after = rss();
process.stdout.write(JSON.stringify({ freedMib: (before - after) / 1048576, here: typeof globalThis.gc, fresh: runInNewContext('typeof gc') }));
`,
    );
    const r = spawnSync(process.execPath, [probe], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { freedMib: number; here: string; fresh: string };
    expect(out.freedMib).toBeGreaterThan(10);
    expect(out.here).toBe('undefined');
    expect(out.fresh).toBe('undefined');
  });

  it.each([
    ['--no-opt', true],
    ['--no_opt --no_maglev', true],
    ['--max-opt=0', true],
    ['--max_opt=1', true],
    ['--turbofan', true],
    ['--jitless', true],
    ['--no-sparkplug', true],
    ['--expose-gc --stack-size=2000', false],
    ['--optimize-for-size', false],
    ['--opt-foo', false],
    ['--max-old-space-size=64', false],
    ['', false],
  ])('user compiler flags in %j: %s', (args, theirs) => {
    expect(userCompilerFlags(args)).toBe(theirs);
  });

  it("releaseStartupMemory uses the user's gc() when Node was given --expose-gc, and leaves it to them", () => {
    const probe = path.join(dir, 'own-gc.mjs');
    writeFileSync(
      probe,
      `import { runInNewContext } from 'node:vm';
const { releaseStartupMemory } = await import(${JSON.stringify(path.resolve(import.meta.dirname, '../../src/startup/daemon-start.ts'))});
let calls = 0;
const theirs = globalThis.gc;
globalThis.gc = (o) => { calls++; return theirs(o); };
releaseStartupMemory();
process.stdout.write(JSON.stringify({ calls, fresh: runInNewContext('typeof gc') }));
`,
    );
    const r = spawnSync(process.execPath, ['--expose-gc', probe], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ calls: 1, fresh: 'function' });
  });

  it('serve is up once it listens', async () => {
    const home = mkdtempSync(path.join(dir, 'serve-'));
    writeFileSync(path.join(home, 'script.jsonl'), '{"text":"done"}\n');
    const argv = ['serve', '--listen', '127.0.0.1:0', '-m', 'replay:script.jsonl', '--session-db', 's.db'];
    const listening = async (out: string) => /attach API on http/.test(out);
    expect((await daemonMark(argv, home, {}, listening)).mark).toBe('ready');
  });
});
