import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { bundle, runCli } from '../helpers/cli.ts';
import { fakeProvider, type FakeServer } from '../helpers/fake-providers.ts';
import { tempDir } from '../helpers/workspace.ts';

/**
 * What a command run by bash can read of its ancestors' environments: every
 * process from the shell up to init, as /proc/PID/environ shows it.
 */
const WALK_UP = [
  'p=$$',
  'while [ "$p" -gt 1 ]; do',
  '  echo "== $p $(cat /proc/$p/comm)"',
  "  tr '\\0' '\\n' < /proc/$p/environ",
  "  p=$(awk '/^PPid:/ { print $2 }' /proc/$p/status)",
  'done',
  // The two short ways in the issue, too.
  "echo '== $PPID'; tr '\\0' '\\n' < /proc/$PPID/environ",
  "echo '== ps'; tr '\\0' '\\n' < /proc/$(ps -o ppid= $$ | tr -d ' ')/environ",
].join('\n');

const secrets = () => ({
  OPENAI_API_KEY: `sk-test-${randomBytes(12).toString('hex')}`,
  FOO_TOKEN: `tok-${randomBytes(8).toString('hex')}`,
});

const servers: FakeServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

describe.skipIf(!existsSync('/proc/self/environ'))("credentials in core-agent's environment", () => {
  it('are not in /proc/<core-agent>/environ (nor any ancestor) for a command bash runs', async () => {
    const ws = await tempDir();
    const env = secrets();
    const r = await runCli(['tools', 'call', 'bash', JSON.stringify({ command: WALK_UP }), '--yolo'], ws, env);
    expect(r.code, r.stderr).toBe(0);
    const output = String((JSON.parse(r.stdout) as { output: string }).output);
    // It did read core-agent's block: the names are there, their values blanked to the same length.
    expect(output).toContain(`OPENAI_API_KEY=${'*'.repeat(env.OPENAI_API_KEY.length)}\n`);
    expect(output).toContain(`FOO_TOKEN=${'*'.repeat(env.FOO_TOKEN.length)}\n`);
    // The walk went past core-agent (the shell, core-agent, the test runner at least).
    expect(output.match(/^== \d+ /gm)!.length).toBeGreaterThanOrEqual(3);
    expect(output).not.toContain(env.OPENAI_API_KEY);
    expect(output).not.toContain(env.FOO_TOKEN);
    expect(r.stderr).not.toMatch(/could not blank credentials/);
  });

  it('are still what core-agent sends: the provider gets the key before and after the command reads the environment', async () => {
    const ws = await tempDir();
    const env = secrets();
    const server = await fakeProvider('openai', [
      { toolCalls: [{ name: 'bash', args: JSON.stringify({ command: WALK_UP }) }] },
      { text: 'read it' },
    ]);
    servers.push(server);
    const r = await runCli(['run', '-m', 'openai:gpt-test', '--yolo', '--session-db', ':memory:', 'look around'], ws, {
      ...env,
      OPENAI_BASE_URL: server.url,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('read it');
    expect(server.requests).toHaveLength(2);
    for (const req of server.requests) expect(req.headers.authorization).toBe(`Bearer ${env.OPENAI_API_KEY}`);
    // The second request carries the command's output back to the model: the names, never the values.
    const sent = JSON.stringify(server.requests[1]!.body);
    expect(sent).toContain(`OPENAI_API_KEY=${'*'.repeat(env.OPENAI_API_KEY.length)}`);
    expect(sent).not.toContain(env.OPENAI_API_KEY);
    expect(sent).not.toContain(env.FOO_TOKEN);
  });

  it('that cannot be blanked are named in one warning at start-up', async () => {
    const ws = await tempDir();
    // A value Node cannot set again byte for byte (not UTF-8), given by env(1).
    const r = spawnSync(
      'sh',
      [
        '-c',
        'exec env "ODD_TOKEN=$(printf "\\377")" "$@"',
        'sh',
        process.execPath,
        bundle,
        'tools',
        'call',
        'bash',
        '{"command":"true"}',
        '--yolo',
      ],
      { cwd: ws, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: ws } },
    );
    expect(r.status, r.stderr).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('could not blank credentials'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, variables: ['ODD_TOKEN'], reason: expect.stringMatching(/ODD_TOKEN/) });
  });
});
