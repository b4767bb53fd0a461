import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { setup } from '../helpers/workspace.ts';
import { running } from '../helpers/processes.ts';

const yolo = { flags: { mode: 'yolo' as const } };

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Read a terminal until `pred` holds for the accumulated output (or the command ends). */
async function readUntil(rt: Awaited<ReturnType<typeof setup>>, id: string, pred: (out: string) => boolean, cursor = 0) {
  let out = '';
  for (let i = 0; i < 200; i++) {
    const r = await rt.ok('terminal_output', { terminal_id: id, cursor });
    out += r.output as string;
    cursor = r.next_cursor as number;
    if (pred(out) || !r.running) return { out, cursor, last: r };
    await settle(25);
  }
  throw new Error(`terminal ${id} never produced the expected output; got: ${out}`);
}

describe('supervised terminals', () => {
  it('starts a command in the background and reads only new output by cursor', async () => {
    const rt = await setup(yolo);
    const started = await rt.ok('bash', { command: 'echo one; read go; echo two; exit 4', wait: false });
    expect(started).toMatchObject({ terminal_id: 't1', running: true });
    const first = await readUntil(rt, 't1', (o) => o.includes('one'));
    expect(first.out).toBe('one\n');
    expect(first.last.running).toBe(true);
    // Nothing new yet: the same cursor returns nothing.
    expect(await rt.ok('terminal_output', { terminal_id: 't1', cursor: first.cursor })).toMatchObject({ output: '', running: true });
    expect(await rt.ok('terminal_write', { terminal_id: 't1', input: 'x\n' })).toEqual({
      terminal_id: 't1',
      written_bytes: 2,
      stdin_closed: false,
    });
    await rt.ok('wait_join', { ids: ['t1'], timeout: 10 });
    const rest = await rt.ok('terminal_output', { terminal_id: 't1', cursor: first.cursor });
    expect(rest).toMatchObject({ output: 'two\n', running: false, exit_code: 4 });
    // From the start again, everything retained.
    expect((await rt.ok('terminal_output', { terminal_id: 't1' })).output).toBe('one\ntwo\n');
    await rt.session.close();
  });

  it('feeds an interactive program through terminal_write, including end-of-file', async () => {
    const rt = await setup(yolo);
    const { terminal_id } = await rt.ok('bash', { command: 'while read l; do echo "got:$l"; done; echo eof', wait: false });
    await rt.ok('terminal_write', { terminal_id, input: 'alpha\nbeta\n' });
    await rt.ok('terminal_write', { terminal_id, input: '', close_stdin: true });
    const joined = await rt.ok('wait_join', { ids: [terminal_id], timeout: 10 });
    expect(joined).toMatchObject({ all_done: true, results: [{ terminal_id, exit_code: 0, output_tail: 'got:alpha\ngot:beta\neof\n' }] });
    expect(await rt.refused('terminal_write', { terminal_id, input: 'late\n' })).toMatch(/cannot write to t1: the command has exited/);
  });

  it('kills gracefully (TERM, the command may clean up) or by force, with the whole process group', async () => {
    const rt = await setup(yolo);
    const marker = `sleep 311.${process.pid}`;
    const { terminal_id: polite } = await rt.ok('bash', {
      command: `trap 'echo cleaning up; exit 0' TERM; ${marker} & while :; do sleep 0.05; done`,
      wait: false,
    });
    await settle(200);
    expect(running(marker).length).toBeGreaterThan(0);
    const r = await rt.ok('terminal_kill', { terminal_id: polite });
    expect(r).toMatchObject({ terminal_id: polite, was_running: true, running: false, exit_code: 0 });
    expect(r.output_tail).toMatch(/cleaning up\n$/);
    await settle(200);
    expect(running(marker)).toEqual([]);

    const { terminal_id: stubborn } = await rt.ok('bash', { command: `trap '' TERM; ${marker}`, wait: false });
    await settle(200);
    expect(await rt.ok('terminal_kill', { terminal_id: stubborn, force: true })).toMatchObject({ running: false, signal: 'SIGKILL' });
    await settle(200);
    expect(running(marker)).toEqual([]);
  });

  it('waits for several terminals concurrently and reports them in the order given', async () => {
    const rt = await setup(yolo);
    await rt.ok('bash', { command: 'sleep 0.4; echo slow', wait: false });
    await rt.ok('bash', { command: 'echo fast; exit 3', wait: false });
    const r = await rt.ok('wait_join', { ids: ['t1', 't2'], timeout: 20 });
    expect(r).toEqual({
      all_done: true,
      results: [
        {
          id: 't1',
          type: 'terminal',
          terminal_id: 't1',
          done: true,
          running: false,
          exit_code: 0,
          signal: null,
          output_tail: 'slow\n',
          next_cursor: 5,
        },
        {
          id: 't2',
          type: 'terminal',
          terminal_id: 't2',
          done: true,
          running: false,
          exit_code: 3,
          signal: null,
          output_tail: 'fast\n',
          next_cursor: 5,
        },
      ],
    });
    const marker = `sleep 312.${process.pid}`;
    await rt.ok('bash', { command: marker, wait: false });
    const partial = await rt.ok('wait_join', { ids: ['t3', 't2'], timeout: 0.2 });
    expect(partial).toMatchObject({
      all_done: false,
      waited_seconds: 0.2,
      results: [
        { terminal_id: 't3', done: false },
        { terminal_id: 't2', done: true },
      ],
    });
    // An id the session did not start is an envelope saying so, not a failed call.
    expect(await rt.ok('wait_join', { ids: ['t2', 't9'] })).toMatchObject({
      results: [
        { id: 't2', type: 'terminal', done: true },
        { id: 't9', type: 'unknown', done: false, error: 'no terminal or agent "t9" in this session; the terminals are t1, t2, t3' },
      ],
    });
    expect(await rt.refused('wait_join', { ids: [] })).toMatch(/ids/);
    await rt.session.close();
    expect(running(marker)).toEqual([]);
  });

  it('keeps a bounded amount of output and says how much was dropped', async () => {
    const rt = await setup({ ...yolo, recipe: 'tools:\n  bash: { terminal_retain_bytes: 4096 }\n' });
    await rt.ok('bash', { command: 'i=0; while [ $i -lt 2000 ]; do echo "line $i"; i=$((i+1)); done', wait: false });
    await rt.ok('wait_join', { ids: ['t1'], timeout: 10 });
    const r = await rt.ok('terminal_output', { terminal_id: 't1', cursor: 0 });
    expect(Buffer.byteLength(r.output as string)).toBeLessThanOrEqual(4096);
    expect(r.dropped_bytes).toBeGreaterThan(10_000);
    expect(r.output).toMatch(/line 1999\n$/);
    expect(r.note).toMatch(/no longer retained/);
  });

  it('applies the denylist, the search gate and the terminal limit to background commands too', async () => {
    const rt = await setup({ ...yolo, recipe: 'tools:\n  bash: { max_terminals: 1 }\n' });
    expect(await rt.refused('bash', { command: 'rm -rf /', wait: false })).toMatch(/^bash refused: /);
    expect(await rt.refused('bash', { command: 'grep -rn TODO .', wait: false })).toMatch(/search-shaped/);
    const marker = `sleep 313.${process.pid}`;
    await rt.ok('bash', { command: marker, wait: false });
    expect(await rt.refused('bash', { command: 'echo second', wait: false })).toMatch(
      /1 terminals are already running \(t1\).*terminal_kill/,
    );
    expect(await rt.refused('terminal_output', { terminal_id: 'nope' })).toMatch(
      /no terminal "nope"; the terminals are t1|no terminal "nope" in this session; the terminals are t1/,
    );
    await rt.session.close();
    expect(running(marker)).toEqual([]);
  });

  it('dies with the session: a `tools call` leaves no background process behind', async () => {
    const dir = (await setup()).dir;
    const marker = `sleep 314.${process.pid}`;
    const r = await runCli(['tools', 'call', 'bash', JSON.stringify({ command: marker, wait: false }), '--yolo'], dir);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ terminal_id: 't1', running: true });
    await settle(200);
    expect(running(marker)).toEqual([]);
  });

  it('goes with bash: no terminal tools without it, and bash only mentions the ones registered', async () => {
    // Every conditional tool configured, so every description is in the catalog.
    const everything =
      'permissions:\n  plan_mode: required\n  url_scope: { allow: ["*"] }\nweb_search: { provider: searxng, url: "http://127.0.0.2/" }\nalerts:\n  targets:\n    oncall: { url_env: HOOK }\n';
    const without = await setup({ flags: { disableTools: ['bash'] }, recipe: everything, env: { HOOK: 'http://127.0.0.2/' } });
    expect(without.catalog.names()).toEqual(expect.arrayContaining(['fetch_url', 'web_search', 'alert', 'record_plan']));
    for (const t of without.catalog.list()) expect(t.description, t.name).not.toMatch(/\bbash\b|shell/i);
    for (const n of ['terminal_output', 'terminal_write', 'terminal_kill', 'wait_join']) expect(without.catalog.names()).not.toContain(n);
    expect(without.catalog.skipped.map((s) => s.name)).toContain('terminal_output');
    const noWait = await setup({ flags: { disableTools: ['wait_join', 'terminal_write'] } });
    const bash = noWait.catalog.get('bash')!.description;
    expect(bash).toContain('terminal_output');
    expect(bash).not.toMatch(/wait_join|terminal_write/);
    const noOutput = await setup({ ...yolo, flags: { mode: 'yolo', disableTools: ['terminal_output'] } });
    expect(noOutput.catalog.get('bash')!.description).not.toMatch(/wait: false/);
    expect(await noOutput.refused('bash', { command: 'echo hi', wait: false })).toMatch(/needs terminal_output/);
  });

  it('finishes when the shell exits even if a detached grandchild holds the pipes, stops it, and kill does not hang', async () => {
    const rt = await setup(yolo);
    const marker = `sleep 315.${process.pid}`;
    await rt.ok('bash', { command: `setsid ${marker} & echo started`, wait: false });
    const joined = await rt.ok('wait_join', { ids: ['t1'], timeout: 10 });
    expect(joined).toMatchObject({ all_done: true, results: [{ exit_code: 0, output_tail: 'started\n' }] });
    // Gone either way: killed with the group if setsid had not run yet, found by its tag if it had
    // (escaped-children.test.ts covers each way out of the group).
    expect(running(marker)).toEqual([]);
    expect(await rt.ok('terminal_kill', { terminal_id: 't1', force: true })).toMatchObject({ was_running: false, running: false });
  });

  it('keeps the cursor exact when a read is cut by lines, whatever the bytes', async () => {
    const rt = await setup({ ...yolo, recipe: 'tool_output:\n  per_tool:\n    terminal_output: { max_lines: 70 }\n' });
    await rt.ok('bash', { command: "i=0; while [ $i -lt 200 ]; do printf '\\377\\n'; i=$((i+1)); done", wait: false });
    await rt.ok('wait_join', { ids: ['t1'] });
    let cursor = 0;
    let lines = 0;
    for (let i = 0; i < 10 && cursor < 400; i++) {
      const r = await rt.ok('terminal_output', { terminal_id: 't1', cursor });
      lines += (r.output as string).split('\n').length - 1;
      expect(r.next_cursor).toBe(cursor + 2 * ((r.output as string).split('\n').length - 1));
      cursor = r.next_cursor as number;
    }
    expect(cursor).toBe(400);
    expect(lines).toBe(200);
  });

  it('does not block on a program that is not reading its input', async () => {
    const rt = await setup(yolo);
    await rt.ok('bash', { command: 'sleep 30', wait: false });
    // 64 KiB at a time: the pipe takes the first, later ones queue (each call returns), then it refuses.
    const chunk = 'x'.repeat(64 * 1024);
    const outcomes: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await rt.dispatcher.call('terminal_write', { terminal_id: 't1', input: chunk });
      outcomes.push(!r.ok ? (/not reading its input/.test(r.error) ? 'refused' : r.error) : r.result.note ? 'queued' : 'delivered');
      if (!r.ok) break;
    }
    expect(outcomes[0]).toBe('delivered');
    expect(outcomes).toContain('queued');
    expect(outcomes.at(-1)).toBe('refused');
    expect(await rt.refused('wait_join', { ids: ['t1'], timeout: 600 })).toMatch(/timeout/);
    await rt.session.close();
  });

  it('kills its terminals when core-agent itself is stopped by a signal', async () => {
    const marker = `sleep 316.${process.pid}`;
    const script = `import { TerminalManager } from ${JSON.stringify(fileURLToPath(new URL('../../src/tools/shell/terminals.ts', import.meta.url)))};
const m = new TerminalManager();
m.start(${JSON.stringify(marker)}, { cwd: '/', env: process.env, retainBytes: 4096, maxTerminals: 4 });
console.log('ready');
setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--experimental-transform-types', '--no-warnings', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    await settle(200);
    expect(running(marker).length).toBeGreaterThan(0);
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_c, sig) => resolve(sig)));
    child.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM');
    await settle(200);
    expect(running(marker)).toEqual([]);
  });
});
