import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setup } from '../helpers/workspace.ts';

// A system without /proc (macOS, a locked-down sandbox): escaped processes cannot be found.
// Each command gives setsid a second to leave the group before the shell exits.
vi.mock('../../src/tools/shell/procfs.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/tools/shell/procfs.ts')>()),
  procAvailable: () => false,
}));

const yolo = { flags: { mode: 'yolo' as const } };
const marker = `sleep 317.${process.pid}`;

afterEach(() => {
  // Nothing here can find it: clean up by hand.
  try {
    execFileSync('pkill', ['-f', marker]);
  } catch {
    // already gone
  }
});

describe('without /proc', () => {
  it('bash still returns when the shell exits (it closes the pipes a stray process holds) and says it may still run', async () => {
    const rt = await setup(yolo);
    const started = Date.now();
    const r = await rt.ok('bash', { command: `setsid ${marker} & sleep 1; echo started` });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r).toMatchObject({ exit_code: 0, timed_out: false, output: 'started\n' });
    expect(r.escaped_processes).toBeUndefined();
    expect(r.note).toMatch(/without \/proc it could not be found and may still be running/);
  });

  it('bash returns at its deadline though a stray process holds the pipes', async () => {
    const rt = await setup(yolo);
    const started = Date.now();
    const r = await rt.ok('bash', { command: `setsid ${marker} & echo started; sleep 30`, timeout: 1 });
    expect(Date.now() - started).toBeLessThan(6000);
    expect(r).toMatchObject({ timed_out: true, output: 'started\n' });
  });

  it('a terminal finishes too, and its output says what may be left', async () => {
    const rt = await setup(yolo);
    await rt.ok('bash', { command: `setsid ${marker} & sleep 1; echo started`, wait: false });
    const joined = await rt.ok('wait_join', { ids: ['t1'], timeout: 10 });
    expect(joined).toMatchObject({ all_done: true, results: [{ exit_code: 0 }] });
    expect((joined.results as Array<{ output_tail: string }>)[0]!.output_tail).toMatch(/started\n.*may still be running/s);
  });
});
