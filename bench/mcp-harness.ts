// In-process benchmark harness, bundled by bench/run.ts: the per-call cost of an MCP tool
// through core-agent (catalog, dispatcher, gate, digest size check, caps) against the same
// call made with the bare SDK client. Prints JSON; nothing asserted.
//
// Two server processes answer at measurably different speeds (±10 % between identical
// ones, from where the scheduler puts them), so: over Streamable HTTP both clients talk to
// the SAME server process; over stdio, where each client needs its own, six pairs are
// measured and pooled. Calls alternate one by one so drift hits both sides alike.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createRuntime, type Runtime } from '../src/runtime/runtime.ts';

const [root, cache, callsText] = process.argv.slice(2);
const server = path.join(root!, 'test/fixtures/mcp/test-server.ts');
const CALLS = Number(callsText ?? 2000);
// Stdio needs a server process per client; more pairs average out where each one runs.
const PAIRS = 6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cases = [
  { name: 'echo 1 KB', tool: 'echo', args: { text: 'x'.repeat(1000) } },
  { name: 'pod list 6 KB', tool: 'big', args: { bytes: 6000 } },
];

async function runtimeFor(serverYaml: string): Promise<Runtime> {
  const recipe = path.join(cache!, 'mcp-bench.yaml');
  writeFileSync(recipe, `mcp:\n  servers:\n    bench: ${serverYaml}\n`);
  // A store is wired as in a run, so the digest check is on the path too.
  return createRuntime({
    flags: { workspace: cache, recipe },
    env: { PATH: process.env.PATH },
    rawStore: { put: () => 'raw_1', get: () => undefined },
  });
}

type Samples = Record<string, { bare: number[]; ours: number[] }>;
const empty = (): Samples => Object.fromEntries(cases.map((c) => [c.name, { bare: [], ours: [] }]));

async function measure(bare: Client, rt: Runtime, calls: number, into: Samples): Promise<void> {
  for (const c of cases) {
    for (let i = 0; i < calls; i++) {
      let t0 = performance.now();
      await bare.callTool({ name: c.tool, arguments: c.args });
      const b = performance.now() - t0;
      t0 = performance.now();
      const res = await rt.dispatcher.call(`bench_${c.tool}`, c.args);
      const o = performance.now() - t0;
      if (!res.ok) throw new Error(res.error);
      // The first tenth warms both paths (JIT, the servers' own caches).
      if (i >= calls / 10) {
        into[c.name]!.bare.push(b);
        into[c.name]!.ours.push(o);
      }
    }
  }
}

// Every server process on the same CPU (the harness runs on CPU 0 — bench/run.ts), so no
// pair's speed depends on where the scheduler happened to put its server.
const pin = process.env.BENCH_SERVER_CPU;
const serverCommand = pin ? 'taskset' : process.execPath;
const serverArgs = pin ? ['-c', pin, process.execPath, server] : [server];
const stdio = empty();
for (let pair = 0; pair < PAIRS; pair++) {
  const bare = new Client({ name: 'bench', version: '1' });
  await bare.connect(new StdioClientTransport({ command: serverCommand, args: serverArgs, stderr: 'ignore' }));
  const rt = await runtimeFor(`{command: ${JSON.stringify(serverCommand)}, args: ${JSON.stringify(serverArgs)}}`);
  await measure(bare, rt, Math.round(CALLS / PAIRS), stdio);
  await bare.close();
  await rt.session.close();
}

const http = empty();
const child = spawn(process.execPath, [server, '--http', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
const url = await new Promise<string>((resolve) => {
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /listening (\d+)/.exec(out);
    if (m) resolve(`http://127.0.0.1:${m[1]}/mcp`);
  });
});
const bare = new Client({ name: 'bench', version: '1' });
await bare.connect(new StreamableHTTPClientTransport(new URL(url)));
const rt = await runtimeFor(`{url: ${JSON.stringify(url)}}`);
await measure(bare, rt, CALLS, http);
await bare.close();
await rt.session.close();
child.kill();

const summary = (s: Samples) =>
  Object.fromEntries(
    Object.entries(s).map(([name, { bare: b, ours: o }]) => [name, { bareMs: median(b), oursMs: median(o), ratio: median(o) / median(b) }]),
  );
process.stdout.write(JSON.stringify({ calls: CALLS, stdio: summary(stdio), http: summary(http) }));
