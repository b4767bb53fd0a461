// node bench/digest-bench.ts: the cost of digesting a large MCP tool result, against
// JSON.parse of the same bytes (the product's bar: digest ≤ 3× parse, for 10 MB).
// Payloads are deterministic Kubernetes-like pod lists, carried as MCP results do it:
// {text: '<the JSON>'} (src/mcp/mcp-tool.ts). The timed "digest" path is the size check,
// digestValue and serialising the digest; "wrap" is the dispatcher's whole DigestWrap.wrap,
// which also serialises the raw result once for the store (an in-memory store here).
// Medians of RUNS runs; a table on stdout, then one `RESULTS {json}` line. Nothing asserted.
import v8 from 'node:v8';
import vm from 'node:vm';
import { digestValue, DIGEST_THRESHOLD_BYTES, jsonSize } from '../src/tools/framework/digest.ts';
import { DigestWrap } from '../src/tools/framework/digest-wrap.ts';
import type { JsonObject, JsonValue } from '../src/tools/framework/tool.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const BUDGET = DIGEST_THRESHOLD_BYTES - 400;
const SIZES = [1_000_000, 10_000_000];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

let seed = 1;
const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');
const WORDS = [
  'scheduled',
  'node',
  'volume',
  'mounted',
  'ready',
  'image',
  'pulled',
  'backoff',
  'probe',
  'failed',
  'the',
  'container',
  'of',
  'on',
];
const sentence = (chars: number) => {
  let s = '';
  while (s.length < chars) s += `${pick(WORDS)} `;
  return s.trimEnd();
};

function pod(i: number): JsonValue {
  const app = pick(['api', 'web', 'worker', 'cache', 'ingest']);
  const name = `${app}-${hex(10)}-${hex(5)}`;
  const namespace = pick(['default', 'prod', 'staging', 'kube-system']);
  const container = {
    name: app,
    image: `registry.example.com/team/${app}:1.${i % 40}.${i % 7}`,
    ports: [{ containerPort: 8080, protocol: 'TCP' }],
    env: Array.from({ length: 2 + Math.floor(rand() * 6) }, (_, k) => ({ name: `VAR_${k}`, value: sentence(5 + Math.floor(rand() * 60)) })),
    resources: { limits: { cpu: '500m', memory: '512Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
  };
  const spec = { containers: [container], nodeName: `node-${i % 50}`, serviceAccountName: 'default', restartPolicy: 'Always' };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      uid: `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`,
      resourceVersion: String(100000 + i),
      creationTimestamp: '2025-01-01T00:00:00Z',
      labels: { app, 'pod-template-hash': hex(10), tier: pick(['frontend', 'backend']) },
      annotations: {
        // kubectl's own annotation is a JSON document in a string: the nested-JSON case.
        'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name, namespace },
          spec,
        }),
        'example.com/notes': sentence(50 + Math.floor(rand() * 1500)),
      },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${app}-${hex(10)}`, uid: hex(32), controller: true }],
    },
    spec,
    status: {
      phase: pick(['Running', 'Running', 'Running', 'Pending', 'Failed']),
      conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({
        type,
        status: 'True',
        lastTransitionTime: '2025-01-01T00:00:05Z',
      })),
      hostIP: `10.0.${i % 256}.${(i >> 8) % 256}`,
      podIP: `10.1.${i % 256}.${(i >> 8) % 256}`,
      containerStatuses: [{ name: app, ready: true, restartCount: i % 3, image: container.image, imageID: `sha256:${hex(64)}` }],
    },
  };
}

/** A pod list whose serialisation is about `bytes` long. */
function podListText(bytes: number): string {
  seed = bytes; // same payload on every run and in every process
  const items: JsonValue[] = [];
  let size = 0;
  while (size < bytes) {
    const p = pod(items.length);
    size += JSON.stringify(p).length + 1;
    items.push(p);
  }
  return JSON.stringify({ apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '123456' }, items });
}

// Collect before each timed call: otherwise whichever call runs second pays for the garbage
// of the first (measured: a ~25% swing on the 10 MB payload depending on the order).
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function time(f: () => void): number {
  gc();
  const t0 = performance.now();
  f();
  return performance.now() - t0;
}

async function timeAsync(f: () => Promise<void>): Promise<number> {
  gc();
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
}

interface Result {
  bytes: number;
  parse_ms: number;
  digest_ms: number;
  ratio: number;
  wrap_ms: number;
  wrap_ratio: number;
  kept_bytes: number;
  kept_ratio: number;
  level: number;
}

async function measure(text: string): Promise<Result> {
  const wrapped: JsonObject = { text };
  const store = { put: (_tool: string, raw: string) => `raw_${raw.length}`, get: () => undefined };
  const wrapper = new DigestWrap(store);
  const wrap = async () => {
    if (!(await wrapper.wrap('mcp.bench.pods', wrapped))) throw new Error('not digested');
  };
  let kept = '';
  let level = -1;
  const digest = () => {
    if (jsonSize(wrapped, DIGEST_THRESHOLD_BYTES) <= DIGEST_THRESHOLD_BYTES) throw new Error('payload under the threshold');
    const d = digestValue(wrapped, BUDGET);
    kept = JSON.stringify(d.value);
    level = d.level;
  };
  const parse = () => void JSON.parse(text);
  // Warm both paths up before timing, so neither pays for the JIT.
  for (let i = 0; i < 2; i++) {
    parse();
    digest();
  }
  await wrap();
  const parses: number[] = [];
  const digests: number[] = [];
  const wraps: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    parses.push(time(parse));
    digests.push(time(digest));
    wraps.push(await timeAsync(wrap));
  }
  const bytes = Buffer.byteLength(text);
  const keptBytes = Buffer.byteLength(kept);
  return {
    bytes,
    parse_ms: median(parses),
    digest_ms: median(digests),
    ratio: median(digests) / median(parses),
    wrap_ms: median(wraps),
    wrap_ratio: median(wraps) / median(parses),
    kept_bytes: keptBytes,
    kept_ratio: keptBytes / bytes,
    level,
  };
}

const results: Result[] = [];
for (const size of SIZES) results.push(await measure(podListText(size)));
const fmt = (n: number, d = 1) => n.toFixed(d).padStart(9);
console.log(`digest of an MCP-shaped pod list, budget ${BUDGET} bytes, median of ${RUNS} runs`);
console.log('    bytes   parse ms  digest ms  digest/parse    wrap ms  wrap/parse  kept bytes  kept/original  level');
for (const r of results) {
  console.log(
    `${String(r.bytes).padStart(9)} ${fmt(r.parse_ms)}  ${fmt(r.digest_ms)}  ${fmt(r.ratio, 2).padStart(12)}  ${fmt(r.wrap_ms)}  ${fmt(r.wrap_ratio, 2).padStart(10)}  ${String(r.kept_bytes).padStart(10)}  ${r.kept_ratio.toExponential(2).padStart(13)}  ${String(r.level).padStart(5)}`,
  );
}
console.log(`RESULTS ${JSON.stringify(results)}`);
