import { describe, expect, it } from 'vitest';
import { ModelConfigError } from '../../src/model/model.ts';
import { parseReplayScript, ReplayModel } from '../../src/model/replay.ts';

import type { CallOptions } from '../../src/model/model.ts';

const call = (toolChoice: 'auto' | 'none' = 'auto'): CallOptions => ({
  prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  toolChoice: { type: toolChoice },
});

describe('replay scripts', () => {
  it('parses one model turn per line, skipping blank lines and // comments', () => {
    const steps = parseReplayScript(
      '// a demo\n{"text": "a"}\n\n{"tool_calls": [{"name": "stat", "args": {"path": "."}}]}\n{"tool_calls": [{"name": "list_dir"}]}\n',
      's.jsonl',
    );
    expect(steps).toEqual([
      { text: 'a' },
      { tool_calls: [{ name: 'stat', args: { path: '.' } }] },
      { tool_calls: [{ name: 'list_dir', args: {} }] },
    ]);
  });

  it('reports every bad line with file:line', () => {
    expect(() => parseReplayScript('{"text": 1}\nnot json\n{"tool_calls": [{"args": {}}]}\n{"txt": "x"}\n', 's.jsonl')).toThrow(
      ModelConfigError,
    );
    try {
      parseReplayScript('{"text": 1}\nnot json\n{"tool_calls": [{"args": {}}]}\n{"txt": "x"}\n', 's.jsonl');
    } catch (err) {
      const msg = (err as Error).message;
      expect(msg).toMatch(/s.jsonl:1: text: /);
      expect(msg).toMatch(/s.jsonl:2: not valid JSON/);
      expect(msg).toMatch(/s.jsonl:3: tool_calls.0.name: /);
      expect(msg).toMatch(/s.jsonl:4: \(line\): .*txt/);
    }
  });

  it('answers each call with the next line, then ends', async () => {
    const m = new ReplayModel([{ text: 'one', tool_calls: [{ name: 'stat', args: { path: 'x' } }] }, { text: 'two' }], 'test');
    const first = await m.doGenerate(call());
    expect(first.content).toEqual([
      { type: 'text', text: 'one' },
      { type: 'tool-call', toolCallId: 'replay-1', toolName: 'stat', input: '{"path":"x"}' },
    ]);
    expect(first.finishReason.unified).toBe('tool-calls');
    expect((await m.doGenerate(call())).content).toEqual([{ type: 'text', text: 'two' }]);
    const end = await m.doGenerate(call());
    expect(end.content).toEqual([]);
    expect(end.finishReason.raw).toBe('replay-exhausted');
    expect(m.exhausted).toBe(true);
  });

  it('drops tool calls when the request withholds tools, and can be repositioned', async () => {
    const m = new ReplayModel([{ text: 'a', tool_calls: [{ name: 'stat', args: {} }] }, { text: 'b' }], 'test');
    expect((await m.doGenerate(call('none'))).content).toEqual([{ type: 'text', text: 'a' }]);
    m.position = 0;
    expect((await m.doGenerate(call())).content).toHaveLength(2);
  });
});
