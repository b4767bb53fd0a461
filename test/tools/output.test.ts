import { describe, expect, it } from 'vitest';
import { capErrorText, describeValue, quoteArg } from '../../src/util/error-text.ts';
import { applyCaps, byteLength, capsFor, countLines, DEFAULT_CAPS } from '../../src/tools/framework/output.ts';
import { grepTool } from '../../src/tools/search/grep.ts';

describe('capsFor', () => {
  it('takes per_tool over the global setting over the tool default over the built-in default', () => {
    expect(capsFor('stat')).toEqual(DEFAULT_CAPS);
    expect(capsFor('grep', {}, grepTool.caps)).toEqual({ maxBytes: 64 * 1024, maxLines: 500 });
    expect(capsFor('grep', { max_bytes: 1000 }, grepTool.caps)).toEqual({ maxBytes: 1000, maxLines: 500 });
    expect(capsFor('grep', { max_bytes: 1000, max_lines: 7, per_tool: { grep: { max_lines: 3 } } })).toEqual({
      maxBytes: 1000,
      maxLines: 3,
    });
  });
});

describe('countLines', () => {
  it('counts multi-line string lines and one per array element', () => {
    expect(countLines({ content: 'a\nb\nc\n' })).toBe(3);
    expect(countLines({ content: 'a\nb' })).toBe(2);
    expect(countLines({ name: 'single line' })).toBe(0);
    expect(countLines({ matches: [{ t: 'x' }, { t: 'y' }] })).toBe(2);
    expect(countLines({ files: [{ content: 'a\nb\nc' }, { content: 'x' }] })).toBe(4);
  });
});

describe('applyCaps', () => {
  it('leaves a result within the caps untouched (same object)', () => {
    const r = { a: [1, 2, 3] };
    expect(applyCaps(r, { maxBytes: 1000, maxLines: 10 }, 'hint')).toBe(r);
  });

  it('keeps the head of an array within the line cap and says how to narrow', () => {
    const r = { count: 100, paths: Array.from({ length: 100 }, (_, i) => `file-${i}.ts`) };
    const out = applyCaps(r, { maxBytes: 100_000, maxLines: 10 }, 'Narrow the pattern.');
    expect(out.paths).toEqual(r.paths.slice(0, 10));
    expect(out.count).toBe(100);
    expect(out.truncated).toBe(true);
    expect(String(out.note)).toMatch(/^Output cut to fit 10 lines \/ 100000 bytes \(was 100 lines.*\)\. Narrow the pattern\.$/);
  });

  it('keeps whole array elements within the byte cap, never half a path', () => {
    const r = { paths: Array.from({ length: 1000 }, (_, i) => `dir/sub/file-number-${i}.ts`) };
    const out = applyCaps(r, { maxBytes: 2000, maxLines: 100_000 }, '');
    expect(byteLength(out)).toBeLessThanOrEqual(2000);
    const kept = out.paths as string[];
    expect(kept.length).toBeGreaterThan(10);
    expect(kept).toEqual(r.paths.slice(0, kept.length));
  });

  it('cuts inside a single huge value when nothing else fits', () => {
    const r = { content: 'x'.repeat(50_000) };
    const out = applyCaps(r, { maxBytes: 4096, maxLines: 100 }, '');
    expect(byteLength(out)).toBeLessThanOrEqual(4096);
    expect(String(out.content).length).toBeGreaterThan(3000);
  });

  it('accounts for JSON escaping (quotes and newlines double in size)', () => {
    const r = { content: '"\n'.repeat(5000) };
    const out = applyCaps(r, { maxBytes: 3000, maxLines: 100_000 }, '');
    expect(byteLength(out)).toBeLessThanOrEqual(3000);
  });

  it('appends to a note the tool already wrote', () => {
    const out = applyCaps({ note: 'tool says', items: [1, 2, 3, 4] }, { maxBytes: 1000, maxLines: 2 }, 'hint');
    expect(String(out.note)).toMatch(/^tool says Output cut/);
  });
});

describe('bounded error text', () => {
  it('quoteArg quotes short strings whole and long ones as a prefix with the length', () => {
    expect(quoteArg('a.txt')).toBe('"a.txt"');
    expect(quoteArg('say "hi"\n')).toBe('"say \\"hi\\"\\n"');
    expect(quoteArg('x'.repeat(10_000_000))).toBe(`"${'x'.repeat(200)}…" (10000000 characters)`);
    expect(quoteArg('abcdef', 3)).toBe('"abc…" (6 characters)');
    // Never half a surrogate pair: the emoji is either whole or gone.
    expect(quoteArg(`ab${'😀'.repeat(10)}`, 3)).toBe('"ab…" (22 characters)');
  });

  it('capErrorText cuts in the middle, keeps head and tail, and says how much went', () => {
    expect(capErrorText('short', 100)).toBe('short');
    const text = `HEAD ${'m'.repeat(1_000_000)} TAIL`;
    const cut = capErrorText(text, 8000);
    expect(cut.length).toBeLessThanOrEqual(8000);
    expect(cut.length).toBeGreaterThan(7900);
    expect(cut).toMatch(/^HEAD m+ …\[99\d{4} of 1000010 characters cut\]… m+ TAIL$/);
    // What is kept plus what the marker says was cut is the whole.
    const [marker, removed] = / …\[(\d+) of \d+ characters cut\]… /.exec(cut)!;
    expect(cut.length - marker.length + Number(removed)).toBe(text.length);
  });

  it('describeValue names a value without echoing a big one', () => {
    expect(describeValue(null)).toBe('null');
    expect(describeValue([1, 2])).toBe('an array (2 items)');
    expect(describeValue({ a: 1 })).toBe('an object');
    expect(describeValue('short')).toBe('the string "short"');
    expect(describeValue('y'.repeat(5_000_000))).toBe('a string of 5000000 characters');
    expect(describeValue(Infinity)).toBe('Infinity (a number too large for JSON, e.g. 1e999)');
    expect(describeValue(Number.NaN)).toBe('NaN (not a number)');
    expect(describeValue(-3)).toBe('the number -3');
  });
});
