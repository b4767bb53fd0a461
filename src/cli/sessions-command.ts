import { EventLog, type SessionEvent } from '../store/event-log.ts';
import { parse } from './common-options.ts';
import { resolveSettings } from '../runtime/settings.ts';
import { sessionDbPath } from '../runtime/store-step.ts';
import { EXIT, UsageError, type Io } from './usage.ts';

export const SESSIONS_HELP = `Usage: core-agent sessions <command> [--session-db PATH]

Commands:
  list [--json]        Sessions in the event log, newest first
  show ID [--json]     Every event of one session: prompts, model responses,
                       tool calls with the result the caller saw, usage.
                       A call not made by the model is tagged: (tools call),
                       (mcp serve), or (poll of CALL), indented, for the calls
                       a tool made (wait_and_verify's polls); a failure says
                       its kind (error [not_found], error [denied], …)

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
      const polls = pollCounts(events);
      for (const e of events) io.out(`${describe(e, polls)}\n`);
      return EXIT.ok;
    }
    throw new UsageError(`unknown command "sessions ${sub}"`, 'sessions');
  } finally {
    log.close();
  }
}

/** How many polls each call made, by its call id (the polls are recorded before the call that made them ends). */
function pollCounts(events: readonly SessionEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of events) {
    if (e.kind !== 'tool_result' || e.data.source !== 'poll' || typeof e.data.parent_call_id !== 'string') continue;
    counts.set(e.data.parent_call_id, (counts.get(e.data.parent_call_id) ?? 0) + 1);
  }
  return counts;
}

/** Who made a call, when not the model (a log from before calls carried a source holds only the model's). */
function sourceTag(d: Record<string, unknown>): string {
  switch (d.source) {
    case 'tools_call':
      return ' (tools call)';
    case 'mcp_serve':
      return ' (mcp serve)';
    case 'poll':
      return ` (poll of ${String(d.parent_call_id ?? '?')})`;
    default:
      return '';
  }
}

function describeCall(head: string, d: Record<string, unknown>, polls: ReadonlyMap<string, number>): string {
  const status = d.ok ? 'ok' : typeof d.failure === 'string' ? `error [${d.failure}]` : 'error';
  const made = polls.get(String(d.call_id));
  const parent = made === undefined ? '' : ` [call ${String(d.call_id)}, ${made} poll${made === 1 ? '' : 's'}]`;
  const line = `${head}${sourceTag(d)}: ${String(d.name)} ${status} (${String(d.ms)} ms)${parent} ${JSON.stringify(d.shown).slice(0, 300)}`;
  // A poll is indented: it ends, and is recorded, before the call that made it (shown below it with its count).
  return d.source === 'poll' ? `  ${line}` : line;
}

function describe(e: SessionEvent, polls: ReadonlyMap<string, number>): string {
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
      return describeCall(head, d, polls);
    case 'turn_end':
      return `${head}: ${String(d.status)} after ${String(d.steps)} step(s)`;
    case 'request':
      return `${head}: step ${String(d.step)}, ${String(d.messages)} messages, tools ${String(d.tool_choice)}`;
    default:
      return `${head}: ${JSON.stringify(d).slice(0, 300)}`;
  }
}
