import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundle, runCli } from '../helpers/cli.ts';
import { fakeHub, installSciontool } from '../helpers/sciontool.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';
import { HOOK_EVENTS } from '../../src/config/hook-events.ts';
import { TASK_1, TASK_2, TWO_TASKS_EVENTS, replTwoTasks, twoTasksWorkspace } from './two-tasks.ts';

/** Every event wired to the stand-in in one envelope, in ask mode with the rules that let a headless run report. */
function recipe(envelope: 'core-agent' | 'claude'): string {
  const command = `{command: [sciontool, hook, --dialect=${envelope}], envelope: ${envelope}}`;
  return `permissions:
  allow: ["tool.sciontool_status", "tool.bash:sciontool hook --dialect=${envelope}"]
hooks:
${HOOK_EVENTS.map((e) => `  ${e}: [${command}]`).join('\n')}
`;
}

async function script(ws: string, lines: object[]): Promise<string> {
  const file = path.join(ws, 'script.jsonl');
  await writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return `replay:${file}`;
}

const jsonLines = (s: string) =>
  s
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const CLAUDE_NAMES: Record<string, string> = {
  'session-start': 'SessionStart',
  'prompt-submit': 'UserPromptSubmit',
  'model-start': 'BeforeModel',
  'model-end': 'AfterModel',
  'tool-start': 'PreToolUse',
  'tool-end': 'PostToolUse',
  'agent-end': 'Stop',
  'session-end': 'SessionEnd',
};

/** The two tasks through the REPL with every hook on the stand-in; what it was run with, in order. */
async function twoTasks(envelope: 'core-agent' | 'claude') {
  const ws = await tempDir();
  await writeTree(ws, { 'recipe.yaml': recipe(envelope) });
  const model = await twoTasksWorkspace(ws);
  const tool = await installSciontool();
  const hub = await fakeHub();
  try {
    const r = await replTwoTasks(['-m', model, '-c', 'recipe.yaml', '--session-db', 'sessions.db'], ws, {
      PATH: `${tool.bin}:${process.env.PATH}`,
      SCION_RECORD: tool.record,
      SCION_HUB_ENDPOINT: hub.url,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/hook failed/);
    const calls = await tool.calls();
    const info = JSON.parse(await readFile(path.join(ws, 'agent-info.json'), 'utf8')) as Record<string, unknown>;
    return { ws, calls, info, received: hub.received, stdout: r.stdout };
  } finally {
    await hub.close();
  }
}

describe('a replayed session under Scion: hooks and sciontool_status through the built CLI', () => {
  it('fires every event in order across two tasks and a compaction, in our envelope', async () => {
    const { calls, info, received, stdout } = await twoTasks('core-agent');
    const seen = calls.map((c) =>
      c.envelope ? `${c.envelope.hook_event_name}${c.envelope.tool_name ? `:${c.envelope.tool_name}` : ''}` : c.argv.join(' '),
    );
    expect(seen).toEqual(TWO_TASKS_EVENTS);
    // The first task came on the command line, as Scion hands it over, and shows as typed.
    expect(stdout).toContain(`› ${TASK_1}\n`);
    const envelopes = calls.filter((c) => c.envelope).map((c) => c.envelope as Record<string, unknown>);
    const sessionId = envelopes[0]!.session_id;
    expect(sessionId).toMatch(/^s-/);
    for (const e of envelopes) expect(e.session_id).toBe(sessionId);
    expect(calls.filter((c) => c.envelope).every((c) => c.argv.join(' ') === 'hook --dialect=core-agent')).toBe(true);
    const at = (name: string, n = 0) => envelopes.filter((e) => e.hook_event_name === name)[n]!;
    expect(at('session-start')).toEqual({ hook_event_name: 'session-start', session_id: sessionId, source: 'startup' });
    expect(at('prompt-submit')).toEqual({ hook_event_name: 'prompt-submit', session_id: sessionId, prompt: TASK_1 });
    expect(at('prompt-submit', 1)).toMatchObject({ prompt: TASK_2 });
    expect(at('agent-start')).toEqual({ hook_event_name: 'agent-start', session_id: sessionId });
    expect(at('model-start')).toEqual({ hook_event_name: 'model-start', session_id: sessionId, purpose: 'step' });
    expect(at('model-end')).toEqual({
      hook_event_name: 'model-end',
      session_id: sessionId,
      purpose: 'step',
      ok: true,
      usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) },
    });
    // The compaction's call is the fourth model call.
    expect(at('model-start', 3)).toMatchObject({ purpose: 'compaction' });
    expect(at('model-end', 3)).toMatchObject({ purpose: 'compaction', ok: true });
    expect(at('tool-start')).toEqual({
      hook_event_name: 'tool-start',
      session_id: sessionId,
      tool_name: 'read_file',
      tool_input: { path: 'a.txt' },
    });
    expect(at('tool-end')).toMatchObject({ tool_name: 'read_file', tool_output: { content: expect.stringContaining('hello') } });
    expect(at('tool-end')).not.toHaveProperty('tool_input');
    expect(at('tool-end', 1)).toMatchObject({ tool_output: { status_type: 'task_completed', reported: true } });
    expect(at('response-complete')).toEqual({ hook_event_name: 'response-complete', session_id: sessionId, message: 'a.txt says hello.' });
    expect(at('agent-end')).toEqual({
      hook_event_name: 'agent-end',
      session_id: sessionId,
      status: 'done',
      last_assistant_message: 'a.txt says hello.',
    });
    expect(at('session-end')).toEqual({ hook_event_name: 'session-end', session_id: sessionId, reason: 'exit' });
    expect(received).toEqual([expect.objectContaining({ activity: 'completed', taskSummary: 'Read a.txt' })]);
    // The display as it went: completed stays through the first task's later hooks and the
    // compaction, and the second task's prompt (new work) clears it.
    const shown = calls.filter((c) => c.envelope).map((c) => `${String(c.envelope.hook_event_name)}=${String(c.activity)}`);
    const second = shown.lastIndexOf('prompt-submit=thinking');
    expect(shown.slice(shown.indexOf('tool-end=completed'), second)).toEqual([
      'tool-end=completed',
      'model-start=completed',
      'model-end=completed',
      'response-complete=completed',
      'agent-end=completed',
      'model-start=completed',
      'model-end=completed',
    ]);
    expect(second).toBeGreaterThan(0);
    expect(info).toMatchObject({ phase: 'stopped' });
  }, 90_000);

  it('writes Claude Code hook input for sciontool --dialect=claude: the same sequence, its names and fields', async () => {
    const { ws, calls } = await twoTasks('claude');
    const names = calls.map((c) => (c.envelope ? String(c.envelope.hook_event_name) : c.argv.join(' ')));
    expect(names).toEqual(TWO_TASKS_EVENTS.map((e) => e.split(':')[0]!).map((e) => CLAUDE_NAMES[e] ?? e));
    const envelopes = calls.filter((c) => c.envelope).map((c) => c.envelope as Record<string, unknown>);
    expect(calls.filter((c) => c.envelope).every((c) => c.argv.join(' ') === 'hook --dialect=claude')).toBe(true);
    const at = (name: string, n = 0) => envelopes.filter((e) => e.hook_event_name === name)[n]!;
    const sessionId = envelopes[0]!.session_id;
    expect(at('PreToolUse')).toEqual({
      hook_event_name: 'PreToolUse',
      session_id: sessionId,
      cwd: ws,
      tool_name: 'read_file',
      tool_input: { path: 'a.txt' },
    });
    expect(at('PostToolUse')).toMatchObject({
      cwd: ws,
      tool_name: 'read_file',
      tool_response: { content: expect.stringContaining('hello') },
    });
    expect(at('PostToolUse')).not.toHaveProperty('tool_output');
    expect(at('AfterModel')).toMatchObject({ purpose: 'step', success: true, usage: { input_tokens: expect.any(Number) } });
    expect(at('AfterModel')).not.toHaveProperty('ok');
    expect(at('UserPromptSubmit')).toMatchObject({ prompt: TASK_1, cwd: ws });
    expect(at('Stop')).toMatchObject({ status: 'done', last_assistant_message: 'a.txt says hello.' });
    expect(at('SessionStart')).toMatchObject({ source: 'startup' });
    expect(at('SessionEnd')).toMatchObject({ reason: 'exit' });
  }, 90_000);

  it('fires notification before the operator is asked: ask_user and a permission prompt', async () => {
    const ws = await tempDir();
    const hook = '[{command: [sciontool, hook, --dialect=claude], envelope: claude}]';
    await writeTree(ws, {
      // ask mode: write_file asks for permission; the hooks are allowed by the rule.
      'recipe.yaml': `permissions:\n  allow: ["tool.bash:sciontool hook --dialect=claude"]\nhooks:\n  tool-start: ${hook}\n  tool-end: ${hook}\n  notification: ${hook}\n`,
    });
    const model = await script(ws, [
      { tool_calls: [{ name: 'ask_user', args: { question: 'Which file?' } }] },
      { tool_calls: [{ name: 'write_file', args: { path: 'b.txt', content: 'hi\n' } }] },
      { text: 'Wrote b.txt.' },
    ]);
    const tool = await installSciontool();
    const child = spawn(process.execPath, [bundle, 'repl', '-m', model, '-c', 'recipe.yaml', '--session-db', ':memory:', 'go'], {
      cwd: ws,
      env: { PATH: `${tool.bin}:${process.env.PATH}`, HOME: ws, SCION_RECORD: tool.record },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    // The answer to ask_user, then "y" to the permission prompt.
    child.stdin.end('b.txt\ny\n');
    const code = await new Promise((r) => child.on('close', r));
    expect(code, stderr).toBe(0);
    const calls = (await tool.calls()).filter((c) => c.envelope);
    expect(
      calls.map((c) => `${String(c.envelope.hook_event_name)}${c.envelope.tool_name ? `:${c.envelope.tool_name}` : ''}=${c.activity}`),
    ).toEqual([
      'PreToolUse:ask_user=executing',
      'Notification=waiting_for_input',
      // Scion's rule: waiting_for_input stays until a tool starts.
      'PostToolUse:ask_user=waiting_for_input',
      'PreToolUse:write_file=executing',
      'Notification=waiting_for_input',
      'PostToolUse:write_file=waiting_for_input',
    ]);
    expect(calls[1]!.envelope).toMatchObject({ message: 'Which file?' });
    expect(calls[4]!.envelope).toMatchObject({ message: 'core-agent asks permission to run write_file' });
    expect(await readFile(path.join(ws, 'b.txt'), 'utf8')).toBe('hi\n');
  }, 90_000);

  it('a failing, hanging or missing hook is logged and the turn goes on', async () => {
    const ws = await tempDir();
    const node = process.execPath;
    await writeTree(ws, {
      'a.txt': 'hello\n',
      'recipe.yaml': `permissions: {mode: yolo}
hooks:
  tool-start:
    - {command: [/nonexistent/hook]}
    - {command: [${node}, -e, "process.exit(4)"]}
    - {command: [${node}, -e, "setTimeout(() => {}, 60000)"], timeout_seconds: 1}
  agent-end:
    - {command: [${node}, -e, "require('fs').writeFileSync('ended', require('fs').readFileSync(0))"]}
`,
    });
    const model = await script(ws, [{ tool_calls: [{ name: 'read_file', args: { path: 'a.txt' } }] }, { text: 'done' }]);
    const started = Date.now();
    const r = await runCli(['run', '-m', model, '-c', 'recipe.yaml', '-o', 'json', '--session-db', ':memory:', 'go'], ws);
    expect(r.code, r.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(jsonLines(r.stdout).find((e) => e.type === 'turn_end')).toMatchObject({ status: 'done', text: 'done' });
    const failures = r.stderr
      .split('\n')
      .filter((l) => l.includes('hook failed'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(failures.map((f) => [f.hook, f.error])).toEqual([
      ['hooks.tool-start[0]', '/nonexistent/hook not found'],
      ['hooks.tool-start[1]', 'exit status 4'],
      ['hooks.tool-start[2]', 'killed after 1 s (timeout_seconds)'],
    ]);
    // The hook after the failures still ran, with its envelope on stdin.
    expect(JSON.parse(await readFile(path.join(ws, 'ended'), 'utf8'))).toMatchObject({ hook_event_name: 'agent-end' });
  }, 60_000);

  it('lists sciontool_status only with sciontool on the PATH', async () => {
    const ws = await tempDir();
    const tool = await installSciontool();
    const empty = await tempDir();
    const names = async (PATH: string) => {
      const r = await runCli(['tools', 'list', '--json'], ws, { PATH });
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as Array<{ name: string }>).map((t) => t.name);
    };
    expect(await names(`${tool.bin}:${empty}`)).toContain('sciontool_status');
    expect(await names(empty)).not.toContain('sciontool_status');
  }, 60_000);
});
