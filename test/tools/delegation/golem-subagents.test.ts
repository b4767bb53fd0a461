// golem's subagent tools (StartSubagent, WaitForSubagent, CancelSubagent) in the golem dialect,
// over the one engine: a real runtime (catalog, gate, dispatcher, bash), the engine attached to
// a session of an in-memory event log, and a replay script whose child steps are addressed to
// the general profile, so the child replays its own steps whatever runs beside it.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReplayStep } from '../../../src/model/replay.ts';
import { delegatingRuntime } from '../../helpers/child-agents.ts';
import { running } from '../../helpers/processes.ts';
import { setup, setupIn, tempDir } from '../../helpers/workspace.ts';

function golemRun(steps: ReplayStep[], dialect: 'golem' | 'core-agent' = 'golem') {
  return delegatingRuntime(
    { tree: { 'notes.txt': 'the cache is cold\n' }, flags: { mode: 'yolo' } },
    { steps, make: dialect === 'golem' ? setupIn('golem') : setup },
  );
}

const message = (r: Record<string, unknown>) => String(r.message);

describe("golem's subagents on the engine", () => {
  it('StartSubagent returns at once with sub_<8 hex>; WaitForSubagent gives its answer as a sentence', async () => {
    const { rt, log } = await golemRun([
      { agent: 'general', tool_calls: [{ name: 'ReadFile', args: { path: 'notes.txt' } }] },
      { agent: 'general', text: 'notes.txt says the cache is cold.' },
    ]);
    const started = await rt.ok('StartSubagent', { description: 'read the notes', prompt: 'What does notes.txt say?' });
    expect(started.subagentId).toMatch(/^sub_[0-9a-f]{8}$/);
    expect(message(started)).toMatch(/^Started subagent sub_[0-9a-f]{8} \(read the notes\)\. Call WaitForSubagent/);
    const waited = await rt.ok('WaitForSubagent', { subagentId: started.subagentId });
    expect(message(waited)).toBe(`Subagent ${String(started.subagentId)} finished:\n\nnotes.txt says the cache is cold.`);
    // The child ran in golem's dialect too, with no way to ask the user and no subagent tools.
    const child = `${rt.session.sessionId}:sub:${String(started.subagentId)}`;
    const tools = log.events(child)[0]!.data.tools as string[];
    expect(tools).toContain('read_file');
    for (const gone of ['request_user_input', 'ask_user', 'spawn_agent', 'wait_agent', 'stop_agent']) expect(tools).not.toContain(gone);
  });

  it('an id this conversation did not start is unknown, to wait and to cancel alike', async () => {
    const { rt } = await golemRun([{ agent: 'general', text: 'done' }]);
    const started = await rt.ok('StartSubagent', { description: 'x', prompt: 'say done' });
    expect(message(await rt.ok('WaitForSubagent', { subagentId: 'sub_deadbeef' }))).toBe(
      'There is no subagent sub_deadbeef in this conversation.',
    );
    const mine = rt.session.sessionId;
    rt.session.sessionId = 's-another-conversation';
    expect(message(await rt.ok('WaitForSubagent', { subagentId: started.subagentId }))).toMatch(/^There is no subagent sub_/);
    expect(message(await rt.ok('CancelSubagent', { subagentId: started.subagentId }))).toMatch(/^There is no subagent sub_/);
    rt.session.sessionId = mine;
    expect(message(await rt.ok('WaitForSubagent', { subagentId: started.subagentId }))).toMatch(/finished:\n\ndone$/);
  });

  it('CancelSubagent stops a running child: its bash command is killed, and a later wait says it was cancelled', async () => {
    const marker = `30.${Date.now() % 100000}`;
    const { rt, log } = await golemRun([
      { agent: 'general', tool_calls: [{ name: 'bash', args: { command: `sleep ${marker}; echo late`, timeout: 60 } }] },
    ]);
    const started = await rt.ok('StartSubagent', { description: 'sleep', prompt: 'sleep' });
    const id = String(started.subagentId);
    // Its bash call has started.
    for (let i = 0; i < 100 && !log.events(`${rt.session.sessionId}:sub:${id}`).some((e) => e.kind === 'response'); i++)
      await new Promise((r) => setTimeout(r, 50));
    for (let i = 0; i < 100 && running(`sleep ${marker}`).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(running(`sleep ${marker}`).length).toBeGreaterThan(0);
    expect(message(await rt.ok('CancelSubagent', { subagentId: id }))).toBe(`Subagent ${id} was cancelled.`);
    // No orphan: the child's command went with it.
    expect(running(`sleep ${marker}`)).toEqual([]);
    expect(message(await rt.ok('WaitForSubagent', { subagentId: id }))).toMatch(new RegExp(`^Subagent ${id} was cancelled\\.`));
    const end = log.events(`${rt.session.sessionId}:sub:${id}`).at(-1)!;
    expect(end).toMatchObject({ kind: 'agent_end', data: { status: 'stopped', stop_reason: 'stopped' } });
  }, 60_000);

  it("core-agent's wait_agent: still running after its timeout, then the report", async () => {
    const { rt } = await golemRun(
      [
        { agent: 'general', tool_calls: [{ name: 'bash', args: { command: 'sleep 2', timeout: 60 } }] },
        { agent: 'general', text: 'slept' },
      ],
      'core-agent',
    );
    const started = await rt.ok('spawn_agent', { agent: 'general', goal: 'sleep', wait: false });
    expect(started).toMatchObject({ name: 'general-1', status: 'running' });
    const early = await rt.ok('wait_agent', { name: 'general-1', timeout_seconds: 1 });
    expect(early).toMatchObject({ name: 'general-1', status: 'running' });
    const late = await rt.ok('wait_agent', { name: 'general-1', timeout_seconds: 30 });
    expect(late).toMatchObject({ status: 'done', stop_reason: 'natural' });
  }, 60_000);
});

describe("golem's run is held open by its subagents", () => {
  it('the run ends when its subagent does, and its work is done; core-agent stops the child with the run', async () => {
    const { spawnSync } = await import('node:child_process');
    const { readFile, writeFile } = await import('node:fs/promises');
    const { bundle } = await import('../../helpers/cli.ts');
    for (const dialect of ['golem', 'core-agent'] as const) {
      const ws = await tempDir();
      const start =
        dialect === 'golem'
          ? { name: 'StartSubagent', args: { description: 'write out.txt', prompt: 'write out.txt' } }
          : { name: 'spawn_agent', args: { agent: 'general', goal: 'write out.txt', wait: false } };
      const script = [
        { tool_calls: [start] },
        { agent: 'general', tool_calls: [{ name: 'bash', args: { command: 'sleep 1.5 && echo done > out.txt', timeout: 30 } }] },
        { agent: 'general', text: 'wrote it' },
        { text: 'started it' },
      ];
      await writeFile(path.join(ws, 's.jsonl'), script.map((l) => JSON.stringify(l)).join('\n'));
      const r = spawnSync(
        process.execPath,
        [bundle, 'run', '--dialect', dialect, '-m', 'replay:s.jsonl', '--session-db', 'db', '--yolo', 'go'],
        { cwd: ws, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: ws } },
      );
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain('started it');
      if (dialect === 'golem') {
        expect(r.stderr).toContain('waited for 1 subagent(s) to end');
        expect(await readFile(path.join(ws, 'out.txt'), 'utf8')).toBe('done\n');
      } else {
        await expect(readFile(path.join(ws, 'out.txt'), 'utf8')).rejects.toThrow();
      }
    }
  }, 60_000);
});
