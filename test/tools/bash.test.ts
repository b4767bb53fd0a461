import { describe, expect, it } from 'vitest';
import { REASONS } from '../../src/tools/shell/deny-rules.ts';
import { deniedCommand } from '../../src/tools/shell/denylist.ts';
import { parseCommandLine } from '../../src/tools/shell/bash-parser.ts';
import { DENYLIST_CASES, UNPARSED_CASES } from './denylist.cases.ts';
import { setup } from '../helpers/workspace.ts';
import { running } from '../helpers/processes.ts';

const yolo = { flags: { mode: 'yolo' as const } };

describe('bash', () => {
  it('runs a command and returns its exit code and interleaved output', async () => {
    const rt = await setup(yolo);
    expect(await rt.ok('bash', { command: 'echo out; echo err >&2; exit 3' })).toEqual({
      exit_code: 3,
      timed_out: false,
      output: 'out\nerr\n',
    });
    expect((await rt.ok('bash', { command: 'pwd' })).output).toBe(`${rt.dir}\n`);
  });

  it('runs non-interactively: stdin closed, CI=1, no git prompts', async () => {
    const rt = await setup(yolo);
    expect(await rt.ok('bash', { command: 'cat; echo "[$CI][$GIT_TERMINAL_PROMPT]"' })).toMatchObject({ exit_code: 0, output: '[1][0]\n' });
  });

  it('withholds credential-looking environment variables unless pass_env names them', async () => {
    process.env.CORE_AGENT_TEST_API_KEY = 'sk-secret';
    process.env.CORE_AGENT_TEST_PLAIN = 'visible';
    try {
      const rt = await setup(yolo);
      expect((await rt.ok('bash', { command: 'echo "[$CORE_AGENT_TEST_API_KEY][$CORE_AGENT_TEST_PLAIN]"' })).output).toBe('[][visible]\n');
      const passing = await setup({ ...yolo, recipe: 'tools:\n  bash: { pass_env: [CORE_AGENT_TEST_API_KEY] }\n' });
      expect((await passing.ok('bash', { command: 'echo "$CORE_AGENT_TEST_API_KEY"' })).output).toBe('sk-secret\n');
    } finally {
      delete process.env.CORE_AGENT_TEST_API_KEY;
      delete process.env.CORE_AGENT_TEST_PLAIN;
    }
  });

  it('stops the whole process group at the timeout, grandchildren included, keeping the output so far', async () => {
    const rt = await setup(yolo);
    const marker = `sleep 301.${process.pid}`;
    const r = await rt.ok('bash', { command: `echo started; sh -c '${marker} & ${marker}' & ${marker}`, timeout: 1 });
    expect(r).toMatchObject({ timed_out: true, exit_code: null, output: 'started\n' });
    expect(String(r.note)).toMatch(/Stopped after 1 s/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(running(marker)).toEqual([]);
  });

  it('does not let background jobs outlive the command', async () => {
    const rt = await setup(yolo);
    const marker = `sleep 302.${process.pid}`;
    const started = Date.now();
    const r = await rt.ok('bash', { command: `(${marker} &) ; echo done` });
    expect(r).toMatchObject({ exit_code: 0, output: 'done\n' });
    expect(Date.now() - started).toBeLessThan(10_000);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(running(marker)).toEqual([]);
  });

  it('keeps the end of a long output, where errors are, and says so', async () => {
    const rt = await setup({ ...yolo, recipe: 'tool_output:\n  per_tool:\n    bash: { max_lines: 100 }\n' });
    const r = await rt.ok('bash', { command: 'seq 1 100000; echo "error: the end"' });
    expect(String(r.output).trim().split('\n').at(-1)).toBe('error: the end');
    expect(String(r.output).split('\n').length).toBeLessThanOrEqual(100);
    expect(r.truncated).toBe(true);
    expect(String(r.note)).toMatch(/Only the last \d+ of \d+ bytes are shown/);
  });

  it('accepts timeout_seconds as well as timeout, and refuses one above the operator maximum', async () => {
    const rt = await setup({ ...yolo, recipe: 'tools:\n  bash: { max_timeout_seconds: 30 }\n' });
    expect((await rt.ok('bash', { command: 'true', timeout_seconds: 5 })).exit_code).toBe(0);
    expect(await rt.refused('bash', { command: 'true', timeout: 60 })).toMatch(/above the operator's maximum of 30 s/);
  });
});

describe('the bash denylist', () => {
  it.each(DENYLIST_CASES)('%j → %s', async (cmd, reason) => {
    expect(await deniedCommand(cmd)).toBe(reason === null ? null : REASONS[reason]);
  });

  it.each(UNPARSED_CASES)('does not parse: %j → %s', async (cmd, reason) => {
    expect(await parseCommandLine(cmd), 'the case must not parse').toBeNull();
    expect(await deniedCommand(cmd)).toBe(reason === null ? null : REASONS[reason]);
  });

  it('stays linear on long lines, and a parse that would blow up is given up, not fatal', async () => {
    const started = performance.now();
    for (const line of ['echo ' + 'a'.repeat(100_000), 'echo ' + '$( '.repeat(30_000), 'x | '.repeat(20_000) + '"']) {
      expect(await deniedCommand(line)).toBeNull();
    }
    // Generous: the quadratic regexes this replaced took over ten seconds on the first line alone.
    expect(performance.now() - started).toBeLessThan(20_000);
    // The last line used to exhaust tree-sitter's heap and abort the module for the rest of the session.
    expect(await deniedCommand('rm -rf /')).toBe(REASONS.remove);
    expect(await parseCommandLine('grep -rn x .')).not.toBeNull();
  });

  it('refuses in yolo mode too, with the reason', async () => {
    const rt = await setup(yolo);
    expect(await rt.refused('bash', { command: 'rm -rf /' })).toBe(
      `bash refused: ${REASONS.remove} (the built-in denylist applies in every mode)`,
    );
  });
});

describe('permission rules for bash', () => {
  it('tool.bash.cmd:<verb> denies a command anywhere in the line', async () => {
    const rt = await setup({ ...yolo, recipe: 'permissions:\n  deny: ["tool.bash.cmd:rm"]\n' });
    expect(await rt.refused('bash', { command: 'ls && rm -f x' })).toMatch(/denied by permissions.deny rule "tool.bash.cmd:rm"/);
    expect((await rt.ok('bash', { command: 'ls' })).exit_code).toBe(0);
  });

  it('a wildcard allow rule only auto-allows one literal simple command; an exact rule allows exactly its line', async () => {
    const rt = await setup({ recipe: 'permissions:\n  allow: ["tool.bash.cmd:echo", "tool.bash:git *", "tool.bash:echo a && echo b"]\n' });
    expect((await rt.ok('bash', { command: 'echo hi' })).output).toBe('hi\n');
    expect(await rt.refused('bash', { command: 'echo hi; touch pwned' })).toMatch(/needs approval/);
    expect(await rt.refused('bash', { command: 'echo hi > f.txt' })).toMatch(/needs approval/);
    expect(await rt.refused('bash', { command: 'echo $(touch pwned)' })).toMatch(/needs approval/);
    expect((await rt.ok('bash', { command: 'echo a && echo b' })).output).toBe('a\nb\n');
  });
});
