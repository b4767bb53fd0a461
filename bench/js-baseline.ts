// The naive alternative the benchmark compares against: a plain JavaScript directory
// walk with V8's RegExp (backtracking, so not safe for model-written patterns).
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

const [root, mode, pattern, runsText] = process.argv.slice(2) as [string, 'grep' | 'glob', string, string];
const skip = new Set(['node_modules', 'vendor']);

async function* walk(dir: string): AsyncGenerator<string> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!skip.has(e.name)) yield* walk(p);
    } else if (e.isFile()) yield p;
  }
}

async function once(): Promise<number> {
  let n = 0;
  if (mode === 'glob') {
    const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    for await (const f of walk(root)) if (re.test(path.basename(f))) n++;
    return n;
  }
  const re = new RegExp(pattern);
  for await (const f of walk(root)) {
    const text = await readFile(f, 'utf8');
    if (!re.test(text)) continue;
    for (const line of text.split('\n')) if (re.test(line)) n++;
  }
  return n;
}

await once();
const times: number[] = [];
let count = 0;
for (let i = 0; i < Number(runsText ?? 5); i++) {
  const t0 = performance.now();
  count = await once();
  times.push(performance.now() - t0);
}
process.stdout.write(JSON.stringify({ times, count, maxRssKb: process.resourceUsage().maxRSS }));
