import * as z from 'zod/v4';
import { argvSafe, LIMITS } from '../framework/limits.ts';
import { fillDescription } from '../framework/describe.ts';
import { defineTool, ToolError, type DescribeEnv, type JsonObject, type ServicesFor, type ToolContext } from '../framework/tool.ts';
import template from './bash.md';
import { commandShape } from './bash-parser.ts';
import { deniedCommand } from './denylist.ts';
import type { Escapee } from './escapees.ts';
import { shellEnv } from '../../util/command-env.ts';
import { keepTail } from '../shared/keep-tail.ts';
import { runShell } from './run-shell.ts';
import { TERMINAL_DEFAULTS, TERMINALS } from './terminals.ts';
import { SEARCH_VERBS, searchGateMessage, searchShaped, searchTargets, type SearchGateMode } from './search-gate.ts';

export const BASH_DEFAULTS = { default_timeout_seconds: 120, max_timeout_seconds: 600 } as const;

/** bash.md, with the search gate's sentence for this run's mode and the search tools registered. */
function description({ services, registered }: DescribeEnv): string {
  return describe(
    services.searchGate ?? 'enforce',
    registered.map((t) => t.name),
  );
}

function describe(mode: SearchGateMode, registered: readonly string[]): string {
  const has = (n: string) => registered.includes(n);
  const targets = searchTargets(has);
  let searchGate: string;
  if (mode === 'enforce' && targets.size > 0) {
    const which = (t: 'grep' | 'glob') =>
      Object.entries(SEARCH_VERBS)
        .filter(([, tool]) => tool === t)
        .map(([v]) => `\`${v}\``)
        .join(', ');
    const rules = [...targets].map((t) => `${which(t)} → use the \`{{@${t}}}\` tool`).join('; ');
    const fine = targets.has('grep')
      ? 'piping into them (`make test | grep FAIL`) is fine'
      : 'a find that acts on files (-exec, -delete) is fine';
    searchGate = `Search-shaped commands are REFUSED (${rules}); ${fine}.`;
  } else {
    searchGate =
      '{{#grep}}Search file contents with the `{{@grep}}` tool rather than grep or rg here. {{/grep}}{{#glob}}Find files by name with `{{@glob}}` rather than find here.{{/glob}}';
  }
  return fillDescription(template, { default_timeout: BASH_DEFAULTS.default_timeout_seconds, search_gate: searchGate });
}

const settings = z.strictObject({
  default_timeout_seconds: z
    .number()
    .positive()
    .max(86_400)
    .default(BASH_DEFAULTS.default_timeout_seconds)
    .describe('Timeout when the call gives none (default 120).'),
  max_timeout_seconds: z
    .number()
    .positive()
    .max(86_400)
    .default(BASH_DEFAULTS.max_timeout_seconds)
    .describe('The longest timeout a call may ask for (default 600); above it is an error.'),
  pass_env: z
    .array(z.string().min(1))
    .default([])
    .describe('Credential-looking environment variables (…_TOKEN, …_API_KEY, …) to pass to commands anyway; by default they are withheld.'),
  max_terminals: z
    .int()
    .min(1)
    .max(64)
    .default(TERMINAL_DEFAULTS.max_terminals)
    .describe('Background terminals (wait: false) running at once (default 8).'),
  terminal_retain_bytes: z
    .int()
    .min(4096)
    .max(64 * 1024 * 1024)
    .default(TERMINAL_DEFAULTS.retain_bytes)
    .describe('Output kept per background terminal, newest first (default 1048576).'),
});
type BashSettings = z.output<typeof settings>;

export const bashTool = defineTool({
  name: 'bash',
  dialect: ['core-agent', 'cagent'],
  description,
  kind: 'execute',
  needs: ['shell'],
  uses: ['env', 'groupRecords', 'searchGate'],
  settings,
  caps: { maxBytes: 32 * 1024, maxLines: 1000 },
  narrowHint: 'Narrow the command, or filter its output (… | tail -n 50, … | grep -v noise).',
  aliases: { timeout_seconds: 'timeout' },
  args: z.strictObject({
    command: z
      .string()
      .min(1)
      .max(LIMITS.command)
      .superRefine(argvSafe('/bin/sh', 'write long content to a file first and run that'))
      .describe('The command line, run with /bin/sh -c in the current directory (the workspace root unless changed).'),
    timeout: z.number().positive().max(86_400).optional().describe('Seconds before the command is stopped.'),
    wait: z
      .boolean()
      .optional()
      .describe('false: start it in the background and return a terminal_id at once (default true: wait for it to finish).'),
  }),
  async gateSubjects(args) {
    const shape = await commandShape(args.command);
    return { subject: args.command.trim(), verbs: shape.verbs, wildcardRefusal: shape.wildcardRefusal };
  },
  // Before the permission mode, so no mode (yolo included) waves these through.
  async precheck(args, env) {
    const denied = await deniedCommand(args.command);
    if (denied !== null) return `bash refused: ${denied} (the built-in denylist applies in every mode)`;
    // The search gate steers the model to grep and glob; a command the operator typed is theirs.
    if (env.services.searchGate !== 'enforce' || env.typedByOperator === true) return null;
    const hit = await searchShaped(args.command, searchTargets(env.hasTool));
    return hit ? searchGateMessage(hit, env.toolName) : null;
  },
  async run(args, ctx): Promise<JsonObject> {
    const max = ctx.settings.max_timeout_seconds;
    if (args.wait === false) return startTerminal(args.command, args.timeout, max, ctx);
    const timeout = args.timeout ?? ctx.settings.default_timeout_seconds;
    if (timeout > max)
      throw new ToolError(`timeout ${timeout} s is above the operator's maximum of ${max} s (tools.bash.max_timeout_seconds)`);
    const keepBytes = Math.max(1024, ctx.caps.maxBytes - 2048);
    const r = await runShell(args.command, {
      cwd: ctx.session.cwd ?? ctx.workspace,
      env: shellEnv(ctx.services.env, ctx.settings.pass_env),
      timeoutMs: timeout * 1000,
      keepBytes,
      signal: ctx.signal,
      records: ctx.services.groupRecords,
      sessionId: ctx.session.sessionId,
    });
    // The end, fitted to the caps here: they count JSON bytes (an escape sequence's ESC takes
    // six) and would keep the head. One line of the caps is left for the notes.
    const fitted = keepTail(r.output, {
      bytes: keepBytes,
      jsonBytes: keepBytes,
      lines: Math.max(1, ctx.caps.maxLines - 1),
    });
    const output = fitted.log;
    const cut = r.totalBytes > Buffer.byteLength(output);
    const result: JsonObject = { exit_code: r.exitCode, timed_out: r.timedOut, output };
    if (r.signal) result.signal = r.signal;
    const notes: string[] = [];
    if (r.timedOut) notes.push(`Stopped after ${timeout} s (the whole process group); the output up to then is shown.`);
    if (r.escaped.length > 0) {
      result.escaped_processes = r.escaped.map((e) => ({ ...e }));
      notes.push(escapedNote(r.escaped, ctx.hasTool('terminal_output')));
    } else if (r.untraceable) {
      notes.push(
        'A process the command started still held its output open after it ended (it left the process group); the output was closed from this side, but without /proc it could not be found and may still be running.',
      );
    }
    if (cut) {
      result.truncated = true;
      notes.push(
        `Only the last ${Buffer.byteLength(output)} of ${r.totalBytes} bytes are shown; filter the output (… | tail, … | grep) or narrow the command.`,
      );
    }
    if (notes.length > 0) result.note = notes.join(' ');
    if (ctx.services.searchGate === 'warn') {
      const hit = await searchShaped(args.command, searchTargets(ctx.hasTool));
      if (hit) result.notice = searchGateMessage(hit, ctx.toolName).replace(/^bash refused: /, 'bash search gate (warn): ');
    }
    return result;
  },
});

/** What the model reads when a command left processes behind outside its group. */
export function escapedNote(escaped: readonly Escapee[], suggestTerminal: boolean): string {
  const list = escaped
    .slice(0, 10)
    .map((e) => `${e.pid} ${e.command} (${e.signal})`)
    .join(', ');
  const more = escaped.length > 10 ? ` and ${escaped.length - 10} more` : '';
  const n = escaped.length;
  return `Stopped ${n} process${n === 1 ? '' : 'es'} that had left the command's process group (setsid, a daemon): ${list}${more}. Nothing a command starts outlives it${suggestTerminal ? '; for a server or a watch, use wait: false' : ''}.`;
}

/** bash with wait: false: a supervised terminal (terminals.ts). */
function startTerminal(
  command: string,
  timeout: number | undefined,
  max: number,
  ctx: ToolContext<BashSettings, ServicesFor<'shell', 'env' | 'groupRecords'>>,
): JsonObject {
  if (!ctx.hasTool('terminal_output')) {
    throw new ToolError(
      'wait: false needs terminal_output to read the output, and it is not registered here; run the command with wait: true',
    );
  }
  if (timeout !== undefined && timeout > max) {
    throw new ToolError(`timeout ${timeout} s is above the operator's maximum of ${max} s (tools.bash.max_timeout_seconds)`);
  }
  let t;
  try {
    t = ctx.session.slot(TERMINALS).start(command, {
      cwd: ctx.session.cwd ?? ctx.workspace,
      env: shellEnv(ctx.services.env, ctx.settings.pass_env),
      retainBytes: ctx.settings.terminal_retain_bytes,
      maxTerminals: ctx.settings.max_terminals,
      records: ctx.services.groupRecords,
      sessionId: ctx.session.sessionId,
      timeoutMs: timeout === undefined ? undefined : timeout * 1000,
    });
  } catch (err) {
    throw new ToolError(`bash: ${(err as Error).message}`);
  }
  return {
    terminal_id: t.id,
    running: true,
    note: `Started in the background${timeout === undefined ? '' : `; it is stopped after ${timeout} s`}. Read its output with ${ctx.toolName('terminal_output') ?? 'terminal_output'} (cursor 0 first, then next_cursor).`,
  };
}
