// Each case of hostile-kubeconfig.cases.ts through the built CLI, with KUBECONFIG naming what the
// case made: `watch` and a run that requires a cluster exit 2 saying why, a k8s tool call fails
// with the same sentence — each within its deadline, bounded, without a stack trace.
import { execFile } from 'node:child_process';
import { open, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { writeKubeconfig } from '../helpers/kubeconfig.ts';
import { tempDir } from '../helpers/workspace.ts';
import { HOSTILE_KUBECONFIG_CASES, type Helpers } from './hostile-kubeconfig.cases.ts';

const sockets: Server[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) await new Promise((resolve) => s.close(resolve));
});

const helpers: Helpers = {
  async sized(file, bytes, fill) {
    if (fill === undefined) {
      const fh = await open(file, 'w');
      await fh.truncate(bytes);
      await fh.close();
    } else await writeFile(file, fill.repeat(bytes));
    return file;
  },
  async fifo(file) {
    await promisify(execFile)('mkfifo', [file]);
    return file;
  },
  async socket(file) {
    const server = createServer();
    sockets.push(server);
    await new Promise<void>((resolve) => server.listen(file, resolve));
    return file;
  },
  async symlink(target, file) {
    await symlink(target, file);
    return file;
  },
  async write(file, content) {
    await writeFile(file, content);
    return file;
  },
  async kubeconfig(file, user, cluster) {
    return writeKubeconfig(file, cluster ?? 'https://127.0.0.1:1', user ? { user } : {});
  },
};

/** What no refusal may look like: a stack trace, or a JS error's own name leaking through. */
const UNBOUNDED = /\n\s+at |TypeError|RangeError|heap out of memory/;

describe('hostile kubeconfigs: one bounded sentence, exit 2 where a cluster is needed at start', () => {
  it.each(HOSTILE_KUBECONFIG_CASES.map((c) => [c.name, c] as const))('%s', { timeout: 120_000 }, async (_name, c) => {
    const ws = await tempDir();
    const kc = await c.make(ws, helpers);
    await writeFile(path.join(ws, 'watch.yaml'), 'watch: { reasons: [BackOff] }\n');
    await writeFile(path.join(ws, 'required.yaml'), 'kubernetes: { required: true }\n');
    await writeFile(path.join(ws, 's.jsonl'), '{"text":"done"}\n');
    const env = { KUBECONFIG: kc };
    const call = runCli(['tools', 'call', 'k8s_list', '{"kind":"Pod"}'], ws, env);
    if (c.stage === 'load') {
      const [watch, run, tool] = await Promise.all([
        runCli(['watch', '-c', 'watch.yaml', '-m', 'replay:s.jsonl', '--session-db', ':memory:', '--listen', '127.0.0.1:0'], ws, env),
        runCli(['run', '-c', 'required.yaml', '-m', 'replay:s.jsonl', '--session-db', ':memory:', 'hi'], ws, env),
        call,
      ]);
      // The case's sentence after the prefix; a path may come before what the case matches of it.
      const tail = c.error.source.startsWith('^') ? c.error.source.slice(1) : `[^\n]*?${c.error.source}`;
      const load = (prefix: string) => new RegExp(`${prefix}cannot load the Kubernetes configuration: ${tail}`, 'm');
      expect(watch.stderr).toMatch(load('^core-agent: no cluster to watch: '));
      expect(watch.code, watch.stderr).toBe(2);
      expect(run.stderr).toMatch(load('the recipe requires a Kubernetes cluster \\(kubernetes\\.required\\) and there is none: '));
      expect(run.code, run.stderr).toBe(2);
      expect(JSON.parse(tool.stdout)).toMatchObject({ error: expect.stringMatching(load('^k8s_list: ')) });
      expect(tool.code).toBe(1);
      for (const r of [watch, run, tool]) expect(r.stderr + r.stdout).not.toMatch(UNBOUNDED);
      // One sentence, bounded, whatever the file holds.
      expect(watch.stderr.split('\n')[0]!.length).toBeLessThan(600);
    } else {
      const tool = await call;
      expect(JSON.parse(tool.stdout)).toMatchObject({ error: expect.stringMatching(c.error) });
      expect(tool.code).toBe(1);
      expect(tool.stderr + tool.stdout).not.toMatch(UNBOUNDED);
      expect((JSON.parse(tool.stdout) as { error: string }).error.length).toBeLessThan(600);
    }
  });
});
