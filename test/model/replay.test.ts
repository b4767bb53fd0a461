import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
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

  // The parser uses zod's functional build (zod/mini, the classic build costs a replayed run's
  // start); the format and every message stay those of the classic schema it replaced.
  const CLASSIC = z.strictObject({
    text: z.string().optional(),
    tool_calls: z.array(z.strictObject({ name: z.string().min(1), args: z.record(z.string(), z.unknown()).default({}) })).optional(),
  });
  const classicLine = (value: unknown): string[] | object => {
    const r = CLASSIC.safeParse(value);
    return r.success ? r.data : r.error.issues.map((i) => `${i.path.join('.') || '(line)'}: ${i.message}`);
  };
  const miniLine = (value: unknown): string[] | object => {
    try {
      return parseReplayScript(JSON.stringify(value), 's.jsonl')[0]!;
    } catch (err) {
      return (err as Error).message
        .split('\n')
        .slice(1)
        .map((l) => l.replace(/^s\.jsonl:1: /, ''));
    }
  };
  it.each([
    { text: 'a' },
    {},
    { text: '' },
    { tool_calls: [] },
    { tool_calls: [{ name: 'stat' }] },
    { tool_calls: [{ name: 'stat', args: { path: '.', n: [1, { x: null }] } }] },
    { text: 'a', tool_calls: [{ name: 'a', args: {} }, { name: 'b' }] },
    { text: 1 },
    { text: null },
    { txt: 'x' },
    { text: 'a', extra: 1, more: 2 },
    { tool_calls: {} },
    { tool_calls: [{}] },
    { tool_calls: [{ name: '' }] },
    { tool_calls: [{ name: 1 }] },
    { tool_calls: [{ name: 'a', args: [] }] },
    { tool_calls: [{ name: 'a', args: 'x' }] },
    { tool_calls: [{ name: 'a', arg: {} }] },
    { tool_calls: ['stat'] },
    [],
    'text',
    42,
    null,
  ])('line %j: what the classic schema said, word for word', (value) => {
    expect(miniLine(value)).toEqual(classicLine(value));
  });

  // The comparison above runs where the classic schema exists, which sets zod's English locale
  // for every build: here the parser runs alone in a process that never loads classic zod.
  it('says its messages in English on its own', () => {
    const source = path.resolve(import.meta.dirname, '../../src/model/replay.ts');
    const dir = mkdtempSync(path.join(tmpdir(), 'replay-locale-'));
    try {
      const probe = path.join(dir, 'probe.mjs');
      writeFileSync(
        probe,
        `const { parseReplayScript } = await import(${JSON.stringify(source)});
try { parseReplayScript('{"text": 1}\\n{"txt": "x"}\\n{"tool_calls": [{"name": ""}]}\\n', 's.jsonl'); } catch (err) { process.stdout.write(err.message); }
`,
      );
      // replay.ts has parameter properties: Node strips types only with this flag's help.
      const r = spawnSync(process.execPath, ['--experimental-transform-types', '--disable-warning=ExperimentalWarning', probe], {
        encoding: 'utf8',
      });
      expect(r.stderr).toBe('');
      expect(r.stdout.split('\n').slice(1)).toEqual([
        's.jsonl:1: text: Invalid input: expected string, received number',
        's.jsonl:2: (line): Unrecognized key: "txt"',
        's.jsonl:3: tool_calls.0.name: Too small: expected string to have >=1 characters',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
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
