// The test server as a real stdio process, sending what limits.cases.ts lists: the
// model reads each failure bounded and worded, and the server survives it (same
// PID, the next call works).
import { describe, expect, it } from 'vitest';
import { setup } from '../helpers/workspace.ts';
import { recipeWith, stdioServer } from './helpers.ts';
import { CASES } from './limits.cases.ts';

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
});
