import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, rename, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { setup, tempDir, writeTree } from '../helpers/workspace.ts';
import { INSIDE, OUTSIDE, OUTSIDE_MARKS, READ_RACE_CASES, type ReadRaceCase } from './read-race.cases.ts';

/**
 * Each case's tool, called CONCURRENT at a time, round after round, while a
 * shell loop swaps a directory on its way for a symlink to OUTSIDE and back,
 * both ways (a symlink put in its place, and one renamed in atomically). The
 * rounds go on until at least ROUNDS have run, the loop has swapped MIN_SWAPS
 * times and some call got through — progress, not time, so two busy cores
 * only make it slower — and at most MAX_ROUNDS. The assertion is on what came
 * back: not one byte of OUTSIDE, names or content.
 */
const ROUNDS = 25;
const MIN_SWAPS = 3;
const MAX_ROUNDS = 20_000;
const CONCURRENT = 3;

let swapper: ChildProcess | undefined;
afterEach(() => {
  swapper?.kill('SIGKILL');
  swapper = undefined;
});

async function fixture(c: ReadRaceCase, afterGate?: (rt: { dir: string }, outside: string) => Promise<void>) {
  const outside = await tempDir('core-agent-outside-');
  await writeTree(outside, OUTSIDE);
  for (const dir of [outside, path.join(outside, 'deeper')]) await chmod(dir, 0o711);
  const engine = c.engine ?? 'ripgrep';
  const holder: { dir: string } = { dir: '' };
  const rt = await setup({
    tree: INSIDE,
    flags: { mode: 'yolo' },
    recipe: `tools:\n  grep:\n    engine: ${engine}\n  glob:\n    engine: ${engine}\n`,
    ...(afterGate ? { afterGate: () => afterGate(holder, outside) } : {}),
  });
  holder.dir = rt.dir;
  return { rt, outside };
}

/** Everything a call returned, result or error, as one string to search. */
function said(r: { ok: true; result: unknown } | { ok: false; error: string }): string {
  return r.ok ? JSON.stringify(r.result) : r.error;
}

/** The call said something only the outside tree holds. */
function fromOutside(text: string): boolean {
  return text.includes('SECRET') || OUTSIDE_MARKS.test(text);
}

describe('a directory swapped for a symlink to outside while the read tools run', () => {
  it.each(READ_RACE_CASES)('$what: nothing from outside, names or content', async (c) => {
    const { rt, outside } = await fixture(c);
    const swap = c.swap ?? 'd';
    const to = path.join(outside, c.to ?? '');
    const counter = path.join(await tempDir('core-agent-swaps-'), 'count');
    const loop =
      'while :; do ' +
      'mv -T "$S" "$S.was" && ln -s "$TO" "$S" && rm "$S" && mv -T "$S.was" "$S"; ' +
      'mv -T "$S" "$S.was" && ln -sfn "$TO" "$S.tmp" && mv -T "$S.tmp" "$S" && rm "$S" && mv -T "$S.was" "$S"; ' +
      'printf . >> "$COUNT"; done';
    swapper = spawn('/bin/sh', ['-c', loop], {
      cwd: rt.dir,
      env: { ...process.env, S: swap, TO: to, COUNT: counter },
      stdio: 'ignore',
    });
    const swaps = () => (existsSync(counter) ? readFileSync(counter, 'utf8').length : 0);

    const outcomes = { ok: 0, refused: 0, rounds: 0, lastRefusal: '' };
    const escaped: string[] = [];
    while (outcomes.rounds < MAX_ROUNDS && (outcomes.rounds < ROUNDS || swaps() < MIN_SWAPS || outcomes.ok === 0)) {
      outcomes.rounds += 1;
      const results = await Promise.all(Array.from({ length: CONCURRENT }, () => rt.dispatcher.call(c.tool, c.args)));
      for (const r of results) {
        outcomes[r.ok ? 'ok' : 'refused'] += 1;
        if (!r.ok) outcomes.lastRefusal = r.error.slice(0, 300);
        const text = said(r);
        if (fromOutside(text)) escaped.push(text.slice(0, 400));
      }
    }
    swapper.kill('SIGKILL');
    swapper = undefined;

    expect(escaped).toEqual([]);
    // The swaps happened while the calls ran, and calls got through between them.
    expect(swaps(), JSON.stringify(outcomes)).toBeGreaterThanOrEqual(MIN_SWAPS);
    expect(outcomes.ok, JSON.stringify(outcomes)).toBeGreaterThan(0);
  });
});

describe('swapped right after the gate, before the tool runs', () => {
  it.each(READ_RACE_CASES)('$what: refused, or nothing from outside', async (c) => {
    const swap = c.swap ?? 'd';
    const { rt } = await fixture(c, async ({ dir }, outside) => {
      await rename(path.join(dir, swap), path.join(dir, `${swap}.was`));
      await symlink(path.join(outside, c.to ?? ''), path.join(dir, swap));
    });
    const text = said(await rt.dispatcher.call(c.tool, c.args));
    expect(fromOutside(text), text.slice(0, 400)).toBe(false);
  });
});
