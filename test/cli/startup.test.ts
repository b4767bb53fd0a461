import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_HELP, VERSION } from '../../src/cli/main-help.ts';
import { ONE_STEP_REPLAY, STARTUP_CASES } from './startup.cases.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bundle = path.join(root, 'dist/core-agent.mjs');

// A preload that reports, at exit, the built-ins the process loaded and whether the CLI ran:
// src/cli/start.ts sets process.exitCode from the command's status, which the entry's own
// answers (--version, --help) never set. No timing, only what ran.
// And the threads it had: their names, from /proc (libuv's pool threads are libuv-worker). And
// whether zod was evaluated: its core module sets globalThis.__zod_globalConfig (the CLI's script
// runs in this context, src/startup/cli-script.ts).
const PRELOAD = `process.on('exit', () => {
  const fs = require('node:fs');
  fs.writeFileSync(process.env.STARTUP_REPORT, JSON.stringify({
    builtins: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length)),
    cliRan: process.exitCode !== undefined,
    threads: fs.readdirSync('/proc/self/task').map((t) => fs.readFileSync('/proc/self/task/' + t + '/comm', 'utf8').trim()),
    zod: globalThis.__zod_globalConfig !== undefined,
  }));
});`;

let dir: string;
/** A copy of the entry file alone: what --version and --help must be answered from. */
let entryAlone: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'core-agent-startup-'));
  writeFileSync(path.join(dir, 'preload.cjs'), PRELOAD);
  writeFileSync(path.join(dir, ONE_STEP_REPLAY.file), ONE_STEP_REPLAY.text);
  mkdirSync(path.join(dir, 'entry-alone'));
  entryAlone = path.join(dir, 'entry-alone', 'core-agent.mjs');
  copyFileSync(bundle, entryAlone);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(argv: string[], extra: Record<string, string> = {}, bin = bundle) {
  const home = mkdtempSync(path.join(dir, 'home-'));
  const unusable = path.join(dir, 'preload.cjs');
  const env = Object.fromEntries(
    Object.entries(extra).map(([k, v]) => [k, v.replaceAll('{unusable}', unusable).replaceAll('{home}', home)]),
  );
  const report = path.join(dir, 'report.json');
  const r = spawnSync(process.execPath, ['--require', path.join(dir, 'preload.cjs'), bin, ...argv], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: home, STARTUP_REPORT: report, ...env },
  });
  const loaded = JSON.parse(readFileSync(report, 'utf8')) as { builtins: string[]; cliRan: boolean; threads: string[]; zod: boolean };
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, home, ...loaded };
}

/** Every file under dir, relative to it. */
const filesUnder = (at: string): string[] =>
  readdirSync(at, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);

describe('start-up: what each command line loads (the bundle)', () => {
  it.each(STARTUP_CASES)('$argv $env', ({ argv, stdout, stderr, cli, notLoaded, env, cacheIn }) => {
    for (const bin of cli ? [bundle] : [bundle, entryAlone]) {
      const r = start(argv, env, bin);
      if (stderr === undefined) expect(r.stderr).toBe('');
      else expect(r.stderr).toMatch(stderr);
      expect(r.code).toBe(0);
      if (stdout === 'version') expect(r.stdout).toBe(`${VERSION}\n`);
      else if (stdout === 'help') expect(r.stdout).toBe(`${MAIN_HELP}\n`);
      else expect(r.stdout).toMatch(stdout);
      expect(r.cliRan).toBe(cli);
      expect(r.builtins.filter((m) => notLoaded.includes(m))).toEqual([]);
      if (cacheIn === '') expect(readdirSync(r.home)).toEqual([]);
      else if (cacheIn !== undefined) {
        expect(readdirSync(r.home)).toEqual([cacheIn]);
        expect(filesUnder(path.join(r.home, cacheIn)).length).toBeGreaterThan(0);
      }
    }
  });

  // src/startup/fs-callbacks.ts: the start-up's file calls are synchronous, so a command that makes
  // no other asynchronous call never starts libuv's pool of four threads.
  it.each([[['tools', 'list', '--json']], [['--version']]])('%j starts no libuv worker thread', (argv) => {
    const r = start(argv);
    expect(r.code).toBe(0);
    expect(r.threads.length).toBeGreaterThan(1);
    expect(r.threads.filter((t) => t.startsWith('libuv-worker'))).toEqual([]);
  });

  // The catalog registers from the tools' heads and head modules (docs/startup.md): listing builds
  // no zod schema, and evaluates no module that does at its top level. Twice an import did (the
  // .mcp.json reader's, then the peers family's services' of the peers schema), which the
  // collections below found: zod's schemas were ~3 MB of the listing's heap.
  it.each([[['tools', 'list', '--json']], [['tools', 'list']], [['--version']]])('%j evaluates no zod', (argv) => {
    const r = start(argv);
    expect(r.code).toBe(0);
    expect(r.zod).toBe(false);
  });

  it('the report sees zod when a command evaluates it (tools call read_file checks its arguments)', () => {
    writeFileSync(path.join(dir, 'zod.txt'), 'z\n');
    const r = start(['tools', 'call', 'read_file', '{"path": "zod.txt"}']);
    expect(r.code).toBe(0);
    expect(r.zod).toBe(true);
  });

  // src/cli/start-tools.ts: `tools …` loads the tools' script, never the whole CLI's.
  it('tools list runs from the entry, the tools’ script and the chunks alone; tools call needs the whole CLI', () => {
    const alone = path.join(dir, 'tools-alone');
    mkdirSync(alone);
    for (const f of ['core-agent.mjs', 'core-agent-tools.js', 'core-agent-tools.js.map', 'core-agent-chunks.txt'])
      copyFileSync(path.join(root, 'dist', f), path.join(alone, f));
    const bin = path.join(alone, 'core-agent.mjs');
    const list = start(['tools', 'list', '--json'], {}, bin);
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/"name": "read_file"/);
    // A recipe is read with zod from its chunk, in the chunks file beside the script.
    writeFileSync(path.join(dir, 'golem.yaml'), 'tools:\n  dialect: golem\n');
    const recipe = start(['tools', 'list', '--recipe', 'golem.yaml'], {}, bin);
    expect(recipe.stderr).toBe('');
    expect(recipe.stdout).toMatch(/^WriteFile \(write_file\) /m);
    // tools call, like any other command, needs the whole CLI's script, which this copy lacks.
    for (const argv of [
      ['tools', 'call', 'read_file', '{"path": "note.txt"}'],
      ['recipe', 'schema'],
    ]) {
      const r = spawnSync(process.execPath, [bin, ...argv], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: dir } });
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain('core-agent-cli.js');
    }
  });

  it('the version is the package version, and the help names every command', async () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
    for (const command of ['run', 'repl', 'sessions', 'tools', 'recipe', 'mcp', 'watch'])
      expect(MAIN_HELP).toMatch(new RegExp(`^  ${command} `, 'm'));
  });
});

// src/startup/cli-script.ts (collectYoungNow) has V8 collect its young generation right after the
// CLI's source is read, while little but the source is young: then a `tools list` needs no
// other collection, where left alone V8 collected once the CLI's modules were evaluated (a
// scavenge "task", copying ~1 MB of their objects). V8's own trace names each collection and
// why it ran; the second run is the user's usual one, from the code cache the first wrote.
describe('start-up: young-generation collections (the bundle)', () => {
  it('tools list --json: one collection, made when the source is read', () => {
    const home = mkdtempSync(path.join(dir, 'gc-home-'));
    const run = () =>
      spawnSync(process.execPath, ['--trace-gc', bundle, 'tools', 'list', '--json'], {
        cwd: dir,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: home },
      });
    expect(run().status).toBe(0);
    const r = run();
    expect(r.status).toBe(0);
    const collections = r.stdout.split('\n').filter((line) => /^\[\d+:0x[0-9a-f]+\]\s+\d+ ms: /.test(line));
    // Three from 882274c on: not the bundle's layout but zod, evaluated at every start by a static
    // import (claude-mcp-json.ts from load-config.ts, then peers-schema.ts from the peers family's
    // services), its schemas ~3 MB more of young objects. The zod test above names the cause.
    expect(collections.length, collections.join('\n')).toBe(1);
    expect(collections[0]).toMatch(/ Scavenge .* allocation failure/);
  });
});
