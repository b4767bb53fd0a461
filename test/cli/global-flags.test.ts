import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../../src/cli/main-help.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';
import { bundle, hasTmux, TerminalSession } from './terminal-session.ts';

const sessions: TerminalSession[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.close();
});

async function workspace(): Promise<string> {
  const ws = await tempDir();
  await writeFile(path.join(ws, 's.jsonl'), `${JSON.stringify({ text: 'Hello from the replay.' })}\n`);
  await writeFile(path.join(ws, 'r.yaml'), 'model: "replay:s.jsonl"\n');
  return ws;
}

describe('core-agent with only global flags', () => {
  // Off a terminal, the same usage error as a bare `core-agent` (nothing to talk to).
  it.each([[['--model', 'replay:s.jsonl']], [['-m', 'replay:s.jsonl']], [['-c', 'r.yaml']], [['--trust-workspace']], [[]]])(
    'off a terminal, %j is the usage error of bare core-agent (exit 2)',
    async (argv) => {
      const ws = await workspace();
      const out = await runCli(argv, ws);
      expect(out.code).toBe(2);
      expect(out.stderr).toMatch(/^core-agent \S+ — an agent runtime/);
      expect(out.stderr).toContain('Usage: core-agent <command> [options]');
      expect(out.stdout).toBe('');
    },
  );

  it('with --help, the REPL help (the command those flags start)', async () => {
    const out = await runCli(['--model', 'replay:s.jsonl', '--help'], await workspace());
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Usage: core-agent repl');
  });

  it('a word that is not a flag is still an unknown command', async () => {
    const out = await runCli(['rnu'], await workspace());
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/unknown command "rnu" — did you mean "run"\?/);
  });

  describe.skipIf(!hasTmux)('on a terminal (tmux)', { timeout: 60_000 }, () => {
    it.each([
      ['-m', 'replay:s.jsonl'],
      ['--model', 'replay:s.jsonl'],
      ['-c', 'r.yaml'],
    ])('core-agent %s %s starts the REPL and answers', async (...argv) => {
      const ws = await workspace();
      const t = new TerminalSession(ws, [...argv, '--session-db', 'db']);
      sessions.push(t);
      await t.until('\n›');
      t.type('hello');
      await t.until('Hello from the replay.');
      expect(t.screen()).not.toContain('unknown command');
    });
  });
});

describe('an old Node is refused first, in one line (exit 2)', () => {
  it.each([
    ['20.20.2', true],
    ['22.12.0', true],
    ['23.11.1', true],
    ['18.0.0', true],
    ['garbage', true],
    ['24.0.0', false],
    ['24.11.1', false],
    ['25.1.0', false],
  ])('Node %s refused: %s', (version, refused) => {
    const problem = nodeVersionProblem(version);
    expect(problem !== undefined).toBe(refused);
    if (problem) expect(problem).toMatch(/^core-agent: needs Node 24 or newer; this is Node \S+ \(.+\)\n$/);
  });

  // The system Node of the test machine (Debian's, 20.x) runs the real bundle; without one, say so.
  const oldNode = '/usr/bin/node';
  const oldVersion = existsSync(oldNode) ? spawnSync(oldNode, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim() : '';
  const major = Number.parseInt(oldVersion, 10);
  const why = !existsSync(oldNode) ? `${oldNode} is absent` : `${oldNode} is Node ${major}, not older than 24`;
  describe.skipIf(!(major < 24))(`the bundle under ${oldNode}${major < 24 ? '' : ` (skipped: ${why})`}`, () => {
    it.each([[['run', 'hi', '-m', 'replay:x']], [['--version']], [['tools', 'list']], [['--model', 'x']], [['sessions', 'list']], [[]]])(
      '%j: one line, exit 2, before node:sqlite is needed',
      (argv) => {
        const r = spawnSync(oldNode, [bundle, ...argv], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: '/nonexistent' } });
        expect(r.status).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toBe(`core-agent: needs Node 24 or newer; this is Node ${oldVersion} (${oldNode})\n`);
      },
    );
  });
});
