// The stdio transport's pieces on their own: the id of an oversized answer read
// from its two ends, the line framer's bound, and the stderr tail's.
import { describe, expect, it } from 'vitest';
import { LineFramer, messageId } from '../../src/mcp/stdio-transport.ts';
import { MAX_PARTIAL_CHARS, StderrTail } from '../../src/mcp/stderr-tail.ts';

describe('messageId: the id of a message from its first and last bytes', () => {
  const body = '"result":{"content":[{"type":"text","text":"xxxx"}]}';
  const cases: Array<[string, string, string | number | undefined]> = [
    ['the TypeScript SDK: id last', `{${body},"jsonrpc":"2.0","id":7}`, 7],
    ['id first (Python, Go)', `{"jsonrpc":"2.0","id":7,${body}}`, 7],
    ['id first, no jsonrpc before it', `{"id":7,"jsonrpc":"2.0",${body}}`, 7],
    ['id before jsonrpc, at the end', `{${body},"id":7,"jsonrpc":"2.0"}`, 7],
    ['a string id', `{"jsonrpc":"2.0","id":"req-\\"7\\"",${body}}`, 'req-"7"'],
    ['a negative id', `{${body},"jsonrpc":"2.0","id":-3}`, -3],
    ['whitespace around', ` { "jsonrpc" : "2.0" , "id" : 12 , ${body} } \r`, 12],
    ['a nested id at the end is not the message id', `{"jsonrpc":"2.0",${body.slice(0, -1)},"meta":{"id":99}}}`, undefined],
    ['a nested id at the start is not the message id', `{"result":{"id":99,"x":1},"jsonrpc":"2.0","trailer":1}`, undefined],
    ['id buried in the middle', `{"jsonrpc":"2.0",${body},"id":7,"trailer":true}`, undefined],
    ['a notification', `{"jsonrpc":"2.0","method":"notifications/message","params":{}}`, undefined],
  ];
  it.each(cases)('%s', (_what, message, id) => {
    // Only the ends survive an oversized line: 512 bytes each, here the whole of these short ones.
    expect(messageId(message.slice(0, 512), message.slice(-512))).toBe(id);
  });
});

describe('LineFramer', () => {
  const frame = (max: number, chunks: Buffer[]) => {
    const lines: string[] = [];
    const big: Array<{ head: string; tail: string; bytes: number }> = [];
    const f = new LineFramer(
      max,
      (l) => lines.push(l.toString()),
      (b) => big.push(b),
    );
    for (const c of chunks) f.push(c);
    return { lines, big };
  };

  it('splits lines across chunk boundaries, any way the bytes arrive', () => {
    const text = 'one\ntwo\n\nthree\n';
    for (let size = 1; size <= text.length; size++) {
      const chunks = [];
      for (let i = 0; i < text.length; i += size) chunks.push(Buffer.from(text.slice(i, i + size)));
      expect(frame(100, chunks).lines).toEqual(['one', 'two', '', 'three']);
    }
  });

  it('a line over the limit is reported with its ends and length, and the next line is intact', () => {
    const long = `HEAD${'x'.repeat(5000)}TAIL`;
    const chunks = [`${long}\nnext\n`]
      .map((s) => Buffer.from(s))
      .flatMap((b) => Array.from({ length: Math.ceil(b.length / 333) }, (_, i) => b.subarray(i * 333, i * 333 + 333)));
    const { lines, big } = frame(1000, chunks);
    expect(lines).toEqual(['next']);
    expect(big).toHaveLength(1);
    expect(big[0]!.bytes).toBe(long.length);
    expect(big[0]!.head.startsWith('HEAD')).toBe(true);
    expect(big[0]!.tail.endsWith('TAIL')).toBe(true);
    expect(big[0]!.head.length + big[0]!.tail.length).toBeLessThanOrEqual(1024);
  });

  it('a line of exactly the limit is a line', () => {
    expect(frame(10, [Buffer.from('0123456789\n')]).lines).toEqual(['0123456789']);
    expect(frame(10, [Buffer.from('0123456789X\n')]).big).toHaveLength(1);
  });
});

describe('StderrTail', () => {
  it('a partial line is held to its last 64 KiB, and says how much it dropped when it ends', () => {
    const t = new StderrTail();
    for (let i = 0; i < 200; i++) t.push('z'.repeat(10_000));
    expect(t.heldChars).toBeLessThanOrEqual(MAX_PARTIAL_CHARS);
    t.push('END\n');
    expect(t.last()).toMatch(/^…\(\d+ chars dropped\) z+END$/);
    expect(t.last().length).toBeLessThan(600);
  });

  it('keeps the last five lines, each cut to 500 chars', () => {
    const t = new StderrTail();
    for (let i = 0; i < 1000; i++) t.push(`line ${i} ${'w'.repeat(1000)}\n`);
    expect(t.last()).toMatch(/^line 999 w+$/);
    expect(t.last().length).toBe(500);
    expect(t.heldChars).toBeLessThanOrEqual(5 * 500);
  });

  it('blank lines are not last words', () => {
    const t = new StderrTail();
    t.push('panic: boom\n\n   \n');
    expect(t.last()).toBe('panic: boom');
  });
});
