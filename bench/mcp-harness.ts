// In-process benchmark harness, bundled by bench/run.ts: the per-call cost of an MCP tool
// through core-agent (catalog, dispatcher, gate, caps, digest check) against the same call
// made with the bare SDK client, each with its own copy of the test server as a process.
// Calls alternate one by one so drift hits both sides alike. Prints JSON; nothing asserted.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createRuntime } from '../src/runtime/runtime.ts';

const [root, cache, callsText] = process.argv.slice(2);
const server = path.join(root!, 'test/fixtures/mcp/test-server.ts');
const CALLS = Number(callsText ?? 2000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const bare = new Client({ name: 'bench', version: '1' });
await bare.connect(new StdioClientTransport({ command: process.execPath, args: [server], stderr: 'ignore' }));

const recipe = path.join(cache!, 'mcp-bench.yaml');
writeFileSync(recipe, `mcp:\n  servers:\n    bench: {command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(server)}]}\n`);
// A store is wired as in a run, so the digest check is on the path too.
const rt = await createRuntime({
  flags: { workspace: cache, recipe },
  env: { PATH: process.env.PATH },
  rawStore: { put: () => 'raw_1', get: () => undefined },
});

const cases = [
  { name: 'echo 1 KB', tool: 'echo', args: { text: 'x'.repeat(1000) } },
  { name: 'pod list 6 KB', tool: 'big', args: { bytes: 6000 } },
];
const out: Record<string, { bareMs: number; oursMs: number; ratio: number }> = {};
for (const c of cases) {
  const bareTimes: number[] = [];
  const ourTimes: number[] = [];
  // Alternating call by call, so both sides see the same machine at the same moment.
  for (let i = 0; i < CALLS; i++) {
    let t0 = performance.now();
    await bare.callTool({ name: c.tool, arguments: c.args });
    bareTimes.push(performance.now() - t0);
    t0 = performance.now();
    const res = await rt.dispatcher.call(`bench_${c.tool}`, c.args);
    ourTimes.push(performance.now() - t0);
    if (!res.ok) throw new Error(res.error);
  }
  // The first tenth warms both paths (JIT, the servers' own caches).
  const skip = CALLS / 10;
  const bareMs = median(bareTimes.slice(skip));
  const oursMs = median(ourTimes.slice(skip));
  out[c.name] = { bareMs, oursMs, ratio: oursMs / bareMs };
}
await bare.close();
await rt.session.close();
process.stdout.write(JSON.stringify({ calls: CALLS, cases: out }));
