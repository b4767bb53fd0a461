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

  it("an expression that exhausts jq's memory is a sentence saying so, and the next call works", async () => {
    const rt = await setup();
    expect(await rt.refused('json_query', { expression: '[range(0; 100000000)] | length', data: 'null' })).toBe(
      'json_query: the jq expression used more memory than jq is allowed (256 MB); narrow it: select less before building arrays or strings, and bound generators such as repeat or range with limit(n; …)',
    );
    expect(await rt.ok('json_query', { expression: 'length', data: '[1, 2]' })).toEqual({ count: 1, results: [2] });
  });

  it('quotes a long one-line program around the error, not whole', async () => {
    const rt = await setup();
    const error = await rt.refused('json_query', { expression: `{${'a: 1, '.repeat(2000)}`, data: 'null' });
    expect(error).toMatch(/^json_query: invalid jq expression: jq: error: syntax error, unexpected end of file/);
    expect(error.length).toBeLessThan(600);
  });

  it('an error about a 5 MB input does not carry the input back', async () => {
    const rt = await setup({ tree: { 'big.json': JSON.stringify({ a: 'x'.repeat(5_000_000) }) } });
    const error = await rt.refused('json_query', { expression: 'error(.a)', path: 'big.json' });
    expect(error).toMatch(/^json_query: jq error: /);
    expect(error).toMatch(/^json_query: jq error: jq: error \(at [^)]*\): x+… \(50000\d\d characters\)$/);
    expect(error.length).toBeLessThan(600);
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
