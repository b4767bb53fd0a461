// npm run bench: grep and glob over a generated tree (≥ 50,000 files, ≥ 500 MB) against
// ripgrep run directly and against a plain JS walk, and the bundle's cold start against
// `node -e 0`. Medians, reported as ratios to the reference measured in the same run.
// Figures go to stdout (a table) and .bench-cache/results.json; nothing is asserted.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { buildBundle, root } from '../scripts/bundle/esbuild-options.mjs';
import { coldCommands, coldStart, coldTable } from './cold-start.ts';
import { delegationFigures, delegationTable } from './delegation-bench.ts';
import { watchIdle, watchIdleTable } from './watch-idle.ts';

const cache = path.join(root, '.bench-cache');
const tree = path.join(cache, 'tree-v1');
const node = process.execPath;
const bundle = path.join(root, 'dist/core-agent.mjs');
const rg = path.join(root, 'dist/rg');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const DIRS = 500;
const FILES_PER_DIR = 100;
const FILE_BYTES = 10_600;
const GREP_PATTERN = 'needle_12[0-9][0-9]_found';
const GLOB_PATTERN = '*.rs';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Deterministic pseudo-random words, so every run searches the same bytes. */
async function generateTree(): Promise<void> {
  if (existsSync(path.join(tree, '.complete'))) return;
  console.log(`generating ${DIRS * FILES_PER_DIR} files of ~${FILE_BYTES} bytes under ${tree} …`);
  const words = [
    'alpha',
    'beta',
    'gamma',
    'delta',
    'fn',
    'let',
    'const',
    'return',
    'value',
    'error',
    'config',
    'kube',
    'pod',
    'node',
    'x',
    'count',
  ];
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  let needles = 0;
  for (let d = 0; d < DIRS; d++) {
    const dir = path.join(tree, `pkg${String(d).padStart(3, '0')}`, 'src');
    await mkdir(dir, { recursive: true });
    for (let f = 0; f < FILES_PER_DIR; f++) {
      let text = '';
      while (text.length < FILE_BYTES) {
        let line = '';
        while (line.length < 70) line += `${words[Math.floor(rand() * words.length)]} `;
        if (rand() < 0.0015) {
          line += `needle_${needles++}_found`;
        }
        text += `${line}\n`;
      }
      const ext = f % 10 === 0 ? 'rs' : f % 3 === 0 ? 'go' : 'ts';
      await writeFile(path.join(dir, `file${f}.${ext}`), text);
    }
  }
  await writeFile(path.join(tree, '.complete'), `${needles} needles\n`);
}

function timeCommand(cmd: string, args: string[], cwd: string): { ms: number; maxRssKb: number | null; stdout: string } {
  const hasTime = existsSync('/usr/bin/time');
  const t0 = performance.now();
  const r = hasTime
    ? spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 30 })
    : spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - t0;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  const rss = hasTime ? Number(r.stderr.trim().split('\n').pop()) : null;
  return { ms, maxRssKb: Number.isFinite(rss) ? rss : null, stdout: r.stdout };
}

function repeat(cmd: string, args: string[], cwd: string, runs = RUNS) {
  timeCommand(cmd, args, cwd); // warm the page cache and the binary
  const samples = Array.from({ length: runs }, () => timeCommand(cmd, args, cwd));
  return {
    ms: median(samples.map((s) => s.ms)),
    maxRssKb: Math.max(...samples.map((s) => s.maxRssKb ?? 0)) || null,
    stdout: samples[0]!.stdout,
  };
}

function harness(script: string, args: string[]): { ms: number; maxRssKb: number; count: unknown; bytes: number } {
  const r = spawnSync(node, [script, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${script} failed: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { times: number[]; maxRssKb: number; count: unknown; bytes: number };
  return { ms: median(out.times), maxRssKb: out.maxRssKb, count: out.count, bytes: out.bytes };
}

/**
 * A TypeScript file of `lines` lines, shaped like application code: per ~60 lines an
 * interface, a class with three methods and a function, bodies of 10–12 lines.
 */
function generatedTypeScript(lines: number): string {
  const out = ["import { readFile } from 'node:fs/promises';", "import path from 'node:path';", ''];
  const body = (n: number, i: number) =>
    Array.from({ length: n }, (_, k) => `    const step${k} = ${k} * ${i} + Math.floor(Math.random() * ${k + 1}); // work ${k}`);
  const block = (i: number) => [
    `export interface Record${i} {`,
    '  id: string;',
    `  value${i}: number;`,
    '}',
    '',
    `export class Service${i} {`,
    `  private cache = new Map<string, Record${i}>();`,
    '',
    `  async load(id: string): Promise<Record${i} | undefined> {`,
    ...body(10, i),
    `    return JSON.parse(await readFile(path.join('data', id), 'utf8')) as Record${i};`,
    '  }',
    '',
    `  store(id: string, record: Record${i}): void {`,
    ...body(10, i),
    '    this.cache.set(id, record);',
    '  }',
    '',
    '  clear(): void {',
    ...body(10, i),
    '    this.cache.clear();',
    '  }',
    '}',
    '',
    `export function compute${i}(a: number, b: number): number {`,
    '  let total = a;',
    ...body(10, i).map((l) => l.slice(2)),
    '  return total + b;',
    '}',
    '',
  ];
  for (let i = 0; ; i++) {
    const next = block(i);
    if (out.length + next.length > lines) break;
    out.push(...next);
  }
  while (out.length < lines) out.push(`// padding ${out.length}`);
  return `${out.join('\n')}\n`;
}

async function bundleHarnesses(): Promise<{
  inproc: string;
  baseline: string;
  steps: string;
  mcp: string;
  verify: string;
  incident: string;
  patch: string;
  agentic: string;
}> {
  const out = {
    verify: path.join(cache, 'verify-harness.mjs'),
    incident: path.join(cache, 'incident-bench.mjs'),
    inproc: path.join(cache, 'harness.mjs'),
    baseline: path.join(cache, 'js-baseline.mjs'),
    steps: path.join(cache, 'steps-harness.mjs'),
    mcp: path.join(cache, 'mcp-harness.mjs'),
    patch: path.join(cache, 'patch-bench.mjs'),
    agentic: path.join(cache, 'agentic-bench.mjs'),
  };
  await buildBundle(path.join(root, 'bench/agentic-bench.ts'), out.agentic, { logLevel: 'error' });
  await buildBundle(path.join(root, 'bench/patch-bench.ts'), out.patch, { logLevel: 'error' });
  await buildBundle(path.join(root, 'bench/mcp-harness.ts'), out.mcp, { logLevel: 'error' });
  await buildBundle(path.join(root, 'bench/verify-harness.ts'), out.verify, { logLevel: 'error' });
  await buildBundle(path.join(root, 'bench/incident-bench.ts'), out.incident, { logLevel: 'error' });
  await buildBundle(path.join(root, 'bench/harness.ts'), out.inproc, { logLevel: 'error' });
  await buildBundle(path.join(root, 'bench/js-baseline.ts'), out.baseline, { logLevel: 'error' });
  await buildBundle(path.join(root, 'bench/steps-harness.ts'), out.steps, { logLevel: 'error' });
  return out;
}

const fmt = (ms: number) => `${ms < 1 ? ms.toFixed(3) : ms.toFixed(1)} ms`;
const rss = (kb: number | null) => (kb === null ? 'n/a' : `${(kb / 1024).toFixed(0)} MiB`);

// `npm run bench -- --only steps,cold` runs a subset; the default is everything.
const onlyArg = process.argv.indexOf('--only');
const only = new Set(
  onlyArg === -1
    ? ['grep', 'glob', 'cold', 'bash', 'steps', 'digest', 'mcp', 'verify', 'patch', 'outline', 'delegation']
    : (process.argv[onlyArg + 1] ?? '').split(','),
);

await mkdir(cache, { recursive: true });
const harnesses = await bundleHarnesses();
console.log(`node ${process.version}; ${RUNS} runs, medians\n`);

interface Measured {
  ms: number;
  maxRssKb: number | null;
}
interface Row {
  name: string;
  m: Measured;
  reference: Measured;
}
const rows: Row[] = [];
const results: Record<string, unknown> = { node: process.version, runs: RUNS };

/** One group of rows: a reference and the measurements expressed as ratios to it. */
function group(key: string, reference: [string, Measured], others: Array<[string, Measured]>, extra: Record<string, unknown>): void {
  rows.push({ name: reference[0], m: reference[1], reference: reference[1] });
  for (const [name, m] of others) rows.push({ name, m, reference: reference[1] });
  results[key] = {
    ...extra,
    [reference[0]]: { ms: reference[1].ms, maxRssKb: reference[1].maxRssKb },
    ...Object.fromEntries(others.map(([name, m]) => [name, { ms: m.ms, maxRssKb: m.maxRssKb, ratio: m.ms / reference[1].ms }])),
  };
}

if (only.has('grep') || only.has('glob')) {
  await generateTree();
  const du = spawnSync('du', ['-sb', tree], { encoding: 'utf8' }).stdout.split('\t')[0];
  const files = spawnSync(rg, ['--files', tree], { encoding: 'utf8', maxBuffer: 1 << 30 })
    .stdout.split('\n')
    .filter(Boolean).length;
  results.tree = { files, bytes: Number(du) };
  console.log(`tree: ${files} files, ${(Number(du) / 1e6).toFixed(0)} MB\n`);
}

if (only.has('grep')) {
  // A pattern with 100 matches, so every engine reads all 536 MB.
  const rgGrep = repeat(
    rg,
    ['--no-config', '--line-number', '--with-filename', '--null', '--no-heading', '--color=never', `--regexp=${GREP_PATTERN}`, '--', '.'],
    tree,
  );
  const grepArgs = JSON.stringify({ pattern: GREP_PATTERN });
  const ourGrep = harness(harnesses.inproc, [tree, 'grep', grepArgs, String(RUNS)]);
  const jsGrep = harness(harnesses.baseline, [tree, 'grep', GREP_PATTERN, String(RUNS)]);
  group(
    'grep',
    ['rg (direct)', rgGrep],
    [
      ['grep tool, in process', ourGrep],
      ['grep tool, `tools call` CLI', repeat(node, [bundle, 'tools', 'call', 'grep', grepArgs, '--workspace', tree], root)],
      ['plain JS walk + RegExp', jsGrep],
    ],
    { pattern: GREP_PATTERN, matches: { rg: rgGrep.stdout.split('\n').filter(Boolean).length, tool: ourGrep.count, js: jsGrep.count } },
  );
}

if (only.has('glob')) {
  // Every file name is listed; 5,000 of the 50,000 match.
  const globArgs = JSON.stringify({ pattern: GLOB_PATTERN });
  const ourGlob = harness(harnesses.inproc, [tree, 'glob', globArgs, String(RUNS)]);
  const jsGlob = harness(harnesses.baseline, [tree, 'glob', GLOB_PATTERN, String(RUNS)]);
  group(
    'glob',
    ['rg --files (direct)', repeat(rg, ['--no-config', '--files', '--null', '--', '.'], tree)],
    [
      ['glob tool, in process', ourGlob],
      ['glob tool, `tools call` CLI', repeat(node, [bundle, 'tools', 'call', 'glob', globArgs, '--workspace', tree], root)],
      ['plain JS walk + match', jsGlob],
    ],
    { pattern: GLOB_PATTERN, matches: { tool: ourGlob.count, js: jsGlob.count } },
  );
}

if (only.has('cold')) {
  // bench/cold-start.ts: each command beside `node -e 0` in interleaved pairs (wall, CPU, peak RSS).
  const pairs = Math.max(RUNS, 15);
  // The code cache as a user's CLI has it: in the user's cache directory (here one of the bench's
  // own, so every run starts from the same state), filled by the warm-up run of each command.
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: path.join(cache, 'xdg-cache') };
  delete env.NODE_COMPILE_CACHE;
  const cold = coldStart(node, await coldCommands(bundle, cache), pairs, env);
  console.log(`cold start, ratios to node -e 0 (medians of ${pairs} pairs):\n${coldTable(cold, pairs)}\n`);
  for (const r of cold) {
    const ref = { ms: r.reference.wallMs, maxRssKb: r.reference.maxRssKb };
    group(`cold ${r.name}`, ['node -e 0', ref], [[r.name, { ms: r.measured.wallMs, maxRssKb: r.measured.maxRssKb }]], {
      pairs,
      cpuMs: r.measured.cpuMs,
      referenceCpuMs: r.reference.cpuMs,
      ratios: r.ratio,
    });
  }
}

if (only.has('bash')) {
  // One bash call as a process: its peak RSS against read_file's. Every bash line is
  // parsed (tree-sitter, WebAssembly) before it runs or is refused; the peak column
  // is what src/util/wasm-baseline.ts keeps down (it was ~580 MiB with TurboFan tier-up).
  const ws = path.join(cache, 'bash-ws');
  await mkdir(ws, { recursive: true });
  await writeFile(path.join(ws, 'a.txt'), 'alpha\n');
  const call = (tool: string, args: unknown, ...flags: string[]) =>
    repeat(node, [bundle, 'tools', 'call', tool, JSON.stringify(args), '--workspace', ws, ...flags], root);
  const words = `echo ${'word '.repeat(50)}`;
  group(
    'bashCall',
    ['tools call read_file', call('read_file', { path: 'a.txt' })],
    [
      ['tools call bash (echo hi)', call('bash', { command: 'echo hi' }, '--yolo')],
      ['tools call bash (50 words)', call('bash', { command: words }, '--yolo')],
      ['tools call bash, refused by the denylist', call('bash', { command: 'rm -rf /' }, '--yolo')],
    ],
    {},
  );
}

if (only.has('steps')) {
  // The loop's overhead: a 1,000-step replay calling a no-op tool, against inserting
  // the same event-log rows straight into SQLite (the floor), medians of RUNS.
  const STEPS = 1000;
  const ws = path.join(cache, 'steps-ws');
  await mkdir(ws, { recursive: true });
  const runs = Array.from({ length: RUNS }, () => {
    const r = spawnSync(node, ['--expose-gc', harnesses.steps, ws, cache, String(STEPS)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`steps harness failed: ${r.stderr}`);
    return JSON.parse(r.stdout) as {
      steps: number;
      rows: number;
      agentMs: number;
      floorMs: number;
      rss: Array<[number, number, number, number, number]>;
      maxRssKb: number;
    };
  });
  // Memory over a longer run: does anything but the conversation keep growing once warm?
  // Samples after a full GC: [step, rss, heapUsed, heapTotal, external].
  const long = spawnSync(node, ['--expose-gc', harnesses.steps, ws, cache, '4000'], { encoding: 'utf8' });
  if (long.status !== 0) throw new Error(`steps harness (4000) failed: ${long.stderr}`);
  const mem = (JSON.parse(long.stdout) as { rss: Array<[number, number, number, number, number]> }).rss;
  const agentMs = median(runs.map((r) => r.agentMs));
  const floorMs = median(runs.map((r) => r.floorMs));
  const rssAt = runs[0]!.rss;
  const growthKb = (rssAt.at(-1)![1] - rssAt[0]![1]) / 1024;
  const mib = (b: number) => `${(b / 1048576).toFixed(1)} MiB`;
  const [first, last] = [rssAt[0]!, rssAt.at(-1)!];

  group(
    'steps',
    [`floor: ${runs[0]!.rows} event rows into SQLite`, { ms: floorMs, maxRssKb: null }],
    [
      [
        `${STEPS}-step replay through the loop (${(agentMs / STEPS).toFixed(3)} ms/step)`,
        { ms: agentMs, maxRssKb: Math.max(...runs.map((r) => r.maxRssKb)) },
      ],
    ],
    {
      steps: runs[0]!.steps,
      rows: runs[0]!.rows,
      msPerStep: agentMs / STEPS,
      rssSamples: rssAt,
      rssGrowthKbStep100To1000: growthKb,
      heapGrowthKbStep100To1000: (rssAt.at(-1)![2] - rssAt[0]![2]) / 1024,
    },
  );
  console.log(
    `steps (memory after a full GC): RSS ${mib(first[1])} at step ${first[0]} → ${mib(last[1])} at step ${last[0]}; ` +
      `JS heap in use ${mib(first[2])} → ${mib(last[2])}`,
  );
  // Native = RSS − the V8 heap − external: SQLite's page cache, the allocator, compiled code.
  const native = (m: [number, number, number, number, number]) => m[1] - m[3] - m[4];
  const warm = mem.find((m) => m[0] === 1000)!;
  const end = mem.at(-1)!;
  const row = (m: [number, number, number, number, number]) =>
    `| ${m[0]} | ${mib(m[1])} | ${mib(m[2])} | ${mib(m[3])} | ${mib(native(m))} |`;
  console.log(
    ['| step | RSS | JS heap in use | V8 heap committed | native |', '|---:|---:|---:|---:|---:|', row(mem[0]!), row(warm), row(end)].join(
      '\n',
    ) + '\n',
  );
  results.stepsMemory = {
    samples: mem,
    fromStep1000: {
      rssKb: (end[1] - warm[1]) / 1024,
      heapUsedKb: (end[2] - warm[2]) / 1024,
      heapCommittedKb: (end[3] - warm[3]) / 1024,
      nativeKb: (native(end) - native(warm)) / 1024,
    },
  };
}

if (only.has('digest')) {
  // bench/digest-bench.ts: its own process (Node runs the .ts directly), medians inside.
  const r = spawnSync(node, [path.join(root, 'bench/digest-bench.ts')], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`digest bench failed: ${r.stderr}`);
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULTS '));
  const measured = JSON.parse(line!.slice('RESULTS '.length)) as Array<{
    bytes: number;
    parse_ms: number;
    digest_ms: number;
    wrap_ms: number;
    kept_bytes: number;
  }>;
  for (const m of measured) {
    const mb = `${Math.round(m.bytes / 1e6)} MB`;
    group(
      `digest${mb.replace(' ', '')}`,
      [`JSON.parse, ${mb}`, { ms: m.parse_ms, maxRssKb: null }],
      [
        [
          `digest of a ${mb} MCP result (kept ${m.kept_bytes} B, ${((m.kept_bytes / m.bytes) * 100).toFixed(3)}%)`,
          { ms: m.digest_ms, maxRssKb: null },
        ],
        [`digest wrap incl. serialising the raw for retrieve_raw, ${mb}`, { ms: m.wrap_ms, maxRssKb: null }],
      ],
      { bytes: m.bytes, keptBytes: m.kept_bytes, keptRatio: m.kept_bytes / m.bytes },
    );
  }
}

if (only.has('mcp')) {
  // Per-call overhead of an MCP tool through core-agent against the bare SDK client.
  // With two CPUs or more and taskset: the harness (both clients) on CPU 0, every server
  // process on CPU 1, so no pair's speed depends on where the scheduler put its server.
  const pinned = availableParallelism() >= 2 && spawnSync('taskset', ['-V']).status === 0;
  const r = pinned
    ? spawnSync('taskset', ['-c', '0', node, harnesses.mcp, root, cache, '2000'], {
        encoding: 'utf8',
        env: { ...process.env, BENCH_SERVER_CPU: '1' },
      })
    : spawnSync(node, [harnesses.mcp, root, cache, '2000'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mcp harness failed: ${r.stderr}`);
  console.log(`mcp: ${pinned ? 'harness on CPU 0, servers on CPU 1 (taskset)' : 'not pinned (no taskset or one CPU)'}`);
  const measured = JSON.parse(r.stdout) as Record<'stdio' | 'http', Record<string, { bareMs: number; oursMs: number }>>;
  for (const transport of ['stdio', 'http'] as const) {
    for (const [name, c] of Object.entries(measured[transport])) {
      group(
        `mcp ${transport} ${name}`,
        [`MCP call over ${transport}, bare SDK client (${name})`, { ms: c.bareMs, maxRssKb: null }],
        [[`MCP call over ${transport} through core-agent (${name})`, { ms: c.oursMs, maxRssKb: null }]],
        {},
      );
    }
  }
}

if (only.has('verify')) {
  // wait_and_verify's cost per attempt against the polled tool's own latency (stat, in process).
  const ws = path.join(cache, 'verify-ws');
  await mkdir(ws, { recursive: true });
  const r = spawnSync(node, [harnesses.verify, ws, '200'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`verify harness failed: ${r.stderr}`);
  const m = JSON.parse(r.stdout) as { attempts: number; directMs: number; perAttemptJqMs: number; perAttemptContainsMs: number };
  group(
    'verify',
    ['stat through the dispatcher, one call', { ms: m.directMs, maxRssKb: null }],
    [
      [`wait_and_verify polling stat, per attempt, expect_jq (sleeps subtracted)`, { ms: m.perAttemptJqMs, maxRssKb: null }],
      [`wait_and_verify polling stat, per attempt, expect_not_contains`, { ms: m.perAttemptContainsMs, maxRssKb: null }],
    ],
    { attempts: m.attempts },
  );
}

if (only.has('patch')) {
  // bench/patch-bench.ts: apply_patch on a 1 MB file with 50 hunks, in one process, medians inside.
  const r = spawnSync(node, [harnesses.patch, String(RUNS)], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`patch bench failed: ${r.stderr}`);
  const m = JSON.parse(r.stdout) as {
    bytes: number;
    patchBytes: number;
    hunks: number;
    applyPatchMs: number;
    editFile50Ms: number;
    floorMs: number;
    maxRssKb: number;
  };
  const mb = `${(m.bytes / 1e6).toFixed(1)} MB`;
  group(
    'patch',
    [`read + splice + write in JS, ${mb}, ${m.hunks} changes`, { ms: m.floorMs, maxRssKb: null }],
    [
      [`apply_patch, ${mb}, ${m.hunks} hunks (${m.patchBytes} B patch)`, { ms: m.applyPatchMs, maxRssKb: m.maxRssKb }],
      [`edit_file × ${m.hunks}, ${mb}`, { ms: m.editFile50Ms, maxRssKb: null }],
    ],
    { bytes: m.bytes, patchBytes: m.patchBytes, hunks: m.hunks },
  );
}

if (only.has('outline')) {
  // What "what is in this file" costs: view_file_outline of a 5,000-line TypeScript file
  // against read_file of it, in process (warm: the grammar already loaded) and as a
  // `tools call` process (cold: the outline chunk decoded and the grammar loaded in it).
  // The bytes are the result the model would read; read_file's stops at its output cap.
  const ws = path.join(cache, 'outline-ws');
  await mkdir(ws, { recursive: true });
  const source = generatedTypeScript(5000);
  await writeFile(path.join(ws, 'big.ts'), source);
  const outlineArgs = JSON.stringify({ path: 'big.ts' });
  const readIn = harness(harnesses.inproc, [ws, 'read_file', outlineArgs, String(RUNS)]);
  const outlineIn = harness(harnesses.inproc, [ws, 'view_file_outline', outlineArgs, String(RUNS)]);
  const cli = (tool: string) => repeat(node, [bundle, 'tools', 'call', tool, outlineArgs, '--workspace', ws], root);
  const readCli = cli('read_file');
  const outlineCli = cli('view_file_outline');
  group(
    'outline',
    ['read_file big.ts (5,000 lines), in process', readIn],
    [
      ['view_file_outline big.ts, in process', outlineIn],
      ['read_file big.ts, `tools call` CLI', readCli],
      ['view_file_outline big.ts, `tools call` CLI', outlineCli],
    ],
    {
      lines: 5000,
      fileBytes: Buffer.byteLength(source),
      resultBytes: { read_file: readIn.bytes, view_file_outline: outlineIn.bytes },
      cliStdoutBytes: { read_file: Buffer.byteLength(readCli.stdout), view_file_outline: Buffer.byteLength(outlineCli.stdout) },
    },
  );
  console.log(
    `outline: file ${Buffer.byteLength(source)} bytes; result bytes read_file ${readIn.bytes} (first output cap's worth), view_file_outline ${outlineIn.bytes}\n`,
  );
}

if (only.has('delegation')) {
  // (a) A question about a 5 MB log: the bytes of the parent's context (the prompt its model is
  // sent) when it pages through the log with read_file, against agentic_read_file's digest
  // (bench/agentic-bench.ts; a replay model stands in for the parent and the child).
  const ws = path.join(cache, 'delegation-ws');
  await mkdir(ws, { recursive: true });
  const r = spawnSync(node, [harnesses.agentic, ws, cache], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`delegation bench failed: ${r.stderr}`);
  const m = JSON.parse(r.stdout) as {
    logBytes: number;
    lines: number;
    readFile: { calls: number; finalPromptBytes: number; afterFirstResultBytes: number; firstPromptBytes: number };
    agentic: { calls: number; finalPromptBytes: number; afterFirstResultBytes: number; toolResultBytes: number };
    ratioFinal: number;
    ratioOneCall: number;
  };
  const kb = (b: number) => `${(b / 1024).toFixed(1)} KiB`;
  console.log(
    [
      `delegation (a): a question about a ${(m.logBytes / 1048576).toFixed(0)} MiB log (${m.lines} lines); the parent's context, in prompt bytes`,
      '| parent | tool calls | context at its answer | after its first result |',
      '|---|---:|---:|---:|',
      `| read_file, paging the whole log | ${m.readFile.calls} | ${kb(m.readFile.finalPromptBytes)} | ${kb(m.readFile.afterFirstResultBytes)} |`,
      `| agentic_read_file (digest ${kb(m.agentic.toolResultBytes)}) | ${m.agentic.calls} | ${kb(m.agentic.finalPromptBytes)} | ${kb(m.agentic.afterFirstResultBytes)} |`,
      `| ratio | | ${m.ratioFinal.toFixed(1)}× | ${m.ratioOneCall.toFixed(1)}× |`,
      `(the prompt before any tool: ${kb(m.readFile.firstPromptBytes)})\n`,
    ].join('\n'),
  );
  results.delegation = m;
  // (b) What a child costs the process (bench/delegation-bench.ts): whole runs, a child's start and each concurrent child's RSS.
  const figures = await delegationFigures(bundle, path.join(cache, 'delegation-runs'), RUNS);
  console.log(`${delegationTable(figures)}\n`);
  results.delegationProcess = figures;
}

if (only.has('incident')) {
  // Needs a cluster: `bash test/cluster/with-cluster.sh npm run bench -- --only incident`.
  const r = spawnSync(node, [harnesses.incident], { encoding: 'utf8', env: process.env, maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`incident bench failed: ${r.stderr}`);
  console.log(
    r.stdout
      .split('\n')
      .filter((l) => !l.startsWith('RESULTS '))
      .join('\n'),
  );
  const m = JSON.parse(
    r.stdout
      .split('\n')
      .find((l) => l.startsWith('RESULTS '))!
      .slice('RESULTS '.length),
  ) as { shipped: number; off: number } | null;
  if (m) results.incident = { ...m, ratio: m.off / m.shipped };
}

if (only.has('watch')) {
  // No cluster needed: watch at rest against a fake API on 127.0.0.1 (bench/watch-idle.ts).
  const pairs = Math.max(RUNS, 15);
  // Plain HTTP (the figure the issue-19 target was set on), then HTTPS as a cluster is reached.
  const idle = await watchIdle(node, bundle, pairs);
  const idleTls = await watchIdle(node, bundle, pairs, { tls: true });
  console.log(`${watchIdleTable([idle, idleTls])}\n`);
  results.watchIdle = idle;
  results.watchIdleTls = idleTls;
}

if (only.has('watch')) {
  // Needs a cluster: `bash test/cluster/with-cluster.sh npm run bench -- --only watch`. Run from
  // source (it spawns the built bundle and reads the session database the tests read).
  const r = spawnSync(
    node,
    ['--experimental-transform-types', '--disable-warning=ExperimentalWarning', path.join(root, 'bench/watch-bench.ts')],
    {
      encoding: 'utf8',
      env: process.env,
      maxBuffer: 1 << 26,
    },
  );
  if (r.status !== 0) throw new Error(`watch bench failed: ${r.stderr}`);
  const lines = r.stdout.split('\n');
  console.log(lines.filter((l) => !l.startsWith('RESULTS ')).join('\n'));
  results.watch = JSON.parse(lines.find((l) => l.startsWith('RESULTS '))!.slice('RESULTS '.length)) as unknown;
}

const table = [
  '| measurement | median | ratio | peak RSS |',
  '|---|---:|---:|---:|',
  ...rows.map((r) => `| ${r.name} | ${fmt(r.m.ms)} | ${(r.m.ms / r.reference.ms).toFixed(2)}× | ${rss(r.m.maxRssKb)} |`),
].join('\n');
console.log(table);
await writeFile(path.join(cache, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
await writeFile(path.join(cache, 'results.md'), `${table}\n`);
console.log(`\nresults: ${path.relative(root, path.join(cache, 'results.json'))}, ${path.relative(root, path.join(cache, 'results.md'))}`);
