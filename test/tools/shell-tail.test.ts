import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { setup } from '../helpers/workspace.ts';
import { SHELL_TAIL_CASES } from './shell-tail.cases.ts';

const recipe = (caps: Record<string, number | undefined>) =>
  `tool_output:\n  per_tool:\n${['bash', 'wait_join', 'terminal_output'].map((t) => `    ${t}: ${JSON.stringify(caps)}\n`).join('')}`;

describe('shell tools keep the end of output larger than the caps', () => {
  it.each(SHELL_TAIL_CASES)('$tool: $what', async (c) => {
    const rt = await setup({ flags: { mode: 'yolo' }, recipe: recipe(c.caps) });
    const whole = spawnSync('/bin/bash', ['-c', c.command], { encoding: 'utf8' }).stdout;
    expect(whole.endsWith(`${c.end}\n`)).toBe(true);
    const fits = (r: Record<string, unknown>) => {
      // Fitted by the tool: the dispatcher's caps (which keep the head) did not cut it again.
      expect(String(r.note ?? '')).not.toMatch(/Output cut to fit/);
      if (c.caps.max_bytes) expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThanOrEqual(c.caps.max_bytes);
    };
    if (c.tool === 'bash') {
      const r = await rt.ok('bash', { command: c.command });
      fits(r);
      expect(String(r.output).endsWith(`${c.end}\n`)).toBe(true);
      expect(whole.endsWith(String(r.output))).toBe(true);
      expect(r.truncated).toBe(true);
      return;
    }
    const { terminal_id } = await rt.ok('bash', { command: c.command, wait: false });
    const joined = await rt.ok('wait_join', { ids: [terminal_id], timeout: 20 });
    if (c.tool === 'wait_join') {
      fits(joined);
      const tail = String((joined.results as Array<Record<string, unknown>>)[0]!.output_tail);
      expect(tail.endsWith(`${c.end}\n`)).toBe(true);
      expect(whole.endsWith(tail)).toBe(true);
      return;
    }
    // terminal_output: read from the start by cursor; the reads together are the whole output.
    let out = '';
    let cursor = 0;
    for (let i = 0; i < 500; i++) {
      const r = await rt.ok('terminal_output', { terminal_id, cursor });
      fits(r);
      out += String(r.output);
      cursor = r.next_cursor as number;
      if (!r.more) break;
    }
    expect(out).toBe(whole);
    await rt.session.close();
  });
});
