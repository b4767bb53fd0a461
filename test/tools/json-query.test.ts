import { describe, expect, it } from 'vitest';
import { setup } from '../helpers/workspace.ts';

const pods = JSON.stringify({
  items: [
    { metadata: { name: 'api-1' }, status: { phase: 'Running' } },
    { metadata: { name: 'api-2' }, status: { phase: 'Pending' } },
  ],
});

describe('json_query', () => {
  it('runs jq over a file', async () => {
    const rt = await setup({ tree: { 'pods.json': pods } });
    expect(
      await rt.ok('json_query', { expression: '.items[] | select(.status.phase == "Running") | .metadata.name', path: 'pods.json' }),
    ).toEqual({
      count: 1,
      results: ['api-1'],
    });
  });

  it('takes inline data as JSON text or as a value, and the Go names query/json', async () => {
    const rt = await setup();
    expect(await rt.ok('json_query', { expression: '.a + 1', data: '{"a": 1}' })).toEqual({ count: 1, results: [2] });
    expect(await rt.ok('json_query', { expression: '.[] * 2', data: [1, 2, 3] })).toEqual({ count: 3, results: [2, 4, 6] });
    expect(await rt.ok('json_query', { query: 'length', json: '[1,2]' })).toEqual({ count: 1, results: [2] });
    expect(await rt.ok('json_query', { expression: 'empty', data: 'null' })).toEqual({ count: 0, results: [] });
  });

  it('refuses both or neither input, and both spellings of one argument', async () => {
    const rt = await setup({ tree: { 'a.json': '{}' } });
    expect(await rt.refused('json_query', { expression: '.' })).toMatch(/exactly one input/);
    expect(await rt.refused('json_query', { expression: '.', data: '{}', path: 'a.json' })).toMatch(/exactly one input/);
    expect(await rt.refused('json_query', { expression: '.', query: '.', data: '1' })).toMatch(/either "expression" or its alias "query"/);
  });

  it('reports a bad expression, bad JSON and a runtime error as model-visible errors', async () => {
    const rt = await setup();
    expect(await rt.refused('json_query', { expression: '.a | foo(', data: '{}' })).toMatch(/invalid jq expression/);
    expect(await rt.refused('json_query', { expression: '.', data: '{"a": ' })).toMatch(/invalid JSON input/);
    expect(await rt.refused('json_query', { expression: 'error("boom")', data: '1' })).toMatch(/jq error.*boom/);
  });

  it('stops an endless program at the timeout and keeps working afterwards', async () => {
    const rt = await setup({ recipe: 'tools:\n  json_query: { timeout_seconds: 0.5 }\n' });
    const started = Date.now();
    expect(await rt.refused('json_query', { expression: 'def f: f; f', data: '1' })).toMatch(/did not finish within 0.5 s/);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await rt.ok('json_query', { expression: '. + 1', data: '1' })).toEqual({ count: 1, results: [2] });
  });

  it('caps a large output and says to narrow the expression', async () => {
    const rt = await setup({ recipe: 'tool_output:\n  per_tool:\n    json_query: { max_lines: 10 }\n' });
    const r = await rt.ok('json_query', { expression: 'range(1000)', data: 'null' });
    expect(r.truncated).toBe(true);
    expect((r.results as unknown[]).length).toBe(10);
    expect(String(r.note)).toMatch(/Narrow the jq expression/);
  });

  it('refuses input above max_input_bytes and a file outside the scope', async () => {
    const rt = await setup({ tree: { 'big.json': `[${'1,'.repeat(1000)}1]` }, recipe: 'tools:\n  json_query: { max_input_bytes: 100 }\n' });
    expect(await rt.refused('json_query', { expression: 'length', path: 'big.json' })).toMatch(/above the 100-byte limit/);
    expect(await rt.refused('json_query', { expression: '.', path: '/etc/passwd' })).toMatch(/outside path_scope/);
  });
});
