import { EventLog, type SessionEvent, type SessionSummary } from '../store/event-log.ts';
import { resolveWorkspace } from '../runtime/recipe-step.ts';
import { localTime, parseAge } from './local-time.ts';
import { parse } from './common-options.ts';
import { SESSIONS, SESSIONS_OPTIONS, subcommand } from './command-table.ts';
import { commandHelp } from './help-text.ts';
import { resolveSettings } from '../runtime/settings.ts';
import { sessionDbPath } from '../runtime/store-step.ts';
import { EXIT, UsageError, type Io } from './usage.ts';

/** sessions's --help: its subcommands, from the tree (command-table.ts SESSIONS). */
export const sessionsHelp = (): string => commandHelp(SESSIONS);

export async function sessionsCommand(argv: string[], io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.out(`${sessionsHelp()}\n`);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  const leaf = subcommand(SESSIONS, sub);
  if (leaf === undefined) throw new UsageError(`unknown command "sessions ${sub.slice(0, 60)}"`, 'sessions');
  // The subcommands share one table: each reads the flags that concern it.
  const { values, positionals } = parse(rest, { name: leaf.name, options: SESSIONS_OPTIONS });
  if (values.help) {
    io.out(`${commandHelp(leaf)}\n`);
    return EXIT.ok;
  }
  const settings = resolveSettings({ sessionDb: values['session-db'], workspace: values.workspace }, io.env);
  // list and prune look at one workspace unless --all: the directory a run there would record.
  const workspace = values.all ? undefined : await resolveWorkspace(settings.workspace ?? process.cwd());
  const log = EventLog.open(sessionDbPath(settings, io.env));
  try {
    if (sub === 'list') {
      const sessions = log.sessions({ workspace });
      const others = sessions.length > 0 || workspace === undefined ? 0 : log.sessions().length;
      const none =
        workspace === undefined
          ? `no sessions in ${log.location}`
          : `no sessions of ${workspace} in ${log.location}${others > 0 ? ` (${others} in other workspaces: sessions list --all)` : ''}`;
      if (values.json) {
        io.out(`${JSON.stringify(sessions, null, 2)}\n`);
        // stdout stays the JSON a script parses; a script that asked from the wrong directory reads [] and this line says why.
        if (others > 0) io.err(`core-agent: ${none}\n`);
      } else if (sessions.length === 0) io.out(`${none}\n`);
      else io.out(sessionTable(sessions, workspace === undefined, io.env));
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
      // A child agent's session names the session that spawned it (docs/delegation.md).
      const start = events.find((e) => e.kind === 'session_start')?.data;
      const parent = start?.parent;
      // Who the session acted for (docs/users.md): a terminal run's user, watch's service principal.
      const who = (start?.principal as { name?: unknown } | undefined)?.name;
      io.out(
        `session ${session.id}  model ${session.model}  workspace ${session.workspace}  started ${localTime(session.createdAt, io.env)}  ${session.status}${typeof who === 'string' ? `  user ${who}` : ''}${typeof parent === 'string' ? `  parent ${parent}` : ''}\n`,
      );
      const tree = agentTree(log, id);
      if (tree.length > 0) io.out(`agents:\n${tree.join('\n')}\n`);
      const polls = pollCounts(events);
      for (const e of events) io.out(`${describe(e, polls, io.env)}\n`);
      return EXIT.ok;
    }
    if (sub === 'rm') {
      if (positionals.length === 0) throw new UsageError('sessions rm needs one or more IDs (sessions list shows them)', 'sessions');
      const ids = [...new Set(positionals)];
      const unknown = ids.filter((id) => !log.session(id));
      if (unknown.length > 0) {
        const named = unknown.slice(0, 5).map((id) => `"${id.slice(0, 64)}"`);
        throw new UsageError(
          `no session ${named.join(', ')}${unknown.length > 5 ? ` (and ${unknown.length - 5} more)` : ''} in ${log.location}; nothing was deleted`,
          'sessions',
        );
      }
      log.deleteSessions(ids);
      io.out(`deleted ${ids.length} session${ids.length === 1 ? '' : 's'}: ${ids.join(' ')}\n`);
      return EXIT.ok;
    }
    // prune
    const ageText = values['older-than'];
    if (ageText === undefined) throw new UsageError('sessions prune needs --older-than AGE (e.g. 30d, 12h, 2w, 90m)', 'sessions');
    const age = parseAge(ageText);
    if (age === undefined)
      throw new UsageError(
        `--older-than: "${ageText.slice(0, 40)}" is not an age; give a number and m, h, d or w (30d, 12h, 2w, 90m)`,
        'sessions',
      );
    const cutoff = Date.now() - age;
    const stale = log.sessions({ workspace }).filter((x) => Date.parse(x.lastAt) < cutoff);
    const scope = workspace === undefined ? 'in any workspace' : `of ${workspace}`;
    if (stale.length === 0) {
      io.out(`no sessions ${scope} older than ${ageText}\n`);
      return EXIT.ok;
    }
    if (values['dry-run']) {
      io.out(`would delete ${stale.length} session${stale.length === 1 ? '' : 's'} ${scope} older than ${ageText}:\n`);
      io.out(sessionTable(stale, workspace === undefined, io.env));
      return EXIT.ok;
    }
    log.deleteSessions(stale.map((x) => x.id));
    io.out(`deleted ${stale.length} session${stale.length === 1 ? '' : 's'} ${scope} older than ${ageText}\n`);
    return EXIT.ok;
  } finally {
    log.close();
  }
}

/**
 * The agents a session spawned, each under the agent that spawned it, from their sessions'
 * first and last events: name, profile, how it ended and its session id. A child's session
 * id is its parent's plus `:sub:<name>` (src/runtime/child-agents.ts).
 */
function agentTree(log: EventLog, id: string, ids = log.sessions().map((x) => x.id), depth = 1): string[] {
  const prefix = `${id}:sub:`;
  const direct = ids.filter((c) => c.startsWith(prefix) && !c.slice(prefix.length).includes(':sub:')).sort();
  return direct.flatMap((child) => {
    const events = log.events(child);
    const start = events.find((e) => e.kind === 'session_start')?.data ?? {};
    const end = events.findLast((e) => e.kind === 'agent_end')?.data;
    const cost = typeof end?.cost_usd === 'number' ? `, $${end.cost_usd.toFixed(4)}` : '';
    const state = end ? `${String(end.status)}${end.stop_reason ? `, ${String(end.stop_reason)}` : ''}${cost}` : 'no end recorded';
    const line = `${'  '.repeat(depth)}${String(start.agent ?? '?')} (${String(start.profile ?? '?')}) ${state}  ${child}`;
    return [line, ...agentTree(log, child, ids, depth + 1)];
  });
}

/** The list as a table: local times with their zone; the workspace column only when several can appear. */
function sessionTable(sessions: readonly SessionSummary[], withWorkspace: boolean, env: Io['env']): string {
  const rows = sessions.map((x) => [
    x.id,
    localTime(x.createdAt, env),
    localTime(x.lastAt, env),
    x.status,
    String(x.turns),
    ...(withWorkspace ? [x.workspace] : []),
    `${x.model} — ${x.title}`,
  ]);
  const header = ['ID', 'STARTED', 'LAST ACTIVE', 'STATUS', 'TURNS', ...(withWorkspace ? ['WORKSPACE'] : []), 'MODEL — TITLE'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : i === 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return `${[header, ...rows].map(line).join('\n')}\n`;
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
    case 'operator':
      return ' (operator !command)';
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

/** One event as a line of text (also `core-agent attach`'s view of a live session). */
export function describe(e: SessionEvent, polls: ReadonlyMap<string, number>, env: Io['env']): string {
  // The time of day only (the header has the date and zone), in local time like the rest.
  const head = `#${e.seq} t${e.turn} ${localTime(e.at, env, true).split(' ')[1]} ${e.kind}`;
  const d = e.data;
  switch (e.kind) {
    case 'user':
      return `${head}: ${String(d.text)}`;
    case 'response': {
      const content = (d.content as Array<{ type: string; text?: string; toolName?: string; input?: string }>) ?? [];
      const parts = content.map((c) => (c.type === 'text' ? JSON.stringify(c.text) : `call ${c.toolName} ${c.input ?? ''}`));
      const usage = d.usage as { inputTokens: number; outputTokens: number; estimatedCalls?: number };
      const estimated = usage.estimatedCalls ? ', estimated' : '';
      return `${head}: ${parts.join('; ') || '(empty)'}  [${usage.inputTokens} in / ${usage.outputTokens} out${estimated}]`;
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
