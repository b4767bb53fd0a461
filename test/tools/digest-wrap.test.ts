import { describe, expect, it } from 'vitest';
import { DigestWrap } from '../../src/tools/framework/digest-wrap.ts';
import { memoryRawStore, setup } from '../helpers/workspace.ts';
import { recipeWith, stdioServer } from '../mcp/helpers.ts';

const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

/** 120 files with one long matching line each: a grep result of ~30 KB. */
const tree = Object.fromEntries(
  Array.from({ length: 120 }, (_, i) => [`src/f${String(i).padStart(3, '0')}.txt`, `needle ${'word '.repeat(40)}${i}\n`]),
);

// kubernetes-mcp-server 0.0.67's pods list as text (--list-output table, its default): the
// columns of its pod printer, each padded to its widest value plus three spaces.
const COLUMNS = [
  'NAMESPACE',
  'APIVERSION',
  'KIND',
  'NAME',
  'READY',
  'STATUS',
  'RESTARTS',
  'AGE',
  'IP',
  'NODE',
  'NOMINATED NODE',
  'READINESS GATES',
  'LABELS',
];
function podTable(n: number, status: (i: number) => string): string {
  const rows = Array.from({ length: n }, (_, i) => {
    const crash = status(i) !== 'Running';
    return [
      'shop',
      'v1',
      'Pod',
      `web-7d4b9c-${String(i).padStart(5, '0')}`,
      crash ? '0/1' : '1/1',
      status(i),
      crash ? '7' : '0',
      '3d',
      `10.244.0.${i}`,
      'kwok-node-0',
      '<none>',
      '<none>',
      'app=web,pod-template-hash=7d4b9c',
    ];
  });
  const widths = COLUMNS.map((c, j) => Math.max(c.length, ...rows.map((r) => r[j]!.length)));
  const line = (cells: string[]) => cells.map((c, j) => (j === cells.length - 1 ? c : c.padEnd(widths[j]! + 3))).join('');
  return [line(COLUMNS), ...rows.map(line)].join('\n');
}

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

  it('digests a text table as its rows, with counts over every row and the rare rows whole; raw text back from the store', async () => {
    const store = memoryRawStore();
    const wrap = new DigestWrap(store);
    const text = podTable(45, (i) => (i % 9 === 4 ? 'CrashLoopBackOff' : 'Running'));
    expect(Buffer.byteLength(text)).toBeGreaterThan(8000);
    const out = (await wrap.wrap('mcp.kubernetes.pods_list_in_namespace', { text }))!;
    expect(out).not.toBeNull();
    expect(size(out.shown)).toBeLessThanOrEqual(8000);
    const t = (out.shown.digest as { table: Record<string, unknown> }).table;
    expect(t.columns).toEqual(COLUMNS);
    expect(t.total_rows).toBe(45);
    expect(t.counts).toMatchObject({ STATUS: { Running: 40, CrashLoopBackOff: 5 }, READY: { '1/1': 40, '0/1': 5 } });
    expect(Object.keys(t.counts as object)).not.toContain('NAMESPACE'); // one value: nothing to count
    // The five crash-looping pods, whole, wherever they sat in the table.
    expect((t.rows_with_rare_values as Array<Record<string, string>>).map((r) => [r.NAME, r.STATUS])).toEqual(
      [4, 13, 22, 31, 40].map((i) => [`web-7d4b9c-${String(i).padStart(5, '0')}`, 'CrashLoopBackOff']),
    );
    expect(JSON.parse(store.get(out.callId)!.rawJson)).toEqual({ text });
  });

  it('digests YAML as its value; other prose is shown as it is, under the caps', async () => {
    const wrap = new DigestWrap(memoryRawStore());
    const yaml = Array.from(
      { length: 60 },
      (_, i) =>
        `- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: web-${i}\n    namespace: shop\n  status:\n    phase: Running\n    podIP: 10.0.0.${i}\n`,
    ).join('');
    const out = (await wrap.wrap('mcp.kubernetes.pods_list', { text: yaml }))!;
    expect(out).not.toBeNull();
    const items = (out.shown.digest as { yaml: Record<string, unknown> }).yaml;
    expect(items).toMatchObject({ _summary: 'array', total: 60 });
    expect(JSON.stringify(items)).toContain('"name":"web-0"');
    // A log, a table whose rows do not line up, prose: no structure, no digest.
    const log = Array.from({ length: 300 }, (_, i) => `2026-12-07T10:00:${i % 60}Z pod web-${i} restarted: exit code 1`).join('\n');
    expect(await wrap.wrap('mcp.k.logs', { text: log })).toBeNull();
    const ragged = Array.from({ length: 300 }, (_, i) => `prod  web-${i}  1/1  Running  0  3d`).join('\n');
    expect(await wrap.wrap('mcp.k.pods_list', { text: ragged })).toBeNull();
    expect(await wrap.wrap('mcp.k.pods_list', { text: JSON.stringify({ items: ragged.split('\n') }) })).not.toBeNull();
  });

  it('discards a digest that is no smaller than the result (nothing to prune)', async () => {
    const store = memoryRawStore();
    const wrap = new DigestWrap(store);
    const flat = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k${i}`, i]));
    expect(size(flat)).toBeGreaterThan(8000);
    expect(await wrap.wrap('x', flat)).toBeNull();
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
