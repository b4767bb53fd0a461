// The README's first command: `make demo` runs scripts/demo.sh on the built bundle. It must run
// to its end — it stopped half-way once, when `sessions list` began listing only the sessions of
// the workspace it runs in and the script asked from another one.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

describe('make demo (scripts/demo.sh)', () => {
  it('runs every step to its end, the agent loop and its session included', () => {
    const r = spawnSync('bash', [path.join(root, 'scripts/demo.sh')], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: `${path.join(root, 'node_modules/.bin')}:${process.env.PATH}`, HOME: process.env.HOME },
      timeout: 120_000,
    });
    expect(r.status, r.stderr.slice(-2000)).toBe(0);
    expect(r.stderr).not.toMatch(/TypeError|internal error/);
    const steps = [...r.stdout.matchAll(/^\x1b\[1m== (.+)\x1b\[0m$/gm)].map((m) => m[1]);
    expect(steps[0]).toBe('The agent loop (replay model): fix the placeholder greeting');
    expect(steps).toContain('…and the session it left in the event log');
    expect(steps.at(-1)).toBe('A recipe with a typo: file:line:col and a suggestion');
    expect(r.stdout).toMatch(/The greeting in src\/handler\.ts now uses the caller's name/);
    // The session the loop left, read back by its id.
    const session = /^session (s-[0-9a-f-]+)$/m.exec(r.stdout + r.stderr)?.[1];
    expect(session).toBeDefined();
    expect(r.stdout).toContain(`$ core-agent sessions show ${session} `);
    expect(r.stdout).toMatch(/turn_end: done after 5 step\(s\)/);
  });
});
