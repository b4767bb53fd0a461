import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { approvalText, DialogPrompter, parseApproval } from '../../src/cli/terminal/approval.ts';
import { painter } from '../../src/cli/terminal/colors.ts';
import type { GateRequest, PromptAnswer, Prompter } from '../../src/permissions/gate.ts';
import { setup, setupEvery } from '../helpers/workspace.ts';
import { DIALOG_CASES, REPLY_CASES } from './approval.cases.ts';

const plain = painter(false);

/** Asks nobody: keeps the dialog the request would show, and answers as told. */
class Recorder implements Prompter {
  dialogs: string[] = [];
  constructor(private readonly answer: PromptAnswer = 'deny') {}
  async ask(req: GateRequest): Promise<PromptAnswer> {
    this.dialogs.push(await approvalText(req, plain));
    return this.answer;
  }
}

describe('the approval dialog shows the call in full, an edit as its diff', () => {
  it.each(DIALOG_CASES)('$name', async (c) => {
    const prompter = new Recorder('deny');
    // Every dialect's edit tools (apply_patch beside edit_file): each dialog is shown.
    const rt = await setupEvery({ tree: c.tree, prompter });
    const before = await Promise.all(Object.keys(c.tree).map((f) => readFile(path.join(rt.dir, f)).catch(() => null)));
    const r = await rt.dispatcher.call(c.tool, c.args);
    expect(r.ok).toBe(false); // denied
    expect(prompter.dialogs).toHaveLength(1);
    const lines = prompter.dialogs[0]!.split('\n');
    for (const l of c.shows) expect(lines, prompter.dialogs[0]).toContain(l);
    for (const l of c.hides ?? [])
      expect(
        lines.some((x) => x.startsWith(l)),
        prompter.dialogs[0],
      ).toBe(false);
    // Computing the diff wrote nothing.
    const after = await Promise.all(Object.keys(c.tree).map((f) => readFile(path.join(rt.dir, f)).catch(() => null)));
    expect(after).toEqual(before);
  });
});

describe('replies to the dialog', () => {
  it.each(REPLY_CASES)('%j → %j', (reply, answer) => {
    expect(parseApproval(reply)).toEqual(answer);
  });

  it('asks for the note after "m", and asks again after a reply it does not know', async () => {
    const replies = ['what', 'm', 'use 8080'];
    const prompts: string[] = [];
    const p = new DialogPrompter(
      async (prompt) => (prompts.push(prompt), replies.shift() ?? null),
      () => undefined,
      plain,
    );
    const answer = await p.ask({ tool: 'bash', namespace: 'tool.bash', readOnly: false, fileEdit: false, subjects: [] });
    expect(answer).toEqual({ deny: 'use 8080' });
    expect(prompts).toEqual([expect.stringMatching(/^Allow bash\? \[y\] once/), 'Answer y, a, n or m: ', 'Note to the model: ']);
  });

  it('the end of input is a deny, never a hang', async () => {
    const p = new DialogPrompter(
      async () => null,
      () => undefined,
      plain,
    );
    expect(await p.ask({ tool: 'bash', namespace: 'tool.bash', readOnly: false, fileEdit: false, subjects: [] })).toBe('deny');
  });
});

describe('the gate with the dialog', () => {
  it("a deny with a note gives the model the operator's words", async () => {
    const rt = await setup({ prompter: new Recorder({ deny: 'not on a Friday' }) });
    const r = await rt.dispatcher.call('write_file', { path: 'x.txt', content: 'x' });
    expect(r.ok ? '' : r.error).toMatch(/write_file was denied by the operator at the prompt, who says: not on a Friday/);
  });

  it('the time spent at the prompt is reported apart, not as the call’s time', async () => {
    const slow: Prompter = { ask: () => new Promise((resolve) => setTimeout(() => resolve('once'), 400)) };
    const rt = await setup({ prompter: slow });
    let waited = -1;
    const r = await rt.dispatcher.call('write_file', { path: 'x.txt', content: 'x' }, undefined, { onGateWait: (ms) => (waited = ms) });
    expect(r.ok).toBe(true);
    expect(waited).toBeGreaterThanOrEqual(350);
  });
});

describe('"always, saved" (the REPL\'s s)', () => {
  const bashReq = (command: string) => ({
    tool: 'bash',
    namespace: 'tool.bash',
    readOnly: false,
    fileEdit: false,
    commands: [command.split(' ')[0]!],
    subjects: [{ kind: 'text' as const, forms: [command] }],
  });

  it('is offered with the rule it saves; s saves it and allows by it', async () => {
    const writes: string[] = [];
    const prompts: string[] = [];
    const saved: string[] = [];
    const replies = ['what', 's'];
    const p = new DialogPrompter(
      async (prompt) => (prompts.push(prompt), replies.shift() ?? null),
      (t) => void writes.push(t),
      plain,
      undefined,
      undefined,
      async (rule) => (saved.push(rule), `saved: "${rule}"`),
    );
    expect(await p.ask(bashReq('git log *.ts'))).toEqual({ allowRule: 'tool.bash:git log \\*.ts' });
    expect(saved).toEqual(['tool.bash:git log \\*.ts']);
    expect(writes.join('')).toContain(
      '  [s] always: save the rule "tool.bash:git log \\*.ts" to the workspace config (.agents/config.yaml)\n',
    );
    expect(writes.at(-1)).toBe('saved: "tool.bash:git log \\*.ts"\n');
    expect(prompts[1]).toBe('Answer y, a, s, n or m: ');
  });

  it('a save that fails still allows by the rule, and says why', async () => {
    const writes: string[] = [];
    const p = new DialogPrompter(
      async () => 's',
      (t) => void writes.push(t),
      plain,
      undefined,
      undefined,
      async () => {
        throw new Error('/ws/.agents is a symbolic link; not writing through it');
      },
    );
    expect(await p.ask({ tool: 'write_file', namespace: 'tool.write_file', readOnly: false, fileEdit: true, subjects: [] })).toEqual({
      allowRule: 'tool.write_file',
    });
    expect(writes.at(-1)).toBe('not saved: /ws/.agents is a symbolic link; not writing through it; allowed by it for this session\n');
  });

  it('without a saver (run, attach) s is no answer', async () => {
    const replies = ['s', 'n'];
    const p = new DialogPrompter(
      async () => replies.shift() ?? null,
      () => undefined,
      plain,
    );
    expect(await p.ask(bashReq('ls'))).toBe('deny');
  });

  it('the gate allows by the saved rule from then on: the same line without asking, another line asks', async () => {
    let asked = 0;
    const prompter: Prompter = {
      ask: async (req) => {
        asked += 1;
        return asked === 1 ? { allowRule: 'tool.bash:echo one' } : 'deny';
      },
    };
    const rt = await setup({ prompter });
    expect((await rt.dispatcher.call('bash', { command: 'echo one' })).ok).toBe(true);
    expect((await rt.dispatcher.call('bash', { command: 'echo one' })).ok).toBe(true);
    expect(asked).toBe(1);
    expect((await rt.dispatcher.call('bash', { command: 'echo two' })).ok).toBe(false);
    expect(asked).toBe(2);
  });
});
