// The runner of daemon-cleanup.cases.ts: the built bundle's watch (against a fake Kubernetes API
// on 127.0.0.1) and serve, each ended one way, then checked for what it left open: anything
// that keeps the event loop alive (a server, a timer) by the process not exiting, the session
// database by the descriptors still open at exit.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeKubeApi, type FakeKubeApi } from '../../bench/fake-kube-api.ts';
import { DAEMON_CLEANUP_CASES, type DaemonCleanupCase } from './daemon-cleanup.cases.ts';

const bundle = path.resolve(import.meta.dirname, '../../dist/core-agent.mjs');

/**
 * Loaded before the bundle: at 'exit' — after the command returned, before Node tears down
 * (which would close a forgotten database itself) — it writes what each descriptor of the
 * process still points to.
 */
const OPEN_AT_EXIT = `process.on('exit', () => {
  const fs = require('node:fs');
  const open = fs.readdirSync('/proc/self/fd').map((fd) => { try { return fs.readlinkSync('/proc/self/fd/' + fd); } catch { return ''; } });
  fs.writeFileSync(process.env.OPEN_AT_EXIT, JSON.stringify(open));
});`;

let dir: string;
let api: FakeKubeApi;
let held: Server;
let port: number;
let free: number;

const listen = (server: Server) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'core-agent-daemon-cleanup-'));
  writeFileSync(path.join(dir, 'open-at-exit.cjs'), OPEN_AT_EXIT);
  api = await startFakeKubeApi(path.join(dir, 'kubeconfig'));
  held = createServer();
  port = await listen(held);
  const gone = createServer();
  free = await listen(gone);
  await new Promise((resolve) => gone.close(resolve));
});
afterAll(async () => {
  held.close();
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

const fill = (text: string) => text.replaceAll('{port}', String(port)).replaceAll('{free}', String(free));

/** Runs the case's daemon in a home of its own; resolves with its exit status and output once it has exited. */
async function runDaemon(c: DaemonCleanupCase, home: string): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--require', path.join(dir, 'open-at-exit.cjs'), bundle, ...c.argv.map(fill)], {
    cwd: home,
    env: { PATH: process.env.PATH, HOME: home, KUBECONFIG: api.kubeconfig, OPEN_AT_EXIT: path.join(home, 'open-at-exit.json'), ...c.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (c.stop) {
    const deadline = Date.now() + 30_000;
    while (child.exitCode === null && Date.now() < deadline && !(await isUp(out))) await new Promise((r) => setTimeout(r, 50));
    expect(await isUp(out), out).toBe(true);
    child.kill(c.stop.signal);
  }
  // Ended, it must exit by itself: whatever it left open would hold the process.
  const timeout = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 30_000).unref());
  const code = await Promise.race([exited, timeout]);
  if (code === 'hung') {
    child.kill('SIGKILL');
    throw new Error(`the daemon did not exit by itself:\n${out}`);
  }
  return { code, out };
}

/** watch: /readyz answers 200 (its informer has synced); serve: it said where it listens. */
async function isUp(out: string): Promise<boolean> {
  if (/serve: attach API on http:/.test(out)) return true;
  const url = /health and metrics on (http:\/\/\S+)/.exec(out)?.[1];
  return url !== undefined && (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200;
}

describe('a daemon closes everything it opened, however it ends', { timeout: 90_000 }, () => {
  it.each(DAEMON_CLEANUP_CASES)('$name', async (c) => {
    const home = mkdtempSync(path.join(dir, 'home-'));
    writeFileSync(path.join(home, 's.jsonl'), '{"text":"UNRESOLVED: test"}\n');
    if (c.recipe !== undefined) writeFileSync(path.join(home, 'recipe.yaml'), `${fill(c.recipe)}\n`);
    const { code, out } = await runDaemon(c, home);
    expect(out).toMatch(c.says);
    expect(code, out).toBe(c.code);
    // Nothing of the session database still open when the command has returned (each case but
    // one opens it before it fails or stops).
    const open = JSON.parse(readFileSync(path.join(home, 'open-at-exit.json'), 'utf8')) as string[];
    expect(
      open.filter((f) => /\/s\.db(-wal|-shm)?$/.test(f)),
      out,
    ).toEqual([]);
  });
});
