// Whose call is it? A child agent's permission prompts go to the parent's operator through the
// parent's gate, named for the child: the gate request carries the child's name, the terminal
// dialog and the attach daemon's pending prompt show it, and the parent's own calls carry none.
// A child's record_plan is filed under its name and session.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReplayStep } from '../../../src/model/replay.ts';
import type { GateRequest, PromptAnswer } from '../../../src/permissions/gate.ts';
import { approvalText } from '../../../src/cli/terminal/approval.ts';
import { PromptBroker, type PendingPrompt } from '../../../src/attach/prompts.ts';
import { delegatingRuntime } from '../../helpers/child-agents.ts';

async function askingRun(steps: ReplayStep[], recipe?: string) {
  const asked: GateRequest[] = [];
  const { rt, log } = await delegatingRuntime(
    {
      tree: { 'notes.txt': 'the cache is cold\n' },
      flags: { mode: 'ask' },
      recipe,
      prompter: {
        ask: (req): Promise<PromptAnswer> => {
          asked.push(req);
          return Promise.resolve('once');
        },
      },
    },
    { steps },
  );
  return { rt, asked, log };
}

describe("a child agent's prompts name it", () => {
  it("the gate request carries the child's name; the parent's own call carries none", async () => {
    const { rt, asked } = await askingRun([
      { agent: 'general', tool_calls: [{ name: 'write_file', args: { path: 'child.txt', content: 'c' } }] },
      { agent: 'general', text: 'written' },
    ]);
    const spawned = await rt.ok('spawn_agent', { agent: 'general', goal: 'write child.txt' });
    expect(spawned).toMatchObject({ name: 'general-1', final_text: 'written' });
    await rt.ok('write_file', { path: 'parent.txt', content: 'p' });
    const writes = asked.filter((r) => r.tool === 'write_file');
    expect(writes.map((r) => r.agent)).toEqual(['general-1', undefined]);
    // The spawn itself was the parent's call.
    expect(asked.find((r) => r.tool === 'spawn_agent')?.agent).toBeUndefined();
    expect(await readFile(path.join(rt.workspace, 'child.txt'), 'utf8')).toBe('c');
  });

  it('the terminal dialog and the prompt line say [name]', async () => {
    const req: GateRequest = { tool: 'write_file', agent: 'explore-2', readOnly: false, fileEdit: true, subjects: [] };
    const plain = (_style: unknown, text: string) => text;
    expect(await approvalText(req, plain)).toMatch(/^\? \[explore-2\] write_file asks for approval/);
    expect(await approvalText({ ...req, agent: undefined }, plain)).toMatch(/^\? write_file asks for approval/);
  });

  it("the attach daemon's pending prompt names the agent", async () => {
    const seen: PendingPrompt[] = [];
    const broker = new PromptBroker(60_000, () => undefined);
    broker.sessionId = 's-parent';
    broker.subscribe((n) => {
      if (n.type === 'prompt') seen.push(n.prompt);
    });
    void broker.ask({ tool: 'write_file', agent: 'general-1', namespace: 'tool', readOnly: false, subjects: [] });
    void broker.ask({ tool: 'bash', namespace: 'tool', readOnly: false, subjects: [] });
    expect(seen.map((p) => [p.session, p.tool, p.agent])).toEqual([
      ['s-parent', 'write_file', 'general-1'],
      ['s-parent', 'bash', undefined],
    ]);
    broker.denyAll('test');
  });

  it("a child's record_plan is attributed to the child's agent and session", async () => {
    const { rt } = await askingRun(
      [
        { agent: 'general', tool_calls: [{ name: 'record_plan', args: { plan: '1. Read.\n2. Answer.' } }] },
        { agent: 'general', text: 'planned' },
      ],
      'permissions:\n  plan_mode: advisory\n',
    );
    await rt.ok('spawn_agent', { agent: 'general', goal: 'plan it' });
    const dir = path.join(rt.workspace, '.agents', 'plans');
    const { readdir } = await import('node:fs/promises');
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    const text = await readFile(path.join(dir, files[0]!), 'utf8');
    expect(text).toContain('agent: "general-1"');
    expect(text).toContain(`session: "${rt.session.sessionId!}:sub:general-1"`);
  });
});
