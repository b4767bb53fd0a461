import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ElicitAnswer, ElicitForm } from '../../src/mcp/elicit-form.ts';
import { formOnLines } from '../../src/mcp/elicit-lines.ts';
import { UnattendedAsker } from '../../src/runtime/askers.ts';
import type { Asker } from '../../src/tools/framework/services.ts';
import { EventLog } from '../../src/store/event-log.ts';
import { bundle } from '../helpers/cli.ts';
import { setup, tempDir } from '../helpers/workspace.ts';
import { CASES } from './elicitation.cases.ts';
import { recipeWith } from './helpers.ts';

const elicitServer = fileURLToPath(new URL('./elicit-server.ts', import.meta.url));
const recipe = recipeWith(JSON.stringify({ el: { command: process.execPath, args: [elicitServer] } }));

/** An asker that answers forms from a script, and remembers what it was shown. */
function scripted(answer: (form: ElicitForm) => ElicitAnswer): Asker & { forms: ElicitForm[] } {
  const forms: ElicitForm[] = [];
  return {
    forms,
    ask: async () => ({ unavailable: 'not in this test' }),
    elicit: async (form) => {
      forms.push(form);
      return answer(form);
    },
  };
}

/** What the server saw: the tool returns the elicitation result (or the error) as JSON. */
async function seen(asker: Asker | undefined, args: Record<string, unknown> = {}) {
  const rt = await setup({ recipe, services: asker ? { asker } : {} });
  const r = await rt.dispatcher.call('mcp.el.ask', args);
  if (!r.ok) throw new Error(r.error);
  return JSON.parse((r.result as { text: string }).text) as {
    action?: string;
    content?: Record<string, unknown>;
    _meta?: Record<string, string>;
    error?: string;
  };
}

describe('elicitation during an MCP tool call (a real SDK server as a process)', () => {
  it('headless (no asker): declined at once, and the server sees why', async () => {
    const started = Date.now();
    const r = await seen(undefined);
    expect(r.action).toBe('decline');
    expect(r._meta?.['core-agent/reason']).toMatch(/running unattended: no one can fill in a form/);
    // Bounded: a decline, not a wait for the server's 60 s request timeout.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('an asker that cannot show forms (run --ask auto without a terminal) declines the same way', async () => {
    const r = await seen(new UnattendedAsker());
    expect(r).toMatchObject({ action: 'decline', _meta: { 'core-agent/reason': expect.stringMatching(/unattended/) as unknown } });
  });

  it('an interactive answer reaches the server; fields left empty get the SEP-1034 defaults', async () => {
    const asker = scripted(() => ({ action: 'accept', values: { name: 'Ada', age: 41 } }));
    const r = await seen(asker);
    expect(r).toEqual({ action: 'accept', content: { name: 'Ada', age: 41, score: 95.5, status: 'active', verified: true } });
    const [form] = asker.forms;
    expect(form!.server).toBe('el');
    expect(form!.fields.map((f) => [f.name, f.kind, f.default])).toEqual([
      ['name', 'text', 'John Doe'],
      ['age', 'number', 30],
      ['score', 'number', 95.5],
      ['status', 'choice', 'active'],
      ['verified', 'boolean', true],
    ]);
  });

  it('decline and cancel from the operator reach the server as such', async () => {
    expect((await seen(scripted(() => ({ action: 'decline' })))).action).toBe('decline');
    expect((await seen(scripted(() => ({ action: 'cancel' })))).action).toBe('cancel');
  });

  it("an answer that does not fit the form is not sent as the operator's", async () => {
    const r = await seen(scripted(() => ({ action: 'accept', values: { age: 'old' } })));
    expect(r).toMatchObject({
      action: 'decline',
      _meta: { 'core-agent/reason': expect.stringMatching(/"age" is not a number/) as unknown },
    });
  });

  it('control characters in the message reach the operator escaped, not interpreted', async () => {
    const asker = scripted(() => ({ action: 'decline' }));
    await seen(asker, { message: 'hi\u001b[2J\rthere\nline two\u202e' });
    expect(asker.forms[0]!.message).toBe('hi\\u{1b}[2J\\u{d}there\nline two\\u{202e}');
  });

  it.each(CASES)('a form core-agent will not show: $name', async (c) => {
    const asker = scripted(() => ({ action: 'accept', values: {} }));
    const r = await seen(asker, c.args);
    expect(r.action).toBe('decline');
    expect(r._meta?.['core-agent/reason']).toMatch(c.reason);
    expect(r._meta!['core-agent/reason']!.length).toBeLessThan(400);
    expect(asker.forms).toEqual([]);
  });
});

describe('the form on a line terminal (StdinAsker)', () => {
  const form: ElicitForm = {
    server: 'el',
    message: 'Who are you?',
    fields: [
      { kind: 'text', name: 'name', label: 'name', required: true },
      { kind: 'number', name: 'age', label: 'age', required: false, integer: true, default: 30, minimum: 0 },
      {
        kind: 'choice',
        name: 'status',
        label: 'status',
        required: false,
        options: [
          { value: 'a', label: 'A' },
          { value: 'b', label: 'B' },
        ],
      },
      { kind: 'boolean', name: 'ok', label: 'ok', required: false, default: true },
      {
        kind: 'multi',
        name: 'tags',
        label: 'tags',
        required: false,
        options: [
          { value: 'x', label: 'x' },
          { value: 'y', label: 'y' },
        ],
      },
    ],
  };
  const lines = (input: string[]) => {
    const prompts: string[] = [];
    return { prompts, read: async (p: string) => (prompts.push(p), input.shift() ?? null) };
  };

  it('empty takes the default, bad values are asked again, a required field waits for a value', async () => {
    const io = lines(['y', '', 'Ada', '-3', '2.5', '', '2', 'maybe', 'no', '1,y']);
    expect(await formOnLines(form, io.read)).toEqual({
      action: 'accept',
      values: { name: 'Ada', age: 30, status: 'b', ok: false, tags: ['x', 'y'] },
    });
    expect(io.prompts.some((p) => /required/.test(p))).toBe(true);
    expect(io.prompts.some((p) => /is below 0/.test(p))).toBe(true);
    expect(io.prompts.some((p) => /not a whole number/.test(p))).toBe(true);
  });

  it('n declines, c cancels, input ending mid-form answers nothing', async () => {
    expect(await formOnLines(form, lines(['n']).read)).toEqual({ action: 'decline' });
    expect(await formOnLines(form, lines(['c']).read)).toEqual({ action: 'cancel' });
    expect(await formOnLines(form, lines(['y', 'Ada']).read)).toEqual({ unavailable: expect.stringMatching(/input ended/) as unknown });
  });
});

describe('elicitation in a replayed run of the bundle (the composition root picks the asker)', () => {
  async function run(extra: string[], input: string) {
    const ws = await tempDir();
    await writeFile(path.join(ws, 'recipe.yaml'), recipe);
    const script = path.join(ws, 'script.jsonl');
    await writeFile(script, [JSON.stringify({ tool_calls: [{ name: 'el_ask', args: {} }] }), JSON.stringify({ text: 'done' })].join('\n'));
    const db = path.join(ws, 'sessions.db');
    const r = spawnSync(
      process.execPath,
      [bundle, 'run', '-m', `replay:${script}`, '-c', path.join(ws, 'recipe.yaml'), '--session-db', db, ...extra, 'go'],
      { cwd: ws, input, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: ws }, timeout: 60_000 },
    );
    const log = EventLog.open(db);
    const result = log.events(log.sessions()[0]!.id).find((e) => e.kind === 'tool_result')!.data as { shown: { text: string } };
    log.close();
    return { code: r.status, stderr: r.stderr, seen: JSON.parse(result.shown.text) as Record<string, unknown> };
  }

  it('headless (stdin not a terminal, --ask auto): declined with the reason, the run goes on', async () => {
    const { code, seen } = await run([], '');
    expect(code).toBe(0);
    expect(seen).toMatchObject({ action: 'decline', _meta: { 'core-agent/reason': expect.stringMatching(/unattended/) as unknown } });
  });

  it('--ask stdin: the form on stderr, the answers from stdin, defaults for the empty lines', async () => {
    const { code, stderr, seen } = await run(['--ask', 'stdin'], 'y\nAda\n\n\n2\nno\n');
    expect(code).toBe(0);
    expect(stderr).toContain('MCP server "el" asks:');
    expect(seen).toEqual({ action: 'accept', content: { name: 'Ada', age: 30, score: 95.5, status: 'inactive', verified: false } });
  });

  it('the REPL: the form through its one reader, defaults for the empty lines', async () => {
    const ws = await tempDir();
    await writeFile(path.join(ws, 'recipe.yaml'), recipe);
    const script = path.join(ws, 'script.jsonl');
    await writeFile(script, [JSON.stringify({ tool_calls: [{ name: 'el_ask', args: {} }] }), JSON.stringify({ text: 'done' })].join('\n'));
    const db = path.join(ws, 'sessions.db');
    // The turn's line, then the form (the recipe's MCP tool needs no approval).
    const r = spawnSync(
      process.execPath,
      [bundle, 'repl', '-m', `replay:${script}`, '-c', path.join(ws, 'recipe.yaml'), '--session-db', db],
      {
        cwd: ws,
        input: 'go\ny\nAda\n\n\n2\nno\n/exit\n',
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: ws },
        timeout: 60_000,
      },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('MCP server "el" asks:');
    const log = EventLog.open(db);
    const result = log.events(log.sessions()[0]!.id).find((e) => e.kind === 'tool_result')!.data as { shown: { text: string } };
    log.close();
    expect(JSON.parse(result.shown.text)).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 30, score: 95.5, status: 'inactive', verified: false },
    });
  });
});
