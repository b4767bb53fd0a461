// The test server as a real stdio process, sending what limits.cases.ts lists: the
// model reads each failure bounded and worded, and the server survives it (same
// PID, the next call works). Then the two things that must not grow this process's
// memory: answers over 10 MiB and stderr without end.
import { describe, expect, it } from 'vitest';
import { setup } from '../helpers/workspace.ts';
import { recipeWith, stdioServer } from './helpers.ts';
import { CASES } from './limits.cases.ts';

const MiB = 1024 * 1024;

async function server() {
  return setup({ recipe: recipeWith(stdioServer({ read_only: true })) });
}

async function pid(rt: Awaited<ReturnType<typeof server>>): Promise<number> {
  return Number((await rt.ok('test_pid', {})).text);
}

describe('MCP results and errors reach the model bounded (limits.cases.ts)', () => {
  it.each(CASES)('$name', async (c) => {
    const rt = await server();
    const before = await pid(rt);
    const r = await rt.dispatcher.call(c.tool, c.args);
    if (c.error === null) {
      expect(r.ok, r.ok ? '' : r.error).toBe(true);
      expect(JSON.stringify(r.ok ? r.result : null).length).toBeLessThanOrEqual(c.maxChars);
    } else {
      expect(r.ok).toBe(false);
      const error = r.ok ? '' : r.error;
      expect(error).toMatch(c.error);
      expect(error.length).toBeLessThanOrEqual(c.maxChars);
      expect(error).not.toMatch(/went away|being restarted/);
    }
    // Not a crash: the same process answers the next call.
    expect(await pid(rt)).toBe(before);
    expect(await rt.ok('test_echo', { text: 'still here' })).toEqual({ text: 'still here' });
  });

  it('an oversized answer whose id cannot be read, with two calls in flight: both fail, saying why; the server stays', async () => {
    const rt = await server();
    const before = await pid(rt);
    const [big, slow] = await Promise.all([
      rt.dispatcher.call('test_huge_result', { mib: 11, order: 'id-hidden' }),
      rt.dispatcher.call('test_slow', { ms: 1500 }),
    ]);
    for (const r of [big, slow]) {
      expect(r.ok).toBe(false);
      expect(r.ok ? '' : r.error).toMatch(/larger than the 10 MiB the MCP stdio transport accepts \(11\.0 MiB\)/);
      expect(r.ok ? '' : r.error).toMatch(
        /while "(huge_result|slow)" and 1 other call\(s\) were waiting; its id was unreadable, so each of them failed/,
      );
    }
    expect(await pid(rt)).toBe(before);
    expect(await rt.ok('test_slow', { ms: 10 })).toEqual({ text: 'slept 10' });
  });
});

describe('bounded memory', () => {
  /**
   * RSS growth over `fn`, after one run of it: the first run's garbage (64 KiB pipe
   * chunks) lifts RSS to where the allocator and V8's young generation settle, ~40 MiB
   * here; holding what flows through would add its whole size on every run. The least
   * growth of three runs: garbage not yet collected (a loaded machine delays GC) lifts
   * one run now and then, a leak lifts every one.
   */
  const rssGrowth = async (fn: () => Promise<unknown>) => {
    await fn();
    let least = Infinity;
    for (let i = 0; i < 3; i++) {
      const before = process.memoryUsage().rss;
      await fn();
      least = Math.min(least, (process.memoryUsage().rss - before) / MiB);
    }
    return least;
  };

  it('100 MiB of stderr without a newline: the client keeps a bounded tail', async () => {
    const rt = await server();
    const before = await pid(rt);
    const growth = await rssGrowth(async () => expect(await rt.ok('test_flood_stderr', { mib: 100 })).toEqual({ text: 'flooded 100 MiB' }));
    expect(growth).toBeLessThan(64);
    expect(await pid(rt)).toBe(before);
  });

  it('100 MiB of stderr in 100-byte lines: the same', async () => {
    const rt = await server();
    const growth = await rssGrowth(async () =>
      expect(await rt.ok('test_flood_stderr', { mib: 100, line: 100 })).toEqual({ text: 'flooded 100 MiB' }),
    );
    expect(growth).toBeLessThan(64);
  });

  it('two 40 MiB answers in a row: none is buffered whole', async () => {
    const rt = await server();
    const growth = await rssGrowth(async () => {
      for (let i = 0; i < 2; i++) expect((await rt.refused('test_huge_result', { mib: 40 })).length).toBeLessThan(400);
    });
    expect(growth).toBeLessThan(64);
  });
});
