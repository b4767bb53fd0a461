import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundle } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';
import { HOSTILE_CASES } from './hostile-config.cases.ts';

/** GNU time, when installed, reports the child's peak RSS. */
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const DEADLINE_MS = 20_000;

/** The built CLI in `cwd`, killed at the deadline (a hang is a failure, not a stuck suite). */
function runBounded(args: string[], cwd: string, rssFile: string) {
  const argv = TIME ? [TIME, '-f', '%M', '-o', rssFile, process.execPath, bundle, ...args] : [process.execPath, bundle, ...args];
  return new Promise<{ code: number | null; stderr: string; timedOut: boolean }>((resolve) => {
    // Its own process group: at the deadline the CLI goes too, not only the time(1) around it.
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env: { PATH: process.env.PATH, HOME: cwd }, detached: true });
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      process.kill(-child.pid!, 'SIGKILL');
    }, DEADLINE_MS);
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    child.stdin.end();
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, timedOut });
    });
  });
}

describe('hostile configuration files, through the built CLI', () => {
  it.each(HOSTILE_CASES.map((c) => [c.name, c] as const))('%s', { timeout: DEADLINE_MS + 10_000 }, async (_name, c) => {
    const ws = await tempDir();
    const abs = path.join(ws, c.file);
    await mkdir(path.dirname(abs), { recursive: true });
    const cleanup = await c.make(abs, ws);
    try {
      // One pass over the template: a temporary path that happens to contain "WS" is not rewritten again.
      const args = c.args.map((a) => a.replace(/FILE|WS/g, (m) => (m === 'FILE' ? abs : ws)));
      const r = await runBounded(args, ws, path.join(ws, '.rss'));
      expect(r.timedOut, 'finished before the deadline').toBe(false);
      expect(r.stderr, 'no stack frames').not.toMatch(/^\s+at /m);
      expect(r.stderr).not.toMatch(/internal error/);
      expect(r.code, r.stderr.slice(0, 600)).toBe(c.code);
      if (c.at !== undefined) {
        const lines = r.stderr.split('\n').map((l) => l.replace(/^core-agent: /, ''));
        expect(
          lines.some((l) => l.startsWith(`${abs}${c.at}`)),
          `stderr: ${r.stderr.slice(0, 600)}`,
        ).toBe(true);
      }
      if (TIME) {
        // Generous: refused files cost tens of MB; before the limits a 50 MB recipe took 3 GB.
        const rssKb = Number((await readFile(path.join(ws, '.rss'), 'utf8')).trim().split('\n').at(-1));
        expect(rssKb).toBeLessThan(512 * 1024);
      }
    } finally {
      await cleanup?.();
    }
  });
});
