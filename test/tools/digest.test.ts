import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DIGEST_THRESHOLD_BYTES,
  digestValue,
  isIdentifierKey,
  jsonSize,
  PRUNE_LEVELS,
  pruneJson,
  type PruneLimits,
  type PruneStats,
} from '../../src/tools/framework/digest.ts';
import type { JsonObject, JsonValue } from '../../src/tools/framework/tool.ts';

const L0 = PRUNE_LEVELS[0]!;
const TIGHTEST = PRUNE_LEVELS[PRUNE_LEVELS.length - 1]!;
const ZERO: PruneStats = { strings_truncated: 0, arrays_collapsed: 0, subtrees_dropped: 0, nested_json_parsed: 0 };
const BUDGET = DIGEST_THRESHOLD_BYTES - 400;
const limits = (over: Partial<PruneLimits>): PruneLimits => ({ ...L0, ...over });
const bytesOf = (v: JsonValue) => Buffer.byteLength(JSON.stringify(v));
const marker = (n: number) => `…<truncated, ${n} chars>`;

// Deterministic payloads, so a failure reproduces.
function lcg(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

function text(rand: () => number, chars: number): string {
  const words = ['pod', 'scheduled', 'on', 'node', 'image', 'pulled', 'ready', 'backoff', 'the', 'volume'];
  let s = '';
  while (s.length < chars) s += `${words[Math.floor(rand() * words.length)]} `;
  return s.slice(0, chars);
}

/** Mostly small, like a real listing, with a long note and kubectl's JSON-in-a-string annotation on every 20th. */
function pod(i: number, rand: () => number): JsonObject {
  const long = i % 20 === 0;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `api-${i}`,
      namespace: 'prod',
      uid: `uid-${i}`,
      labels: { app: 'api' },
      annotations: long
        ? {
            note: text(rand, 1200),
            'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
              kind: 'Pod',
              spec: { containers: [{ name: 'api', args: text(rand, 600) }] },
            }),
          }
        : { note: text(rand, 20) },
    },
    spec: { nodeName: `node-${i % 7}` },
    status: { phase: i % 3 === 0 ? 'Pending' : 'Running', restartCount: i % 4 },
  };
}

function podList(n: number): JsonObject {
  const rand = lcg(n);
  return { apiVersion: 'v1', kind: 'PodList', items: Array.from({ length: n }, (_, i) => pod(i, rand)) };
}

const mcp = (payload: JsonValue): JsonObject => ({ content: [{ type: 'text', text: JSON.stringify(payload) }] });

function deep(levels: number): JsonValue {
  let v: JsonValue = { leaf: 'x'.repeat(700), n: levels };
  for (let i = 0; i < levels; i++) v = { level: i, child: v, siblings: [i, { i }, [i]] };
  return v;
}

/** Varied shapes used for the idempotence checks. */
const PAYLOADS: Record<string, JsonValue> = {
  'pod list': podList(60),
  'MCP-wrapped pod list': mcp(podList(60)),
  'JSON nested twice in strings': {
    outer: JSON.stringify({ inner: JSON.stringify(podList(8)), list: Array.from({ length: 30 }, (_, i) => i) }),
  },
  'deep nesting': deep(20),
  'long arrays of long strings': { lines: Array.from({ length: 100 }, (_, i) => `${i}:${'y'.repeat(900 + i)}`) },
  'unicode around the cut': Array.from({ length: 8 }, (_, k) => 'a'.repeat(k) + '😀é漢'.repeat(300)),
  'long identifiers': { name: 'n'.repeat(3000), podId: 'p'.repeat(1000), selfLink: `/api/${'s'.repeat(2100)}` },
  'arrays of arrays': Array.from({ length: 30 }, (_, i) => Array.from({ length: 30 }, (_, j) => ({ i, j, s: 'z'.repeat(i * 20) }))),
  primitives: [1, -0, 1.5e-7, 1e21, true, false, null, '', 'short'],
};

describe('PRUNE_LEVELS', () => {
  it('starts at the documented loosest level and only tightens', () => {
    expect(L0).toEqual({ maxStringChars: 500, keepChars: 200, maxArrayElems: 20, maxDepth: 8 });
    for (let i = 1; i < PRUNE_LEVELS.length; i++) {
      const [a, b] = [PRUNE_LEVELS[i - 1]!, PRUNE_LEVELS[i]!];
      expect(b.maxStringChars).toBeLessThanOrEqual(a.maxStringChars);
      expect(b.keepChars).toBeLessThanOrEqual(a.keepChars);
      expect(b.maxArrayElems).toBeLessThanOrEqual(a.maxArrayElems);
      expect(b.maxDepth).toBeLessThanOrEqual(a.maxDepth);
      expect(b).not.toEqual(a);
    }
  });

  it('leaves room for the marker, so a cut string is within every level’s string limit', () => {
    const longest = marker(Number.MAX_SAFE_INTEGER).length;
    for (const l of PRUNE_LEVELS) expect(l.keepChars + longest).toBeLessThanOrEqual(l.maxStringChars);
  });
});

describe('isIdentifierKey', () => {
  it('matches the listed names in any case', () => {
    const names = [
      'id',
      'name',
      'status',
      'kind',
      'type',
      'error',
      'code',
      'reason',
      'apiVersion',
      'namespace',
      'uid',
      'resourceVersion',
      'phase',
    ];
    for (const k of names) {
      expect(isIdentifierKey(k), k).toBe(true);
      expect(isIdentifierKey(k.toUpperCase()), k.toUpperCase()).toBe(true);
    }
  });

  it('matches _id / Id suffixes', () => {
    for (const k of ['call_id', 'CALL_ID', 'podId', 'podID', 'x-request-id', 'tool.id']) expect(isIdentifierKey(k), k).toBe(true);
  });

  it('matches keys containing url, uri, path, href or link', () => {
    for (const k of ['url', 'imageURL', 'redirect_uri', 'filePath', 'path', 'href', 'selfLink', 'links', 'Pathname'])
      expect(isIdentifierKey(k), k).toBe(true);
  });

  it('does not match other keys', () => {
    for (const k of ['description', 'message', 'value', 'names', 'statuses', 'identity', 'idle', 'paid', 'VOID', 'data', 'text', '']) {
      expect(isIdentifierKey(k), k).toBe(false);
    }
  });
});

describe('pruneJson: strings', () => {
  it('keeps the head and reports the original length', () => {
    const s = 'abcdefghij'.repeat(100);
    const r = pruneJson({ msg: s });
    expect(r.value).toEqual({ msg: s.slice(0, 200) + marker(1000) });
    expect(r.stats).toEqual({ ...ZERO, strings_truncated: 1 });
  });

  it('leaves strings up to maxStringChars alone', () => {
    const s = 'q'.repeat(500);
    expect(pruneJson({ msg: s, list: [s] })).toEqual({ value: { msg: s, list: [s] }, stats: ZERO });
  });

  it('cuts array elements and a root string too', () => {
    expect(pruneJson(['x'.repeat(501)]).value).toEqual(['x'.repeat(200) + marker(501)]);
    expect(pruneJson('x'.repeat(501)).value).toBe('x'.repeat(200) + marker(501));
  });

  it('keeps identifier values uncut up to 2,048 chars, at every level', () => {
    const v = { name: 'n'.repeat(2048), call_id: 'c'.repeat(900), imageUrl: 'u'.repeat(700), note: 'd'.repeat(700) };
    for (const l of PRUNE_LEVELS) {
      const out = pruneJson(v, l).value as JsonObject;
      expect(out.name).toBe(v.name);
      expect(out.call_id).toBe(v.call_id);
      expect(out.imageUrl).toBe(v.imageUrl);
      expect(out.note).toBe('d'.repeat(l.keepChars) + marker(700));
    }
  });

  it('cuts an identifier value longer than 2,048 chars like any other string', () => {
    expect(pruneJson({ name: 'n'.repeat(2049) }).value).toEqual({ name: 'n'.repeat(200) + marker(2049) });
  });

  it('applies the identifier rule to object values only, not to array elements', () => {
    expect(pruneJson({ paths: ['p'.repeat(600)] }).value).toEqual({ paths: ['p'.repeat(200) + marker(600)] });
  });

  it('never splits a surrogate pair', () => {
    for (let k = 0; k < 4; k++) {
      const s = 'a'.repeat(k) + '😀'.repeat(400);
      const out = pruneJson(s).value as string;
      const head = out.slice(0, out.indexOf('…<truncated'));
      expect(s.startsWith(head)).toBe(true);
      expect(head.isWellFormed()).toBe(true);
      expect(head.length).toBe(200 - ((200 - k) % 2)); // one shorter when 200 lands inside a pair
      expect(out.endsWith(marker(s.length))).toBe(true);
    }
  });

  it('leaves its own output alone, and a tighter level keeps the original length', () => {
    const s = 'w'.repeat(10_000);
    const once = pruneJson(s).value as string;
    expect(pruneJson(once)).toEqual({ value: once, stats: ZERO });
    // Over maxStringChars, but no longer than keepChars + marker: still left alone.
    expect(pruneJson(once, limits({ maxStringChars: 210 }))).toEqual({ value: once, stats: ZERO });
    const tighter = pruneJson(once, TIGHTEST);
    expect(tighter.value).toBe('w'.repeat(TIGHTEST.keepChars) + marker(10_000));
    expect(tighter.stats).toEqual({ ...ZERO, strings_truncated: 1 });
  });

  it('reads only the ends of a huge string', () => {
    const s = `x${' '.repeat(5_000_000)}y`;
    const charCodeAt = vi.spyOn(String.prototype, 'charCodeAt');
    const out = pruneJson({ log: s }).value;
    expect(charCodeAt.mock.calls.length).toBeLessThan(10);
    charCodeAt.mockRestore();
    expect(out).toEqual({ log: s.slice(0, 200) + marker(s.length) });
  });

  it('treats a marker-shaped ending on a long string as a cut of at least that string', () => {
    const s = 'v'.repeat(1000) + marker(5);
    expect(pruneJson(s).value).toBe('v'.repeat(200) + marker(s.length));
  });
});

describe('pruneJson: JSON nested in strings', () => {
  afterEach(() => vi.restoreAllMocks());

  it('parses a long JSON object string and prunes what it holds', () => {
    const inner = { kind: 'Thing', body: 'b'.repeat(800), n: 1 };
    const r = pruneJson({ payload: JSON.stringify(inner) });
    expect(r.value).toEqual({ payload: { kind: 'Thing', body: 'b'.repeat(200) + marker(800), n: 1 } });
    expect(r.stats).toEqual({ ...ZERO, strings_truncated: 1, nested_json_parsed: 1 });
  });

  it('parses a long JSON array string, surrounded by whitespace, into a summary', () => {
    const list = Array.from({ length: 200 }, (_, i) => i);
    const r = pruneJson([`\n  ${JSON.stringify(list)}\t\r\n`]);
    expect(r.value).toEqual([{ _summary: 'array', total: 200, dropped: 180, first: list.slice(0, 10), last: list.slice(190) }]);
    expect(r.stats).toEqual({ ...ZERO, arrays_collapsed: 1, nested_json_parsed: 1 });
  });

  it('handles the MCP shape: the text becomes the pruned payload', () => {
    const payload = { items: Array.from({ length: 50 }, (_, i) => ({ name: `n${i}` })) };
    const out = pruneJson(mcp(payload)).value as { content: [{ type: string; text: JsonObject }] };
    expect(out.content[0].type).toBe('text');
    expect(out.content[0].text.items).toMatchObject({ _summary: 'array', total: 50, dropped: 30 });
  });

  it('continues depth from the string: the parsed root sits where the string was', () => {
    const v = { a: { b: JSON.stringify({ c: { d: 'x'.repeat(600) } }) } }; // the string is at depth 2
    expect(pruneJson(v, limits({ maxDepth: 4 })).value).toEqual({ a: { b: { c: { d: 'x'.repeat(200) + marker(600) } } } });
    expect(pruneJson(v, limits({ maxDepth: 3 })).value).toEqual({ a: { b: { c: '<truncated, subtree of 1 keys>' } } });
    const r = pruneJson(v, limits({ maxDepth: 2 }));
    expect(r.value).toEqual({ a: { b: '<truncated, subtree of 1 keys>' } });
    expect(r.stats).toEqual({ ...ZERO, subtrees_dropped: 1, nested_json_parsed: 1 });
  });

  it('cuts invalid JSON as plain text', () => {
    const bad = `{ "a": ${'1'.repeat(600)}, oops }`;
    const r = pruneJson({ t: bad });
    expect(r.value).toEqual({ t: bad.slice(0, 200) + marker(bad.length) });
    expect(r.stats).toEqual({ ...ZERO, strings_truncated: 1 });
  });

  it('does not even try to parse unless the string is long and bracketed at both ends', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const notContainers = [
      `{"a": [${'1,'.repeat(300)}1]]`,
      `[${'1,'.repeat(300)}1]}`,
      `{"a": "${'b'.repeat(600)}"} and then some prose`,
      `"${'a'.repeat(600)}"`, // valid JSON, but a string literal
      '9'.repeat(600), // valid JSON, but a number
    ];
    for (const s of notContainers) expect(pruneJson(s).value).toBe(s.slice(0, 200) + marker(s.length));
    const short = JSON.stringify({ a: 1 });
    expect(pruneJson({ t: short })).toEqual({ value: { t: short }, stats: ZERO });
    expect(parse).not.toHaveBeenCalled();
  });

  it('keeps JSON under an identifier key as an uncut string (up to 2,048 chars)', () => {
    const json = JSON.stringify({ items: Array.from({ length: 100 }, (_, i) => i) });
    expect(pruneJson({ name: json }, TIGHTEST)).toEqual({ value: { name: json }, stats: ZERO });
  });

  it('parses JSON under an identifier key once it is too long to be an identifier', () => {
    const json = JSON.stringify({ items: Array.from({ length: 1000 }, (_, i) => i) });
    const out = pruneJson({ name: json }).value as { name: { items: JsonObject } };
    expect(out.name.items).toMatchObject({ _summary: 'array', total: 1000 });
  });
});

describe('pruneJson: arrays', () => {
  it('leaves arrays up to maxArrayElems in place, pruning their elements', () => {
    const a = Array.from({ length: 20 }, (_, i) => (i === 3 ? 'l'.repeat(600) : i));
    const out = pruneJson(a).value as JsonValue[];
    expect(out).toHaveLength(20);
    expect(out[3]).toBe('l'.repeat(200) + marker(600));
  });

  it('collapses a longer array to first ceil(n/2) and last floor(n/2), pruned', () => {
    const a = Array.from({ length: 21 }, (_, i) => ({ i, s: 's'.repeat(600) }));
    const r = pruneJson(a);
    const cut = (i: number) => ({ i, s: 's'.repeat(200) + marker(600) });
    expect(r.value).toEqual({
      _summary: 'array',
      total: 21,
      dropped: 1,
      first: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(cut),
      last: [11, 12, 13, 14, 15, 16, 17, 18, 19, 20].map(cut),
    });
    expect(r.stats).toEqual({ ...ZERO, arrays_collapsed: 1, strings_truncated: 20 });
  });

  it('splits an odd limit with the extra element at the head', () => {
    const a = Array.from({ length: 100 }, (_, i) => i);
    expect(pruneJson(a, limits({ maxArrayElems: 5 })).value).toEqual({
      _summary: 'array',
      total: 100,
      dropped: 95,
      first: [0, 1, 2],
      last: [98, 99],
    });
    expect(pruneJson(a, limits({ maxArrayElems: 1 })).value).toEqual({ _summary: 'array', total: 100, dropped: 99, first: [0], last: [] });
  });

  it('re-collapses a summary at a tighter level, keeping the original total', () => {
    const a = Array.from({ length: 1000 }, (_, i) => i);
    const loose = pruneJson(a).value;
    const r = pruneJson(loose, limits({ maxArrayElems: 6 }));
    expect(r.value).toEqual({ _summary: 'array', total: 1000, dropped: 994, first: [0, 1, 2], last: [997, 998, 999] });
    expect(r.stats).toEqual({ ...ZERO, arrays_collapsed: 1 });
    // Back at the looser level the summary is left as it is: it cannot grow back.
    expect(pruneJson(r.value)).toEqual({ value: r.value, stats: ZERO });
  });

  it('does not mistake an object that only looks like a summary for one', () => {
    const fake = { _summary: 'array', total: 100, dropped: 3, first: [1, 2, 3, 4, 5, 6, 7, 8], last: [9] };
    const out = pruneJson(fake, limits({ maxArrayElems: 4 })).value as JsonObject;
    expect(out.dropped).toBe(3);
    expect(out.first).toMatchObject({ _summary: 'array', total: 8 });
  });

  it('walks only the kept elements', () => {
    // Touching any dropped element throws, so this passes only if pruning never reads them.
    const a: JsonValue[] = Array.from({ length: 1000 }, (_, i) => i);
    for (let i = 10; i < 990; i++) Object.defineProperty(a, i, { get: () => expect.unreachable(`element ${i} read`) });
    expect(pruneJson(a).value).toMatchObject({ total: 1000, first: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] });
  });
});

describe('pruneJson: depth', () => {
  it('replaces objects and arrays at maxDepth with a marker (root is depth 0)', () => {
    const v = { a: { b: { c: 1, d: 2 }, list: [1, 2, 3] }, top: [[1], { x: 1 }] };
    const r = pruneJson(v, limits({ maxDepth: 2 }));
    expect(r.value).toEqual({
      a: { b: '<truncated, subtree of 2 keys>', list: '<truncated, array of 3 items>' },
      top: ['<truncated, array of 1 items>', '<truncated, subtree of 1 keys>'],
    });
    expect(r.stats).toEqual({ ...ZERO, subtrees_dropped: 4 });
    expect(pruneJson({ a: 1 }, limits({ maxDepth: 0 })).value).toBe('<truncated, subtree of 1 keys>');
  });

  it('counts a summary at the depth of the array it replaced', () => {
    // The array is at depth 1; its elements at depth 2 are the deepest allowed containers' children.
    const v = { list: Array.from({ length: 50 }, (_, i) => ({ i, inner: { j: i } })) };
    const l = limits({ maxDepth: 3 });
    const once = pruneJson(v, l).value;
    expect(once).toEqual({
      list: {
        _summary: 'array',
        total: 50,
        dropped: 30,
        first: Array.from({ length: 10 }, (_, i) => ({ i, inner: '<truncated, subtree of 1 keys>' })),
        last: Array.from({ length: 10 }, (_, i) => ({ i: 40 + i, inner: '<truncated, subtree of 1 keys>' })),
      },
    });
    expect(pruneJson(once, l)).toEqual({ value: once, stats: ZERO });
    // At a depth where the array itself would go, the summary goes the same way, with the original count.
    expect(pruneJson(once, limits({ maxDepth: 1 })).value).toEqual({ list: '<truncated, array of 50 items>' });
  });

  it('leaves depth markers alone', () => {
    const v = { a: '<truncated, subtree of 9 keys>', b: ['<truncated, array of 9 items>'] };
    expect(pruneJson(v, TIGHTEST)).toEqual({ value: v, stats: ZERO });
  });
});

describe('pruneJson: everything else', () => {
  it('keeps numbers, booleans, null and key order', () => {
    const v = { z: 1, a: -2.5, m: true, b: false, n: null, '10': 1e21, '2': 0 };
    const out = pruneJson(v).value as JsonObject;
    expect(out).toEqual(v);
    expect(Object.keys(out)).toEqual(Object.keys(v));
  });

  it('keeps a "__proto__" key from JSON.parse as a plain own key', () => {
    const v = JSON.parse('{"__proto__": {"x": "y"}, "a": 1}') as JsonObject;
    const out = pruneJson(v).value as JsonObject;
    expect(Object.keys(out)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe(JSON.stringify(v));
  });

  it('does not modify its input', () => {
    const v = podList(30);
    const copy = structuredClone(v);
    pruneJson(v, TIGHTEST);
    digestValue(mcp(v), 500);
    expect(v).toEqual(copy);
  });
});

describe('idempotence', () => {
  for (const [name, payload] of Object.entries(PAYLOADS)) {
    it(`${name}: pruning again at the same or a looser level changes nothing`, () => {
      PRUNE_LEVELS.forEach((level, j) => {
        const once = pruneJson(payload, level).value;
        expect(pruneJson(once, level), `level ${j}`).toEqual({ value: once, stats: ZERO });
        for (let i = 0; i < j; i++) expect(pruneJson(once, PRUNE_LEVELS[i]).value, `level ${j} then ${i}`).toEqual(once);
      });
    });

    it(`${name}: digesting a digest changes nothing`, () => {
      for (const budget of [BUDGET, 3000, 800, 100]) {
        const once = digestValue(payload, budget);
        expect(digestValue(once.value, budget).value, `budget ${budget}`).toEqual(once.value);
      }
    });
  }
});

describe('digestValue', () => {
  afterEach(() => vi.restoreAllMocks());

  it('stops at the first level that fits, with the exact size', () => {
    const small = { items: Array.from({ length: 30 }, (_, i) => ({ name: `n${i}` })) };
    const d = digestValue(small, BUDGET);
    expect(d.level).toBe(0);
    expect(d.bytes).toBe(bytesOf(d.value));
    expect(d.value).toEqual(pruneJson(small).value);
  });

  it('brings a 1 MB MCP result of 3,000 pods under budget, keeping the shape and names', () => {
    const list = podList(3000);
    const wrapped = mcp(list);
    expect(bytesOf(wrapped)).toBeGreaterThan(1_000_000);
    expect(bytesOf(wrapped)).toBeLessThan(1_500_000);
    const parse = vi.spyOn(JSON, 'parse');
    const d = digestValue(wrapped, BUDGET);
    expect(d.bytes).toBeLessThanOrEqual(BUDGET);
    expect(d.bytes).toBe(bytesOf(d.value));
    // The 1 MB text is parsed once, at the first level; later levels prune the parsed tree.
    expect(parse.mock.calls.filter(([s]) => s.length > 1_000_000)).toHaveLength(1);
    expect(d.stats.nested_json_parsed).toBeGreaterThan(0);
    expect(d.stats.arrays_collapsed).toBeGreaterThan(0);

    const text = (d.value as { content: [{ type: string; text: { kind: string; items: JsonObject } }] }).content[0].text;
    expect(text.kind).toBe('PodList');
    const items = text.items as unknown as { total: number; dropped: number; first: JsonObject[]; last: JsonObject[] };
    expect(items.total).toBe(3000);
    expect(items.dropped).toBe(3000 - items.first.length - items.last.length);
    expect(items.first[0]).toMatchObject({ kind: 'Pod', metadata: { name: 'api-0', uid: 'uid-0' }, status: { phase: 'Pending' } });
    expect(items.last.at(-1)).toMatchObject({ metadata: { name: 'api-2999' } });
  });

  it('digests a 10 MB MCP result', () => {
    const wrapped = mcp(podList(27_000));
    expect(jsonSize(wrapped, DIGEST_THRESHOLD_BYTES)).toBeGreaterThan(DIGEST_THRESHOLD_BYTES);
    expect(bytesOf(wrapped)).toBeGreaterThan(10_000_000);
    const d = digestValue(wrapped, BUDGET);
    expect(d.bytes).toBeLessThanOrEqual(BUDGET);
    expect(d.bytes).toBe(bytesOf(d.value));
    expect(JSON.stringify(d.value)).toContain('"total":27000');
  });

  it('sums the stats of every pass', () => {
    const v = { list: Array.from({ length: 100 }, (_, i) => ({ i, s: 'x'.repeat(1000) })) };
    const d = digestValue(v, 1500);
    expect(d.level).toBeGreaterThan(0);
    let expected = { ...ZERO };
    let cur: JsonValue = v;
    for (let l = 0; l <= d.level; l++) {
      const r = pruneJson(cur, PRUNE_LEVELS[l]);
      cur = r.value;
      expected = {
        strings_truncated: expected.strings_truncated + r.stats.strings_truncated,
        arrays_collapsed: expected.arrays_collapsed + r.stats.arrays_collapsed,
        subtrees_dropped: expected.subtrees_dropped + r.stats.subtrees_dropped,
        nested_json_parsed: expected.nested_json_parsed + r.stats.nested_json_parsed,
      };
    }
    expect(d.value).toEqual(cur);
    expect(d.stats).toEqual(expected);
  });

  it('returns the tightest level, with its exact size, when nothing fits', () => {
    // Object keys are never dropped, so a wide object cannot be brought under budget.
    const wide = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`key_${i}`, i]));
    const d = digestValue(wide, BUDGET);
    expect(d.level).toBe(PRUNE_LEVELS.length - 1);
    expect(d.bytes).toBeGreaterThan(BUDGET);
    expect(d.bytes).toBe(bytesOf(d.value));
  });
});

describe('jsonSize', () => {
  const values: JsonValue[] = [
    null,
    true,
    false,
    0,
    -0,
    -12.5,
    1e21,
    1.5e-7,
    Number.MAX_VALUE,
    NaN,
    Infinity,
    '',
    'plain',
    'quote " backslash \\ slash /',
    '\n\r\t\b\f\u0000\u001f\u007f',
    'é ß 漢字 € 😀 👩‍👩‍👧',
    '\ud800 lone high, lone low \udc00, reversed \udc00\ud800',
    '\u2028\u2029',
    [],
    {},
    [[], {}, [[]], { a: [] }],
    { 'key "quoted"': 'v', ключ: ['ü', 1, null], '😀': { nested: { deeper: [true, false, 'x\ny'] } } },
    podList(5),
    mcp(podList(3)),
  ];

  it('is exact for small values', () => {
    for (const v of values) expect(jsonSize(v), JSON.stringify(v)).toBe(bytesOf(v));
  });

  it('is exact whenever the size is at most atLeast', () => {
    for (const v of values) {
      const exact = bytesOf(v);
      expect(jsonSize(v, exact)).toBe(exact);
      expect(jsonSize(v, exact + 100)).toBe(exact);
    }
  });

  it('skips undefined properties and counts undefined elements as null, like JSON.stringify', () => {
    const v = { a: undefined, b: [undefined, 1], c: 'x', d: undefined } as unknown as JsonValue;
    expect(jsonSize(v)).toBe(bytesOf(v));
  });

  it('returns a lower bound above atLeast when the size exceeds it', () => {
    const big: JsonValue[] = [
      podList(2000),
      mcp(podList(2000)),
      'x'.repeat(1_000_000),
      Array.from({ length: 100_000 }, (_, i) => i),
      deep(500),
    ];
    for (const v of big) {
      const exact = bytesOf(v);
      for (const atLeast of [0, 1, 100, DIGEST_THRESHOLD_BYTES, exact - 1]) {
        const n = jsonSize(v, atLeast);
        expect(n).toBeGreaterThan(atLeast);
        expect(n).toBeLessThanOrEqual(exact);
      }
    }
  });

  it('stops before reading what lies past atLeast', () => {
    const poisoned = {};
    Object.defineProperty(poisoned, 'x', { enumerable: true, get: () => expect.unreachable('read past the bound') });
    expect(jsonSize({ head: 'h'.repeat(DIGEST_THRESHOLD_BYTES), tail: poisoned } as JsonValue, DIGEST_THRESHOLD_BYTES)).toBeGreaterThan(
      DIGEST_THRESHOLD_BYTES,
    );
    const long: JsonValue[] = Array.from({ length: 10_000 }, () => 1);
    Object.defineProperty(long, 0, { get: () => expect.unreachable('walked an array longer than the bound') });
    expect(jsonSize(long, DIGEST_THRESHOLD_BYTES)).toBeGreaterThan(DIGEST_THRESHOLD_BYTES);
  });

  it('does not scan a string longer than the bound', () => {
    const charCodeAt = vi.spyOn(String.prototype, 'charCodeAt');
    expect(jsonSize({ text: 'é'.repeat(1_000_000) }, DIGEST_THRESHOLD_BYTES)).toBeGreaterThan(DIGEST_THRESHOLD_BYTES);
    expect(charCodeAt.mock.calls.length).toBeLessThan(10); // the key only
    charCodeAt.mockRestore();
  });
});
