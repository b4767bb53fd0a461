// In-process benchmark harness, bundled by bench/run.ts: builds a runtime once (as an
// agent does) and times repeated calls of one tool through the dispatcher — the full
// path: validation, path scope, gate, the tool, output caps.
import { createRuntime } from '../src/runtime/runtime.ts';

const [workspace, tool, argsJson, runsText] = process.argv.slice(2);
const rt = await createRuntime({ flags: { workspace, mode: 'plan' }, env: {}, commandEnv: process.env });
const args = JSON.parse(argsJson!) as unknown;
const runs = Number(runsText ?? 5);

const warm = await rt.dispatcher.call(tool!, args);
if (!warm.ok) throw new Error(warm.error);
const times: number[] = [];
let count: unknown;
let bytes = 0;
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  const r = await rt.dispatcher.call(tool!, args);
  times.push(performance.now() - t0);
  if (!r.ok) throw new Error(r.error);
  count = r.result.count;
  bytes = Buffer.byteLength(JSON.stringify(r.result));
}
process.stdout.write(JSON.stringify({ times, count, bytes, maxRssKb: process.resourceUsage().maxRSS }));
