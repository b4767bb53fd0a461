// scripts/bundle/pino-lean.mjs: pino in the bundle logs as it does from node_modules, without loading
// node:assert or node:worker_threads, and a pino upgrade that moves what it edits fails the build.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../scripts/bundle/esbuild-options.mjs';
import { leanPinoTools } from '../../scripts/bundle/pino-lean.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const toolsJs = readFileSync(createRequire(import.meta.url).resolve('pino/lib/tools.js'), 'utf8');

describe('pino/lib/tools.js as the bundle serves it', () => {
  it('reads isMainThread on use, and changes nothing else', () => {
    const lean = leanPinoTools(toolsJs);
    expect(lean).not.toContain("const { isMainThread } = require('worker_threads')");
    expect(lean).toContain('if (!opts.sync && isMainThread()) {');
    const strip = (s: string) => s.replace(/^.*(isMainThread|let workerThreads).*\n/gm, '');
    expect(strip(lean)).toBe(strip(toolsJs));
  });

  it.each([
    [
      'the destructuring gone',
      toolsJs.replace("const { isMainThread } = require('worker_threads')", "const wt = require('worker_threads')"),
    ],
    ['the use gone', toolsJs.replace('if (!opts.sync && isMainThread) {', 'if (!opts.sync) {')],
    ['the use there twice', `${toolsJs}\nif (!opts.sync && isMainThread) {}\n`],
    ['another read', `${toolsJs}\nmodule.exports.main = isMainThread\n`],
  ])('refuses a tools.js with %s, naming the file and the fix', (_what, source) => {
    expect(() => leanPinoTools(source, '/x/pino/lib/tools.js')).toThrow(
      /\/x\/pino\/lib\/tools\.js.*update scripts\/bundle\/pino-lean\.mjs/,
    );
  });
});

describe('pino in a bundle built with the product options', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('logs a line, with neither node:assert nor node:worker_threads loaded; a transport refuses', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pino-lean-'));
    dirs.push(dir);
    const entry = path.join(dir, 'entry.ts');
    await writeFile(
      entry,
      `import { createLogger, flushLogs } from ${JSON.stringify(path.join(root, 'src/log.ts'))};
import pino from 'pino';
const log = createLogger('info');
log.info({ n: 1 }, 'hello');
await flushLogs();
let refused = '';
try { pino.transport({ target: import.meta.filename }); } catch (err) { refused = (err as Error).message; }
const loaded = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13));
process.stdout.write(JSON.stringify({ refused, assert: loaded.includes('assert'), workerThreads: loaded.includes('worker_threads') }));
`,
    );
    const out = path.join(dir, 'entry.mjs');
    // The entry is outside the repository: pino resolves from the repository's node_modules.
    await build({ ...(await esbuildOptions(entry, out)), minify: false, nodePaths: [path.join(root, 'node_modules')] });
    const r = spawnSync(process.execPath, [out], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const line = JSON.parse(r.stderr.trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, name: 'core-agent', n: 1, msg: 'hello' });
    expect(JSON.parse(r.stdout)).toEqual({
      refused: expect.stringContaining('pino transports (worker threads) are not available in the core-agent bundle'),
      assert: false,
      workerThreads: false,
    });
  });
});
