// What a command run by bash can read of core-agent's memory and environment, and of an MCP
// server's, through /proc: each case of proc-secrets.cases.ts as the built CLI's `tools call
// bash` (as an unprivileged uid, or as root), the command being
// test/fixtures/proc-read/read-secrets.sh. The reads must fail where docs/shell.md says they
// do, and succeed where it says they do: those rows show the reader can find what it looks for.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle } from '../helpers/cli.ts';
import { testServer } from '../mcp/helpers.ts';
import { MiB, mountTmpfs } from '../helpers/tmpfs.ts';
import { PROC_SECRETS_CASES, type ProcSecretsCase, type ReadResult } from './proc-secrets.cases.ts';

const reader = fileURLToPath(new URL('../fixtures/proc-read/read-secrets.sh', import.meta.url));
const isRoot = process.getuid?.() === 0;
/** The unprivileged uid core-agent runs as: nobody when the test is root, else the test's own. */
const NOBODY = isRoot ? 65534 : process.getuid?.();
const hasSetpriv = spawnSync('setpriv', ['--version']).status === 0;

/** Why this machine cannot run the matrix at all, or undefined. */
const unable =
  process.platform !== 'linux' || !existsSync('/proc/self/maps')
    ? 'Linux /proc only'
    : isRoot && !hasSetpriv
      ? 'running as root without setpriv (util-linux) to drop to an unprivileged uid'
      : undefined;
if (unable) console.warn(`proc-secrets.test.ts: skipped: ${unable}`);

/** Yama's ptrace_scope (0 without Yama): 1 and 2 keep a non-root command from attaching to what is not its descendant. */
const yama = (() => {
  try {
    return Number(readFileSync('/proc/sys/kernel/yama/ptrace_scope', 'utf8').trim());
  } catch {
    return 0;
  }
})();

/** The case's expectation on this machine: a `found` in memory is `denied` where Yama forbids the attach. */
function expected(c: ProcSecretsCase, what: 'agentMem' | 'serverMem'): ReadResult {
  const root = c.user === 'root';
  const attachRefused = yama === 3 || (yama >= 1 && !root);
  return attachRefused && c[what] === 'found' ? 'denied' : c[what];
}

let base: string;
/** $XDG_STATE_HOME of the unprivileged runs, shared: core-agent's execute-only node is copied there once. */
let nobodyState: string;
/** An execute-only copy of node that the MCP server runs from in the `exec-only` rows. */
let execOnlyNode: string;

beforeAll(async () => {
  if (unable) return;
  base = await mkdtemp(path.join(tmpdir(), 'core-agent-proc-secrets-'));
  await chmod(base, 0o755);
  nobodyState = path.join(base, 'state');
  await mkdir(nobodyState, { mode: 0o700 });
  const bin = path.join(base, 'bin');
  await mkdir(bin, { mode: 0o755 });
  execOnlyNode = path.join(bin, 'node');
  await copyFile(process.execPath, execOnlyNode);
  await chmod(execOnlyNode, 0o100);
  await chown(nobodyState, NOBODY!, NOBODY!);
  await chown(execOnlyNode, NOBODY!, NOBODY!);
}, 120_000);

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

/** The recipe's command (and exec_only) for a kind of server; scripts are written into the workspace. */
async function serverFor(kind: ProcSecretsCase['server'], ws: string): Promise<{ command: string; exec_only?: boolean }> {
  const script = async (name: string, text: string) => {
    const file = path.join(ws, name);
    await writeFile(file, text, { mode: 0o755 });
    return file;
  };
  switch (kind) {
    case 'exec-only':
      return { command: execOnlyNode };
    case 'node':
      return { command: process.execPath };
    case 'node-opt-out':
      return { command: process.execPath, exec_only: false };
    case 'env-node':
      return { command: await script('probe-server.mjs', '#!/usr/bin/env node\nawait import(process.argv[2]);\n') };
    case 'sh-wrapper':
      // Not exec: node stays the wrapper's child.
      return { command: await script('probe-server.sh', '#!/bin/sh\nnode "$@"\nexit $?\n') };
  }
}

function run(
  args: string[],
  cwd: string,
  user: 'nobody' | 'root',
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const drop = user === 'nobody' && isRoot ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'] : [];
  const argv = [...drop, process.execPath, bundle, ...args];
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end();
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(unable !== undefined)('secrets through /proc, read by a command bash runs', () => {
  it.for(PROC_SECRETS_CASES.map((c) => [c.name, c] as const))('%s', { timeout: 300_000 }, async ([, c], ctx) => {
    if (c.user === 'root' && !isRoot) ctx.skip('a root row: the test does not run as root');
    const ws = path.join(base, `ws-${randomBytes(4).toString('hex')}`);
    await mkdir(ws, { mode: 0o755 });
    const key = `sk-planted-${randomBytes(12).toString('hex')}`;
    const value = `planted-env-${randomBytes(12).toString('hex')}`;
    const server = await serverFor(c.server, ws);
    await writeFile(
      path.join(ws, 'recipe.yaml'),
      JSON.stringify({ mcp: { servers: { probe: { ...server, args: [testServer], env: { PROBE_TOKEN: value } } } } }),
    );
    if (c.user === 'nobody') await chown(ws, NOBODY!, NOBODY!);
    // Each secret in two halves: the command line, which core-agent holds, never has it whole.
    const half = (s: string) => [s.slice(0, 12), s.slice(12)];
    const command = ['sh', reader, '$PPID', path.basename(testServer), ...half(key), ...half(value)].join(' ');
    const env: NodeJS.ProcessEnv = {
      // The node running the tests first: `#!/usr/bin/env node` and a wrapper's `node` find it.
      PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`,
      HOME: ws,
      ...(c.user === 'nobody' ? { XDG_STATE_HOME: nobodyState } : {}),
      OPENAI_API_KEY: key,
      ...c.env,
    };
    const r = await run(
      ['tools', 'call', 'bash', JSON.stringify({ command, timeout: 300 }), '--yolo', '-c', 'recipe.yaml'],
      ws,
      c.user,
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const output = String((JSON.parse(r.stdout) as { output: string }).output);
    const seen = Object.fromEntries(
      output
        .trim()
        .split('\n')
        .map((l) => l.split(' ') as [string, string]),
    );
    expect(seen).toEqual({
      'agent-mem': expected(c, 'agentMem'),
      'agent-environ': c.agentEnviron,
      'server-environ': c.serverEnviron,
      'server-mem': expected(c, 'serverMem'),
    });
    // Nothing said it could not make itself non-dumpable, nor blank its environment.
    expect(r.stderr).not.toMatch(/could not make itself non-dumpable|could not blank credentials/);
    // A server left readable is said, with why; one that is not, is not.
    const said = r.stderr.split('\n').filter((l) => l.includes('env: values are readable'));
    if (c.warns) expect(said, r.stderr).toEqual([expect.stringMatching(/ran a readable file/)]);
    else expect(said, r.stderr).toEqual([]);
  });
});

describe.skipIf(unable !== undefined)('where core-agent cannot make itself non-dumpable', () => {
  /** `tools call bash` of `true` as the unprivileged uid, with this state directory. */
  const callTrue = (ws: string, state: string) =>
    run(['tools', 'call', 'bash', '{"command":"true"}', '--yolo'], ws, 'nobody', {
      PATH: process.env.PATH,
      HOME: ws,
      XDG_STATE_HOME: state,
      OPENAI_API_KEY: 'sk-planted-warning-test',
    });
  const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.includes('could not make itself non-dumpable'));

  it('a state directory on a noexec mount: the copy is tried once, refused, and each start says so once and runs', async (ctx) => {
    const disk = await mountTmpfs(ctx, { bytes: 256 * MiB });
    await promisify(execFile)('mount', ['-o', 'remount,noexec', disk.dir]);
    const state = path.join(disk.dir, 'state');
    await mkdir(state, { mode: 0o700 });
    await chown(state, NOBODY!, NOBODY!);
    const ws = path.join(base, `ws-${randomBytes(4).toString('hex')}`);
    await mkdir(ws, { mode: 0o755 });
    await chown(ws, NOBODY!, NOBODY!);
    for (const attempt of [1, 2]) {
      const r = await callTrue(ws, state);
      expect(r.code, r.stderr).toBe(0);
      const said = warnings(r.stderr);
      expect(said, `start ${attempt}`).toHaveLength(1);
      expect(JSON.parse(said[0]!)).toMatchObject({
        level: 40,
        reason: expect.stringMatching(attempt === 1 ? /cannot be run \(EACCES\)/ : /was tried and does not make node non-dumpable/),
      });
      // Dumpable, so the environment block is blanked instead, and that worked.
      expect(r.stderr).not.toMatch(/could not blank credentials/);
    }
    const kept = await readdir(path.join(state, 'core-agent/exec-only'));
    expect(kept.filter((f) => f.endsWith('.refused'))).toHaveLength(1);
    // No copy left behind: neither the refused one nor a temporary file.
    expect(kept.filter((f) => !f.endsWith('.refused'))).toEqual([]);
  }, 300_000);

  it('a state directory it cannot write: one warning naming it, and the command runs', async () => {
    const ws = path.join(base, `ws-${randomBytes(4).toString('hex')}`);
    await mkdir(ws, { mode: 0o755 });
    await chown(ws, NOBODY!, NOBODY!);
    // Root's, 0755: the unprivileged uid cannot make core-agent/ in it.
    const state = path.join(base, `ro-state-${randomBytes(4).toString('hex')}`);
    await mkdir(state, { mode: 0o755 });
    const r = await callTrue(ws, state);
    expect(r.code, r.stderr).toBe(0);
    const said = warnings(r.stderr);
    expect(said).toHaveLength(1);
    expect(JSON.parse(said[0]!)).toMatchObject({ reason: expect.stringMatching(/EACCES.*core-agent/) });
  }, 120_000);
});
