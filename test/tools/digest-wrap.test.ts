import { describe, expect, it } from 'vitest';
import { DigestWrap } from '../../src/tools/framework/digest-wrap.ts';
import { memoryRawStore, setup } from '../helpers/workspace.ts';
import { recipeWith, stdioServer } from '../mcp/helpers.ts';

const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

/** 120 files with one long matching line each: a grep result of ~30 KB. */
const tree = Object.fromEntries(
  Array.from({ length: 120 }, (_, i) => [`src/f${String(i).padStart(3, '0')}.txt`, `needle ${'word '.repeat(40)}${i}\n`]),
);

describe('the digest layer', () => {
  it('digests a survey tool above 8,000 bytes and retrieve_raw gives the exact result back', async () => {
    const plain = await setup({ tree });
    const full = await plain.ok('grep', { pattern: 'needle' });
    expect(size(full)).toBeGreaterThan(8000);
    expect(full.truncated).toBeUndefined();

    const rt = await setup({ tree, rawStore: true, workspace: plain.dir });
    expect(rt.catalog.has('retrieve_raw')).toBe(true);
    const shown = await rt.ok('grep', { pattern: 'needle' });
    expect(shown).toMatchObject({ digested: true, call_id: 'raw_1', raw_bytes: size(full) });
    expect(size(shown)).toBeLessThanOrEqual(8000);
    expect(shown.note).toMatch(/retrieve_raw/);
    const back = await rt.ok('retrieve_raw', { call_id: 'raw_1' });
    expect(back).toEqual({ call_id: 'raw_1', tool: 'grep', raw: full });
    // The next digest gets the next number.
    expect(await rt.ok('grep', { pattern: 'word' })).toMatchObject({ digested: true, call_id: 'raw_2' });
  });

  it('leaves results at or below the threshold untouched', async () => {
    const rt = await setup({ tree: { 'a.txt': 'needle\n' }, rawStore: true });
    const r = await rt.ok('grep', { pattern: 'needle' });
    expect(r.digested).toBeUndefined();
    expect(JSON.stringify(r)).toContain('a.txt');
  });

  it('never digests read_file, bash or json_query', async () => {
    const big = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, text: 'x'.repeat(30) })));
    const rt = await setup({ tree: { 'big.json': big }, rawStore: true, flags: { mode: 'yolo' } });
    expect((await rt.ok('read_file', { path: 'big.json' })).digested).toBeUndefined();
    expect((await rt.ok('json_query', { path: 'big.json', expression: '.[]' })).digested).toBeUndefined();
    if (rt.catalog.has('bash')) expect((await rt.ok('bash', { command: 'cat big.json' })).digested).toBeUndefined();
  });

  it('is off without a store, with --no-mcp-digest, and with mcp.digest: false — and so is retrieve_raw', async () => {
    for (const rt of [
      await setup({ tree }),
      await setup({ tree, rawStore: true, flags: { noDigest: true } }),
      await setup({ tree, rawStore: true, env: { CORE_AGENT_NO_MCP_DIGEST: 'true' } }),
      await setup({ tree, rawStore: true, recipe: 'mcp:\n  digest: false\n' }),
    ]) {
      expect(rt.catalog.has('retrieve_raw')).toBe(false);
      expect((await rt.ok('grep', { pattern: 'needle' })).digested).toBeUndefined();
    }
  });

  it('retrieve_raw refuses unknown and malformed call_ids', async () => {
    const rt = await setup({ rawStore: true });
    expect(await rt.refused('retrieve_raw', { call_id: 'raw_9' })).toBe(
      'retrieve_raw: no digested result with call_id "raw_9" in this session',
    );
    expect(await rt.refused('retrieve_raw', { call_id: '../etc' })).toMatch(/call_id.*raw_3/);
    expect(await rt.refused('retrieve_raw', {})).toMatch(/call_id/);
  });

  it('shows prose as it is (a text table or YAML from an MCP server): the caps apply, not the digest', () => {
    const store = memoryRawStore();
    const wrap = new DigestWrap(store);
    const table = Array.from({ length: 300 }, (_, i) => `prod  web-${i}  1/1  Running  0  3d`).join('\n');
    expect(wrap.wrap('mcp.k.pods_list', { text: table })).toBeNull();
    expect(wrap.wrap('mcp.k.pods_list', { text: JSON.stringify({ items: table.split('\n') }) })).not.toBeNull();
  });

  it('discards a digest that is no smaller than the result (nothing to prune)', () => {
    const store = memoryRawStore();
    const wrap = new DigestWrap(store);
    const flat = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k${i}`, i]));
    expect(size(flat)).toBeGreaterThan(8000);
    expect(wrap.wrap('x', flat)).toBeNull();
    expect(store.size).toBe(0);
  });

  it('digests a 1 MB MCP response to at most 8 KB, keeping the identifiers; a server can opt out', async () => {
    const rt = await setup({ recipe: recipeWith(stdioServer()), rawStore: true });
    const shown = await rt.ok('test_big', { bytes: 1_000_000 });
    expect(size(shown)).toBeLessThanOrEqual(8000);
    expect(shown.raw_bytes).toBeGreaterThan(1_000_000);
    const digest = JSON.stringify(shown.digest);
    expect(digest).toContain('"kind":"PodList"');
    expect(digest).toContain('"name":"web-0"');
    const total = Number(/"total":(\d+)/.exec(digest)?.[1]);
    expect(total).toBeGreaterThan(100);
    const back = await rt.ok('retrieve_raw', { call_id: shown.call_id as string });
    const items = (JSON.parse((back.raw as { text: string }).text) as { items: unknown[] }).items;
    expect(items.length).toBe(total);

    const optOut = await setup({ recipe: recipeWith(stdioServer({ digest: false })), rawStore: true });
    const capped = await optOut.ok('test_big', { bytes: 1_000_000 });
    expect(capped.digested).toBeUndefined();
    expect(capped.truncated).toBe(true);
  });
});
