import { EventLog, type SessionEvent } from '../store/event-log.ts';
import { parse } from './common-options.ts';
import { resolveSettings } from '../runtime/settings.ts';
import { sessionDbPath } from '../runtime/store-step.ts';
import { EXIT, UsageError, type Io } from './usage.ts';

export const SESSIONS_HELP = `Usage: core-agent sessions <command> [--session-db PATH]

Commands:
  list [--json]        Sessions in the event log, newest first
  show ID [--json]     Every event of one session: prompts, model responses,
                       tool calls with the result the model saw, usage

--session-db PATH defaults to ~/.local/state/core-agent/sessions.db [env CORE_AGENT_SESSION_DB].`;

export async function sessionsCommand(argv: string[], io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.out(`${SESSIONS_HELP}\n`);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  const { values, positionals } = parse(
    rest,
    { 'session-db': { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    `sessions ${sub}`,
  );
  if (values.help) {
    io.out(`${SESSIONS_HELP}\n`);
    return EXIT.ok;
  }
  const log = EventLog.open(sessionDbPath(resolveSettings({ sessionDb: values['session-db'] }, io.env), io.env));
  try {
    if (sub === 'list') {
      const sessions = log.sessions();
      if (values.json) io.out(`${JSON.stringify(sessions, null, 2)}\n`);
      else if (sessions.length === 0) io.out(`no sessions in ${log.location}\n`);
      else {
        io.out('ID               CREATED               TURNS  EVENTS  MODEL / TITLE\n');
        for (const s of sessions) {
          io.out(
            `${s.id.padEnd(16)} ${s.createdAt.slice(0, 19).padEnd(21)} ${String(s.turns).padStart(5)}  ${String(s.events).padStart(6)}  ${s.model} — ${s.title}\n`,
          );
        }
      }
      return EXIT.ok;
    }
    if (sub === 'show') {
      const [id] = positionals;
      if (!id) throw new UsageError('sessions show needs an ID', 'sessions');
      const session = log.session(id);
      if (!session) throw new UsageError(`no session "${id}" in ${log.location}`, 'sessions');
      const events = log.events(id);
      if (values.json) {
        io.out(`${JSON.stringify({ session, events }, null, 2)}\n`);
        return EXIT.ok;
      }
      io.out(`session ${session.id}  model ${session.model}  workspace ${session.workspace}\n`);
      for (const e of events) io.out(`${describe(e)}\n`);
      return EXIT.ok;
    }
    throw new UsageError(`unknown command "sessions ${sub}"`, 'sessions');
  } finally {
    log.close();
  }
}

function describe(e: SessionEvent): string {
  const head = `#${e.seq} t${e.turn} ${e.at.slice(11, 19)} ${e.kind}`;
  const d = e.data;
  switch (e.kind) {
    case 'user':
      return `${head}: ${String(d.text)}`;
    case 'response': {
      const content = (d.content as Array<{ type: string; text?: string; toolName?: string; input?: string }>) ?? [];
      const parts = content.map((c) => (c.type === 'text' ? JSON.stringify(c.text) : `call ${c.toolName} ${c.input ?? ''}`));
      const usage = d.usage as { inputTokens: number; outputTokens: number };
      return `${head}: ${parts.join('; ') || '(empty)'}  [${usage.inputTokens} in / ${usage.outputTokens} out]`;
    }
    case 'tool_result':
      return `${head}: ${String(d.name)} ${d.ok ? 'ok' : 'error'} (${String(d.ms)} ms) ${JSON.stringify(d.shown).slice(0, 300)}`;
    case 'turn_end':
      return `${head}: ${String(d.status)} after ${String(d.steps)} step(s)`;
    case 'request':
      return `${head}: step ${String(d.step)}, ${String(d.messages)} messages, tools ${String(d.tool_choice)}`;
    default:
      return `${head}: ${JSON.stringify(d).slice(0, 300)}`;
  }
}
