// The session the Scion tests replay through the built CLI: the REPL, as Scion's harness
// starts it, given two tasks and a /compact between them on its stdin (what `scion message`
// types), then the end of input. Shared by the stand-in's tests (hooks-session.test.ts) and
// the real sciontool's (real-sciontool.test.ts), so both check one sequence.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GOOD_RECORD } from '../agent/compaction.cases.ts';
import { bundle } from '../helpers/cli.ts';

/** What the model does: task 1 reads a file and reports completion, the compaction writes its record, task 2 answers. */
export const TWO_TASKS_SCRIPT = [
  { tool_calls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
  { tool_calls: [{ name: 'sciontool_status', args: { status_type: 'task_completed', message: 'Read a.txt' } }] },
  { text: 'a.txt says hello.' },
  { text: GOOD_RECORD },
  { text: 'It still says hello.' },
];

export const TASK_1 = 'read a.txt';
export const TASK_2 = 'and now?';

/**
 * Every event the session fires, in order, as `event[:tool]` in core-agent's
 * names, with sciontool's status call where it happens.
 */
export const TWO_TASKS_EVENTS = [
  'session-start',
  'prompt-submit',
  'agent-start',
  'model-start',
  'model-end',
  'tool-start:read_file',
  'tool-end:read_file',
  'model-start',
  'model-end',
  'tool-start:sciontool_status',
  'status task_completed Read a.txt',
  'tool-end:sciontool_status',
  'model-start',
  'model-end',
  'response-complete',
  'agent-end',
  // /compact: the compaction's own model call.
  'model-start',
  'model-end',
  'prompt-submit',
  'agent-start',
  'model-start',
  'model-end',
  'response-complete',
  'agent-end',
  'session-end',
];

/** Writes a.txt and the replay script into the workspace; the model spec to pass with -m. */
export async function twoTasksWorkspace(ws: string): Promise<string> {
  await writeFile(path.join(ws, 'a.txt'), 'hello\n');
  const script = path.join(ws, 'two-tasks.jsonl');
  await writeFile(script, TWO_TASKS_SCRIPT.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return `replay:${script}`;
}

/**
 * `core-agent repl ARGS TASK_1` in `cwd` — the first task on the command line, as
 * Scion's harness appends it — then /compact and TASK_2 on stdin, then its end.
 * HOME is `cwd` unless env says otherwise.
 */
export function replTwoTasks(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bundle, 'repl', ...args, TASK_1], { cwd, env: { PATH: process.env.PATH, HOME: cwd, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(`/compact\n${TASK_2}\n`);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
