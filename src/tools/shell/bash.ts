import * as z from 'zod/v4';
import { argvSafe, LIMITS } from '../limits.ts';
import { defineTool, ToolError, type AnyTool, type JsonObject, type ToolContext } from '../tool.ts';
import { commandShape } from './bash-parser.ts';
import { deniedCommand } from './denylist.ts';
import type { Escapee } from './escapees.ts';
import { runShell, shellEnv } from './run-shell.ts';
import { TERMINAL_DEFAULTS } from './terminals.ts';
import { searchGateMessage, searchShaped, SEARCH_VERBS, type SearchGateMode } from './search-gate.ts';

export const BASH_DEFAULTS = { default_timeout_seconds: 120, max_timeout_seconds: 600 } as const;

/** The native tools the search gate can point to, among those registered. */
export function searchTargets(has: (name: string) => boolean): Set<'grep' | 'glob'> {
  return new Set((['grep', 'glob'] as const).filter((t) => has(t)));
}

function describe(mode: SearchGateMode, registered: readonly AnyTool[]): string {
  const has = (n: string) => registered.some((t) => t.name === n);
  const targets = searchTargets(has);
  const parts = [
    'Run a shell command (/bin/sh -c) in the workspace and return its exit code and output (stdout and stderr as they arrived; when long, only the end is kept — that is where errors are).',
    "Use it for what the structured tools can't do: builds, tests, git, formatters, package managers.",
    `It runs non-interactively: stdin is closed and nothing can prompt; it is stopped at its \`timeout\` (seconds; default ${BASH_DEFAULTS.default_timeout_seconds}) and background jobs do not outlive it.`,
    '{{#terminal_output}}For a long-running command (a server, a watch, a slow build you want to check on) pass `wait: false`: it starts in the background and you get a `terminal_id` at once; read its output with `terminal_output`{{#terminal_write}}, answer prompts with `terminal_write`{{/terminal_write}}{{#terminal_kill}}, stop it with `terminal_kill`{{/terminal_kill}}{{#wait_join}}, wait for several with `wait_join`{{/wait_join}}. Background commands have no timeout unless you give one, and all of them stop when the session ends. {{/terminal_output}}',
    '{{#read_file}}Read files with `read_file`, not `cat`/`head`/`tail`. {{/read_file}}{{#edit_file}}Change files with `edit_file`, not `sed -i`. {{/edit_file}}{{#delete_file}}Delete files with `delete_file`, not `rm`. {{/delete_file}}',
  ];
  if (mode === 'enforce' && targets.size > 0) {
    const which = (t: 'grep' | 'glob') =>
      Object.entries(SEARCH_VERBS)
        .filter(([, tool]) => tool === t)
        .map(([v]) => `\`${v}\``)
        .join(', ');
    const rules = [...targets].map((t) => `${which(t)} → use the \`${t}\` tool`).join('; ');
    const fine = targets.has('grep')
      ? 'piping into them (`make test | grep FAIL`) is fine'
      : 'a find that acts on files (-exec, -delete) is fine';
    parts.push(`Search-shaped commands are REFUSED (${rules}); ${fine}.`);
  } else {
    parts.push(
      '{{#grep}}Search file contents with the `grep` tool rather than grep or rg here. {{/grep}}{{#glob}}Find files by name with `glob` rather than find here.{{/glob}}',
    );
  }
  return parts.join(' ');
}

export function bashTool(mode: SearchGateMode) {
  return defineTool({
    name: 'bash',
    description: (registered) => describe(mode, registered),
    readOnly: false,
    destructive: true,
    openWorld: true,
    narrowHint: 'Narrow the command, or filter its output (… | tail -n 50, … | grep -v noise).',
    aliases: { timeout_seconds: 'timeout' },
    args: z.strictObject({
      command: z
        .string()
        .min(1)
        .max(LIMITS.command)
        .superRefine(argvSafe('/bin/sh', 'write long content to a file first and run that'))
        .describe('The command line, run with /bin/sh -c in the workspace root.'),
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
      if (mode !== 'enforce') return null;
      const hit = await searchShaped(args.command, searchTargets(env.hasTool));
      return hit ? searchGateMessage(hit) : null;
    },
    async run(args, ctx): Promise<JsonObject> {
      const max = (ctx.settings.max_timeout_seconds as number | undefined) ?? BASH_DEFAULTS.max_timeout_seconds;
      if (args.wait === false) return startTerminal(args.command, args.timeout, max, ctx);
      const timeout = args.timeout ?? (ctx.settings.default_timeout_seconds as number | undefined) ?? BASH_DEFAULTS.default_timeout_seconds;
      if (timeout > max)
        throw new ToolError(`timeout ${timeout} s is above the operator's maximum of ${max} s (tools.bash.max_timeout_seconds)`);
      const keepBytes = Math.max(1024, ctx.caps.maxBytes - 2048);
      const r = await runShell(args.command, {
        cwd: ctx.workspace,
        env: shellEnv(process.env, (ctx.settings.pass_env as string[] | undefined) ?? []),
        timeoutMs: timeout * 1000,
        keepBytes,
        signal: ctx.signal,
        records: ctx.session.groupRecords,
        sessionId: ctx.session.sessionId,
      });
      let output = r.output;
      let cut = r.totalBytes > Buffer.byteLength(output);
      const lines = output.split('\n');
      if (lines.length > ctx.caps.maxLines) {
        output = lines.slice(-ctx.caps.maxLines).join('\n');
        cut = true;
      }
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
      if (mode === 'warn') {
        const hit = await searchShaped(args.command, searchTargets(ctx.hasTool));
        if (hit) result.notice = searchGateMessage(hit).replace(/^bash refused: /, 'bash search gate (warn): ');
      }
      return result;
    },
  });
}

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
function startTerminal(command: string, timeout: number | undefined, max: number, ctx: ToolContext): JsonObject {
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
    t = ctx.session.terminals.start(command, {
      cwd: ctx.workspace,
      env: shellEnv(process.env, (ctx.settings.pass_env as string[] | undefined) ?? []),
      retainBytes: (ctx.settings.terminal_retain_bytes as number | undefined) ?? TERMINAL_DEFAULTS.retain_bytes,
      maxTerminals: (ctx.settings.max_terminals as number | undefined) ?? TERMINAL_DEFAULTS.max_terminals,
      records: ctx.session.groupRecords,
      sessionId: ctx.session.sessionId,
      timeoutMs: timeout === undefined ? undefined : timeout * 1000,
    });
  } catch (err) {
    throw new ToolError(`bash: ${(err as Error).message}`);
  }
  return {
    terminal_id: t.id,
    running: true,
    note: `Started in the background${timeout === undefined ? '' : `; it is stopped after ${timeout} s`}. Read its output with terminal_output (cursor 0 first, then next_cursor).`,
  };
}
