import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'vitest';
import { createRuntime } from '../../src/runtime/runtime.ts';
import type { JsonObject } from '../../src/tools/framework/tool.ts';
import { ESCAPE_CASES, type Bins, type EscapeCase } from './escaped-children.cases.ts';
import { running } from '../helpers/processes.ts';

/**
 * A runtime in yolo mode over a fresh directory, closed and removed when `body`
 * is done. Not the shared setup() helper: its cleanups run after each test, and
 * these tests run concurrently (each takes seconds of waiting, not of work).
 */
async function withRuntime(body: (ok: (name: string, args: unknown) => Promise<JsonObject>) => Promise<void>): Promise<void> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), 'core-agent-escape-')));
  const rt = await createRuntime({ flags: { workspace: dir, mode: 'yolo' }, env: {}, commandEnv: process.env });
  try {
    await body(async (name, args) => {
      const r = await rt.dispatcher.call(name, args);
      if (!r.ok) throw new Error(`expected ${name} to succeed, got: ${r.error}`);
      return r.result;
    });
  } finally {
    await rt.session.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * "The shell exits at once" after the escape has happened: a process that has
 * not called setsid yet is still in the group, and the group kill takes it
 * before it could escape (fine, but not the case under test). So the shell
 * waits, up to 20 s, until a process carrying the case's marker is in another
 * process group than its own — a fixed sleep lost that race on a loaded machine.
 * A case that does not escape gets a plain second.
 */
const settle = (c: EscapeCase, marker: string) =>
  c.escapes
    ? `me=$(ps -o pgid= -p $$ | tr -d ' '); i=0; while [ $i -lt 400 ]; do for p in $(pgrep -f '${marker}'); do ` +
      `g=$(ps -o pgid= -p $p | tr -d ' '); [ -n "$g" ] && [ "$g" != "$me" ] && break 2; done; sleep 0.05; i=$((i+1)); done`
    : 'sleep 1';

function which(name: string): string | undefined {
  for (const p of [`/usr/bin/${name}`, `/bin/${name}`]) if (existsSync(p)) return p;
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const bins: Bins = { node: process.execPath, python3: which('python3'), perl: which('perl') };
const linux = existsSync('/proc/self/stat');

let seq = 0;
/** A sleep length no other process has: the marker pgrep looks for. */
const uniqueSeconds = () => `300.${process.pid}${String(++seq).padStart(3, '0')}`;

const runnable = (c: EscapeCase) => linux && (c.needs === undefined || bins[c.needs] !== undefined);

type Listed = Array<{ pid: number; command: string; signal: string }> | undefined;

/** What every case must show: the marker is gone, and the escapees (only those) are listed with the right signal. */
function checkLeftovers(expect: import('vitest').ExpectStatic, c: EscapeCase, secs: string, listed: Listed): void {
  expect(running(secs), 'still running').toEqual([]);
  if (!c.escapes) {
    expect(listed, 'in-group processes are not escapees').toBeUndefined();
    return;
  }
  expect(listed?.length, 'the escapees are listed').toBeGreaterThan(0);
  const signals = new Set(listed!.map((e) => e.signal));
  if (c.ignoresTerm) expect(signals.has('SIGKILL')).toBe(true);
  else expect([...signals]).toEqual(['SIGTERM']);
}

// Generous bounds: the drain (0.5 s), a grace period (2 s for bash, 3 s for terminals), slack for a loaded machine.
const BOUND_MS = 9000;

describe.concurrent('a bash call that leaves a process outside its group', () => {
  for (const c of ESCAPE_CASES) {
    it.skipIf(!runnable(c) || c.pipeOnly)(`returns when the shell exits, and stops it: ${c.name}`, async ({ expect }) => {
      await withRuntime(async (ok) => {
        const secs = uniqueSeconds();
        const started = Date.now();
        const r = await ok('bash', { command: `${c.command(secs, bins)}\n${settle(c, secs)}\necho started` });
        expect(Date.now() - started).toBeLessThan(BOUND_MS);
        expect(r).toMatchObject({ exit_code: 0, timed_out: false });
        expect(r.output).toContain('started');
        checkLeftovers(expect, c, secs, r.escaped_processes as Listed);
        if (c.escapes) expect(r.note).toMatch(/Stopped \d+ process(es)? that had left the command's process group/);
      });
    });

    it.skipIf(!runnable(c))(`returns at its deadline, and stops it: ${c.name}`, async ({ expect }) => {
      await withRuntime(async (ok) => {
        const secs = uniqueSeconds();
        const started = Date.now();
        const r = await ok('bash', { command: `${c.command(secs, bins)}\necho started\nsleep 30`, timeout: 2 });
        expect(Date.now() - started).toBeLessThan(2000 + BOUND_MS);
        expect(r).toMatchObject({ timed_out: true });
        expect(r.output).toContain('started');
        checkLeftovers(expect, c, secs, r.escaped_processes as Listed);
      });
    });
  }
});

describe.concurrent('a terminal that leaves a process outside its group', () => {
  for (const c of ESCAPE_CASES) {
    it.skipIf(!runnable(c) || c.pipeOnly)(`wait_join returns when the shell exits: ${c.name}`, async ({ expect }) => {
      await withRuntime(async (ok) => {
        const secs = uniqueSeconds();
        const { terminal_id } = await ok('bash', { command: `${c.command(secs, bins)}\n${settle(c, secs)}\necho started`, wait: false });
        const started = Date.now();
        const joined = await ok('wait_join', { ids: [terminal_id], timeout: 30 });
        expect(Date.now() - started).toBeLessThan(1000 + BOUND_MS);
        expect(joined).toMatchObject({ all_done: true, results: [{ done: true, exit_code: 0 }] });
        const [result] = joined.results as Array<Record<string, unknown>>;
        expect(result!.output_tail).toContain('started');
        checkLeftovers(expect, c, secs, result!.escaped_processes as Listed);
      });
    });

    it.skipIf(!runnable(c))(`terminal_kill stops it with the terminal: ${c.name}`, async ({ expect }) => {
      await withRuntime(async (ok) => {
        const secs = uniqueSeconds();
        const { terminal_id } = await ok('bash', {
          command: `${c.command(secs, bins)}\n${settle(c, secs)}\necho started\nsleep 30`,
          wait: false,
        });
        for (let i = 0; i < 400 && !String((await ok('terminal_output', { terminal_id })).output).includes('started'); i++) {
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        const started = Date.now();
        const killed = await ok('terminal_kill', { terminal_id });
        expect(Date.now() - started).toBeLessThan(BOUND_MS);
        expect(killed, JSON.stringify(killed)).toMatchObject({ was_running: true, running: false });
        checkLeftovers(expect, c, secs, killed.escaped_processes as Listed);
      });
    });
  }
});
