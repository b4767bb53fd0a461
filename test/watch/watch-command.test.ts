// `core-agent watch` refuses what it cannot run with exit 2 and a message that says
// what to give, before it touches a cluster or opens a port.
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundle } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';

function watch(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [bundle, 'watch', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: cwd, ...env },
    timeout: 20_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('core-agent watch: usage errors', () => {
  it('--help describes the command and its port', async () => {
    const r = watch(['--help'], await tempDir());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: core-agent watch -c RECIPE/);
    expect(r.stdout).toMatch(/--listen HOST:PORT/);
  });

  it.each<[string, string[], Record<string, string>, RegExp]>([
    ['no recipe', [], {}, /watch needs a recipe with a watch: section/],
    ['a recipe without watch:', ['-c', 'plain.yaml', '--model', 'replay:s.jsonl'], {}, /plain.yaml has no watch: section/],
    ['no model', ['-c', 'watch.yaml'], {}, /no model: give --model/],
    ['--resume', ['-c', 'watch.yaml', '--resume', 's-1'], {}, /--resume does not apply to watch/],
    ['a bad --listen', ['-c', 'watch.yaml', '--model', 'replay:s.jsonl', '--listen', 'nowhere'], {}, /give HOST:PORT/],
    [
      'a URL as --allowed-host',
      ['-c', 'watch.yaml', '--model', 'replay:s.jsonl', '--allowed-host', 'http://x.example'],
      {},
      /--allowed-host "http:\/\/x\.example" is not a host/,
    ],
    [
      'no cluster',
      ['-c', 'watch.yaml', '--model', 'replay:s.jsonl'],
      { KUBECONFIG: '/nonexistent/kubeconfig' },
      /no cluster to watch: the kubeconfig \/nonexistent\/kubeconfig does not exist/,
    ],
    ['a model without its key', ['-c', 'watch.yaml', '--model', 'anthropic:claude-sonnet-4-5'], {}, /ANTHROPIC_API_KEY/],
  ])('%s → exit 2', async (_what, args, env, message) => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'plain.yaml'), 'instructions: hi\n');
    await writeFile(path.join(dir, 'watch.yaml'), 'watch: { reasons: [BackOff] }\n');
    await writeFile(path.join(dir, 's.jsonl'), '{"text":"UNRESOLVED"}\n');
    const r = watch(args, dir, env);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
  });

  it('a misspelt watch key is a recipe error with its position', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'watch.yaml'), 'watch:\n  cooldown: 5\n');
    const r = watch(['-c', 'watch.yaml', '--model', 'replay:x'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/watch.yaml:2:3: watch: unknown key "cooldown" — did you mean "cooldown_seconds"\?/);
  });
});
