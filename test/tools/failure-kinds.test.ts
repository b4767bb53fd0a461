// Failures as data: each case of failure-kinds.cases.ts through a real runtime's dispatcher,
// recorded to a real event log on a SQLite file; the kind returned and the kind recorded agree.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { FAILURE_KINDS } from '../../src/core/failure.ts';
import { recordCalls } from '../../src/runtime/record-calls.ts';
import { EventLog } from '../../src/store/event-log.ts';
import { defineTool, ToolError, type AnyTool } from '../../src/tools/framework/tool.ts';
import { setup, tempDir } from '../helpers/workspace.ts';
import { FAILURE_CASES, type FailureCase } from './failure-kinds.cases.ts';

/** A system error as Node raises it: the code is what classifies it, never the text. */
const coded = (code: string) => Object.assign(new Error(`${code}: whatever the text says`), { code, syscall: 'open', path: '/x' });

const HOW = {
  enoent: () => coded('ENOENT'),
  econnrefused: () => Object.assign(coded('ECONNREFUSED'), { address: '127.0.0.1', port: 9 }),
  tool_error: () => new ToolError('the thing failed'),
  tool_error_not_found: () => new ToolError('no such widget', 'not_found'),
  own_timeout: () => new DOMException('The operation timed out.', 'TimeoutError'),
  abort: () => new DOMException('The operation was aborted.', 'AbortError'),
  bug: () => new Error('undefined is not a function'),
  string: () => 'a thrown string',
} as const;

/** Tools that fail on purpose, beside the built-ins. */
const TEST_TOOLS = [
  defineTool({
    name: 'throws',
    description: 'fails the way it is told',
    kind: 'read',
    narrowHint: '',
    args: z.strictObject({ how: z.enum(Object.keys(HOW) as [keyof typeof HOW, ...Array<keyof typeof HOW>]) }),
    run: (a) => Promise.reject(HOW[a.how]() as Error),
  }),
  defineTool({
    name: 'hangs',
    description: 'never returns',
    kind: 'read',
    narrowHint: '',
    args: z.strictObject({}),
    deadlineMs: () => 100,
    run: () => new Promise<never>(() => {}),
  }),
] as unknown as AnyTool[];

async function runCase(c: FailureCase) {
  const dir = await tempDir();
  const rt = await setup({
    tree: { 'a.txt': 'alpha\n', 'secret.txt': 'hush\n' },
    flags: { mode: c.mode ?? 'yolo' },
    ...(c.permissions ? { recipe: `permissions:\n${c.permissions}\n` } : {}),
  });
  rt.catalog.setSource('test', TEST_TOOLS, (d) => d.name);
  const log = EventLog.open(path.join(dir, 'sessions.db'));
  const sessionId = log.createSession({ model: 'none', workspace: rt.dir, title: c.what });
  rt.dispatcher.recordTo(recordCalls(log, sessionId, rt.session));
  const signal = c.cancel ? AbortSignal.abort() : undefined;
  const outcome = await rt.dispatcher.call(c.tool, c.args, signal, { callId: 'c1' });
  const recorded = log.events(sessionId).filter((e) => e.kind === 'tool_result');
  log.close();
  return { outcome, recorded };
}

describe('failure → kind', () => {
  it.each(FAILURE_CASES.map((c) => [c.what, c] as const))('%s', async (_what, c) => {
    const { outcome, recorded } = await runCase(c);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect({ kind: outcome.kind, error: outcome.error }).toEqual({ kind: c.kind, error: expect.any(String) });
    expect(outcome.error.length).toBeGreaterThan(0);
    // The record of the call says the same, as data.
    const own = recorded.filter((e) => e.data.call_id === 'c1');
    expect(own).toHaveLength(1);
    expect(own[0]!.data).toMatchObject({ ok: false, failure: c.kind, source: 'tools_call', shown: { error: outcome.error } });
  });

  it('every kind has a case', () => {
    const covered = new Set(FAILURE_CASES.map((c) => c.kind));
    expect(FAILURE_KINDS.filter((k) => !covered.has(k))).toEqual([]);
  });
});
