import { execFile } from 'node:child_process';
import * as z from 'zod/v4';
import { capErrorText } from '../framework/error-text.ts';
import { defineTool, ToolError } from '../framework/tool.ts';
import description from './sciontool-status.md';

/** Scion's sticky states (sciontool's `status` command): each leaves the agent's activity set until new work starts. */
export const SCION_STATUS_TYPES = ['ask_user', 'blocked', 'task_completed', 'limits_exceeded'] as const;

/** sciontool writes a file and makes one hub request of at most 5 s: 10 s is generous, and the model is never held longer. */
export const SCIONTOOL_TIMEOUT_MS = 10_000;

/** What of sciontool's own output goes into a result or an error. */
const OUTPUT_CHARS = 2000;

export const sciontoolStatusTool = defineTool({
  name: 'sciontool_status',
  description,
  // It reports to the orchestrator: sciontool rewrites agent-info.json and, in hosted mode,
  // POSTs to the Scion hub — a message to another system that destroys nothing there, like
  // alert. Not `lifecycle`: that kind is for the session's own in-process bookkeeping, exempt
  // from asking and from plan-first, and this one leaves the process.
  kind: 'send',
  // It reports the agent's own state to the Scion hub: a child would report its parent's (done, waiting) wrongly.
  excludedIn: { subagent: true },
  needs: ['sciontool'],
  uses: ['env'],
  narrowHint: '',
  args: z.strictObject({
    // An enum: a wrong value is refused before anything runs, naming the four (arg-errors.ts).
    status_type: z.enum(SCION_STATUS_TYPES).describe(`One of ${SCION_STATUS_TYPES.join(', ')}: see the description for when.`),
    message: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .describe('One line for the operator: the question, what blocks you, what you did, which limit.'),
  }),
  async gateSubjects(args) {
    return { subject: args.status_type, verbs: [] };
  },
  async run(args, ctx) {
    // argv, never a shell: a distroless image has none, and the message is the model's text.
    // A message that starts with "-" would be read as a flag; "--" ends sciontool's flags.
    const argv = ['status', args.status_type, ...(args.message.startsWith('-') ? ['--'] : []), args.message];
    const r = await runSciontool(ctx.services.sciontool!, argv, ctx.services.env, ctx.signal);
    if (r.failure !== undefined) {
      throw new ToolError(
        `sciontool status ${args.status_type} failed (${r.failure}); the orchestrator may not have the status. ${r.output ? `Its output: ${capErrorText(r.output, OUTPUT_CHARS)}. ` : ''}Carry on; say it in your answer if it matters.`,
        'tool_error',
      );
    }
    const outcome = readOutcome(r.output);
    if (outcome.problems.length > 0) throw new ToolError(notDelivered(args.status_type, outcome), 'tool_error');
    const rest = capErrorText(outcome.rest, OUTPUT_CHARS);
    return { status_type: args.status_type, message: args.message, reported: true, ...(rest ? { output: rest } : {}) };
  },
});

/**
 * What sciontool said on stderr. It exits 0 whether or not the hub got the
 * status (cmd/sciontool/commands/status.go logs the failure and goes on), so its
 * exit status alone would call an undelivered status reported: its log lines
 * say. `[sciontool] ERROR: …` is a step that failed (pkg/sciontool/log);
 * `Error: …` is sciontool refusing the command itself (an older one that lacks
 * the status type). INFO lines are its own narration, of no use to the model.
 */
export function readOutcome(output: string): { problems: string[]; localFailed: boolean; refused: boolean; rest: string } {
  const problems: string[] = [];
  const rest: string[] = [];
  let refused = false;
  for (const line of output.split('\n')) {
    const logged = /^\[sciontool\] (ERROR|WARN|WARNING|INFO|DEBUG):\s*(.*)$/.exec(line.trim());
    if (logged) {
      if (logged[1] === 'ERROR') problems.push(logged[2]!);
      continue;
    }
    const plain = /^Error: (.*)$/.exec(line.trim());
    if (plain) {
      refused = true;
      problems.push(plain[1]!);
    } else if (line.trim()) rest.push(line);
  }
  return { problems, localFailed: problems.some((p) => /^Failed to update status/i.test(p)), refused, rest: rest.join('\n').trim() };
}

function notDelivered(statusType: string, o: ReturnType<typeof readOutcome>): string {
  const said = capErrorText(o.problems.join('; '), OUTPUT_CHARS);
  const where = o.refused
    ? 'sciontool did not take it (an older sciontool without this status type?)'
    : o.localFailed
      ? "not even the container's agent-info.json has it"
      : 'it is recorded in the container (agent-info.json) but the Scion hub did not get it';
  return `sciontool status ${statusType} was not delivered: ${where}. sciontool said: ${said}. Do not repeat the call; carry on, and say in your answer that the orchestrator may not show this status.`;
}

/** Runs sciontool with a deadline; a failure is described, never thrown (the tool decides what the model sees). */
function runSciontool(
  bin: string,
  argv: string[],
  env: Readonly<Record<string, string | undefined>>,
  signal: AbortSignal,
): Promise<{ failure?: string; output: string }> {
  return new Promise((resolve) => {
    execFile(
      bin,
      argv,
      { env: env as NodeJS.ProcessEnv, timeout: SCIONTOOL_TIMEOUT_MS, killSignal: 'SIGKILL', signal, maxBuffer: 256 * 1024 },
      (err, stdout, stderr) => {
        // Whole (at most maxBuffer): an error line in the middle must be read before anything is cut.
        const output = `${stderr}${stdout}`.trim();
        if (!err) return resolve({ output });
        const e = err as NodeJS.ErrnoException & { killed?: boolean; code?: number | string };
        if (e.killed && !signal.aborted) return resolve({ failure: `no answer within ${SCIONTOOL_TIMEOUT_MS / 1000} s`, output });
        if (typeof e.code === 'number') return resolve({ failure: `exit status ${e.code}`, output });
        resolve({ failure: e.code === 'ENOENT' ? `${bin} is gone` : (e.message.split('\n')[0] ?? 'it could not start'), output });
      },
    );
  });
}
