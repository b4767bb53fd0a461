import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { fakeHub, installSciontool } from '../helpers/sciontool.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';

const HOOK = '{command: [sciontool, hook, --dialect=core-agent]}';

/** The harness's recipe, in ask mode: the rules that let a headless run report to Scion. */
const RECIPE = `permissions:
  allow: ["tool.sciontool_status", "tool.bash:sciontool hook --dialect=core-agent"]
hooks:
  tool-start: [${HOOK}]
  tool-end: [${HOOK}]
  model-start: [${HOOK}]
  agent-end: [${HOOK}]
`;

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

describe('a replayed session under Scion: hooks and sciontool_status through the built CLI', () => {
  it('fires tool-start, tool-end, model-start and agent-end in order, and task_completed reaches the hub', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'a.txt': 'hello\n', 'recipe.yaml': RECIPE });
    const tool = await installSciontool();
    const hub = await fakeHub();
    try {
      const model = await script(ws, [
        { tool_calls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
        { tool_calls: [{ name: 'sciontool_status', args: { status_type: 'task_completed', message: 'Read a.txt' } }] },
        { text: 'a.txt says hello.' },
      ]);
      const r = await runCli(['run', '-m', model, '-c', 'recipe.yaml', '-o', 'json', '--session-db', ':memory:', 'read a.txt'], ws, {
        PATH: `${tool.bin}:${process.env.PATH}`,
        SCION_RECORD: tool.record,
        SCION_HUB_ENDPOINT: hub.url,
      });
      expect(r.code, r.stderr).toBe(0);
      const sessionId = jsonLines(r.stdout).find((e) => e.type === 'session')!.id;

      const calls = await tool.calls();
      const seen = calls.map((c) =>
        c.envelope ? `${c.envelope.hook_event_name}${c.envelope.tool_name ? `:${c.envelope.tool_name}` : ''}` : c.argv.join(' '),
      );
      expect(seen).toEqual([
        'model-start',
        'tool-start:read_file',
        'tool-end:read_file',
        'model-start',
        'tool-start:sciontool_status',
        'status task_completed Read a.txt',
        'tool-end:sciontool_status',
        'model-start',
        'agent-end',
      ]);
      const envelopes = calls.filter((c) => c.envelope).map((c) => c.envelope);
      for (const e of envelopes) expect(e.session_id).toBe(sessionId);
      expect(calls.filter((c) => c.envelope).every((c) => c.argv.join(' ') === 'hook --dialect=core-agent')).toBe(true);
      expect(envelopes[1]).toEqual({
        hook_event_name: 'tool-start',
        session_id: sessionId,
        tool_name: 'read_file',
        tool_input: { path: 'a.txt' },
      });
      expect(envelopes[2]).toMatchObject({
        hook_event_name: 'tool-end',
        tool_name: 'read_file',
        tool_output: { content: expect.stringContaining('hello') },
      });
      expect(envelopes[2]).not.toHaveProperty('tool_input');
      expect(envelopes[5]).toMatchObject({ tool_output: { status_type: 'task_completed', reported: true } });
      expect(Object.keys(envelopes[0]).sort()).toEqual(['hook_event_name', 'session_id']);

      expect(hub.received).toEqual([expect.objectContaining({ activity: 'completed', taskSummary: 'Read a.txt' })]);
      // Sticky: the hooks after task_completed (tool-end, model-start, agent-end) did not overwrite it.
      expect(JSON.parse(await readFile(path.join(ws, 'agent-info.json'), 'utf8'))).toMatchObject({ activity: 'completed' });
    } finally {
      await hub.close();
    }
  }, 60_000);

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
