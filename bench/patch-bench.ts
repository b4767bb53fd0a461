// apply_patch on a 1 MB file with 50 hunks, bundled by bench/run.ts (`--only patch`):
// one runtime (as an agent builds it), each run restoring the file first and timing
// only the call through the dispatcher — parse, path scope, gate, plan, snapshot
// guard, atomic write, diff. Against the same 50 changes as 50 edit_file calls, and
// a plain read + in-memory splice + write (the floor).
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRuntime } from '../src/runtime/runtime.ts';

const runs = Number(process.argv[2] ?? 5);
const HUNKS = 50;
const ws = await mkdtemp(path.join(tmpdir(), 'core-agent-patch-bench-'));
const file = path.join(ws, 'big.txt');

// ~1 MB (26,000 lines of 40 bytes) of distinct lines (each names its number, so every context is unique).
const lines = Array.from({ length: 26_000 }, (_, i) => `line ${String(i).padStart(6, '0')} ${'lorem ipsum dolor sit amet '.slice(0, 36)}`);
const original = `${lines.join('\n')}\n`;
const step = Math.floor(lines.length / HUNKS);
const targets = Array.from({ length: HUNKS }, (_, h) => h * step + Math.floor(step / 2));
const patch = [
  '*** Begin Patch',
  '*** Update File: big.txt',
  ...targets.flatMap((t) => [
    '@@',
    ...[3, 2, 1].map((d) => ` ${lines[t - d]}`),
    `-${lines[t]}`,
    `+${lines[t]} CHANGED`,
    ...[1, 2, 3].map((d) => ` ${lines[t + d]}`),
  ]),
  '*** End Patch',
  '',
].join('\n');
const expected = `${lines.map((l, i) => (targets.includes(i) ? `${l} CHANGED` : l)).join('\n')}\n`;

// apply_patch (Cagent's) beside edit_file (core-agent's): two tools for one job, on purpose, to compare them.
const recipe = path.join(ws, 'bench-recipe.yaml');
await writeFile(recipe, 'tools: { enable: [apply_patch], allow_overlap: true }\n');
const rt = await createRuntime({ flags: { workspace: ws, mode: 'yolo', recipe }, env: {}, commandEnv: process.env });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(work: () => Promise<void>): Promise<number> {
  await writeFile(file, original);
  const t0 = performance.now();
  await work();
  const ms = performance.now() - t0;
  if ((await readFile(file, 'utf8')) !== expected) throw new Error('the result is not the expected file');
  return ms;
}

const applyPatch = async () => {
  const r = await rt.dispatcher.call('apply_patch', { patch });
  if (!r.ok) throw new Error(r.error);
};
const editFile = async () => {
  for (const t of targets) {
    const r = await rt.dispatcher.call('edit_file', { path: 'big.txt', old_string: `${lines[t]}\n`, new_string: `${lines[t]} CHANGED\n` });
    if (!r.ok) throw new Error(r.error);
  }
};
const floor = async () => {
  const text = (await readFile(file, 'utf8')).split('\n');
  for (const t of targets) text[t] = `${text[t]} CHANGED`;
  await writeFile(file, text.join('\n'));
};

const measure = async (work: () => Promise<void>) => {
  await timed(work); // warm
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await timed(work));
  return median(times);
};
const out = {
  bytes: Buffer.byteLength(original),
  patchBytes: Buffer.byteLength(patch),
  hunks: HUNKS,
  applyPatchMs: await measure(applyPatch),
  editFile50Ms: await measure(editFile),
  floorMs: await measure(floor),
  maxRssKb: process.resourceUsage().maxRSS,
};
await rt.session.close();
process.stdout.write(JSON.stringify(out));
