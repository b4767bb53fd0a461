import { createInterface } from 'node:readline';
import { sseFrames, type SseFrame } from '../attach/sse-client.ts';
import type { SessionEvent } from '../store/event-log.ts';
import { sleep } from '../util/sleep.ts';
import { parse } from './common-options.ts';
import { ATTACH } from './command-table.ts';
import { commandHelp } from './help-text.ts';
import { describe } from './sessions-command.ts';
import { APPROVAL_CHOICES, parseApproval } from './terminal/approval.ts';
import { EXIT, UsageError, type Io } from './usage.ts';

/** attach's --help: the prose around the options its table lists (command-table.ts ATTACH). */
export const attachHelp = (): string =>
  commandHelp(ATTACH, {
    about: `A terminal client of the attach daemon (core-agent serve, or watch with an
attach: section). Without SESSION, lists the daemon's sessions. With one, streams
its events as they happen (from the start, or after --since SEQ; a dropped
connection resumes where it stopped) and its permission prompts, which you answer
here: ${APPROVAL_CHOICES}.
Any other line is sent to the session as a message (it starts a turn, or queues);
/interrupt stops the running turn; /quit (or the end of input) leaves.`,
  });

const RECONNECT_TRIES = 5;

export async function attachCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, ATTACH);
  if (values.help) {
    io.out(`${attachHelp()}\n`);
    return EXIT.ok;
  }
  const [rawUrl, sid, extra] = positionals;
  if (rawUrl === undefined) throw new UsageError('attach needs the daemon URL (e.g. http://127.0.0.1:7777)', 'attach');
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra.slice(0, 60)}"`, 'attach');
  let base: URL;
  try {
    base = new URL(rawUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new UsageError(`"${rawUrl.slice(0, 100)}" is not an http(s) URL`, 'attach');
  }
  const since = values.since;
  const tokenEnv = values['token-env'];
  const token = tokenEnv === undefined ? undefined : io.env[tokenEnv];
  if (tokenEnv !== undefined && !token) throw new UsageError(`--token-env: ${tokenEnv} is not set`, 'attach');
  const client = new Client(base.href.replace(/\/$/, ''), token);
  if (sid === undefined) return listSessions(client, io);
  return follow(client, sid, since, io);
}

class Client {
  constructor(
    readonly base: string,
    private readonly token: string | undefined,
  ) {}

  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers: Record<string, string> = { ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) };
    if (init.method && init.method !== 'GET') headers['content-type'] = 'application/json';
    return fetch(this.base + path, { ...init, headers });
  }

  async json(path: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
    const res = await this.fetch(path, init);
    const text = await res.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // not JSON
    }
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${String(body.error ?? text).slice(0, 300)}`);
    return body;
  }
}

async function listSessions(client: Client, io: Io): Promise<number> {
  try {
    const { sessions } = (await client.json('/sessions')) as { sessions: Array<Record<string, unknown>> };
    if (sessions.length === 0) {
      io.out('no sessions\n');
      return EXIT.ok;
    }
    const rows = [['SESSION', 'STATUS', 'OWNER', 'LAST', 'TITLE']];
    for (const s of sessions)
      rows.push([s.sessionID, s.status, s.user || '-', s.last_touched_at, s.title ?? ''].map((c) => inert(String(c), 60)));
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    io.out(`${rows.map((r) => r.map((c, i) => (i < r.length - 1 ? c.padEnd(widths[i]!) : c)).join('  ')).join('\n')}\n`);
    return EXIT.ok;
  } catch (err) {
    io.err(`core-agent: ${(err as Error).message}\n`);
    return EXIT.failure;
  }
}

interface Prompt {
  id: string;
  tool: string;
  args: unknown;
}

/** Follow one session: its events and prompts in, the operator's lines out, until /quit or the end of input. */
async function follow(client: Client, sid: string, since: number, io: Io): Promise<number> {
  const path = `/sessions/${encodeURIComponent(sid)}`;
  // The session must exist (and the token be good) before anything streams: one clear error otherwise.
  try {
    const { sessions } = (await client.json('/sessions')) as { sessions: Array<{ sessionID: string }> };
    if (!sessions.some((s) => s.sessionID === sid)) throw new Error(`no session "${sid.slice(0, 100)}" on ${client.base}`);
  } catch (err) {
    io.err(`core-agent: ${(err as Error).message}\n`);
    return EXIT.failure;
  }
  const stop = new AbortController();
  const pending: Prompt[] = [];
  let noteFor: Prompt | null = null;
  const say = (text: string) => io.out(`${text}\n`);

  const events = (async () => {
    let last = since;
    for (let tries = 0; tries < RECONNECT_TRIES && !stop.signal.aborted; tries++) {
      try {
        const res = await client.fetch(`${path}/events?since=${last}`, { signal: stop.signal });
        if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
        tries = 0;
        for await (const f of sseFrames(res.body)) {
          if (f.id === undefined) continue; // capabilities
          last = f.id;
          say(eventLine(f, io.env));
        }
      } catch (err) {
        if (stop.signal.aborted) return;
        io.err(`core-agent: the event stream dropped (${(err as Error).message}); reconnecting after ${last}\n`);
      }
      await sleep(1000, stop.signal).catch(() => undefined);
    }
  })();

  const prompts = (async () => {
    try {
      const res = await client.fetch(`${path}/perms/stream`, { signal: stop.signal });
      if (!res.ok || !res.body) return;
      for await (const f of sseFrames(res.body)) {
        const d = f.data as Record<string, unknown>;
        if (f.event === 'prompt') {
          const p = { id: String(d.id), tool: String(d.tool), args: d.args };
          pending.push(p);
          say(`? ${inert(p.tool, 80)} asks for approval: ${inert(JSON.stringify(p.args), 600)}`);
          say(`Allow ${inert(p.tool, 80)}? ${APPROVAL_CHOICES}`);
        } else if (f.event === 'resolved') {
          const i = pending.findIndex((p) => p.id === d.id);
          if (i >= 0) pending.splice(i, 1);
          say(`· ${inert(String(d.decision), 20)} by ${inert(String(d.approver), 80)}`);
        }
      }
    } catch {
      // stopped, or the daemon went away (the event stream says so)
    }
  })();

  const send = async (line: string) => {
    try {
      if (noteFor) {
        const p = noteFor;
        noteFor = null;
        await client.json(`${path}/perms/respond`, { method: 'POST', body: JSON.stringify({ id: p.id, decision: 'deny', note: line }) });
        return;
      }
      const prompt = pending[0];
      if (prompt) {
        const answer = parseApproval(line);
        if (answer === null) return say('Answer y, a, n or m');
        if (answer === 'note') {
          noteFor = prompt;
          return say('Note to the model:');
        }
        const body =
          answer === 'once'
            ? { decision: 'allow' }
            : answer === 'session'
              ? { decision: 'always' }
              : answer === 'deny'
                ? { decision: 'deny' }
                : { decision: 'deny', note: answer.deny };
        await client.json(`${path}/perms/respond`, { method: 'POST', body: JSON.stringify({ id: prompt.id, ...body }) });
        return;
      }
      if (line === '/interrupt') {
        const r = await client.json(`${path}/interrupt`, { method: 'POST' });
        return say(r.interrupted ? '· interrupted' : '· nothing to interrupt');
      }
      if (line.trim() === '') return;
      await client.json(`${path}/inject`, { method: 'POST', body: JSON.stringify({ message: line }) });
    } catch (err) {
      io.err(`core-agent: ${(err as Error).message}\n`);
    }
  };

  const rl = createInterface({ input: process.stdin, terminal: false });
  const onSignal = () => rl.close();
  process.once('SIGINT', onSignal);
  try {
    for await (const line of rl) {
      if (line.trim() === '/quit') break;
      await send(line);
    }
  } finally {
    process.off('SIGINT', onSignal);
    rl.close();
    stop.abort();
    await Promise.all([events, prompts]);
  }
  return EXIT.ok;
}

/** A frame of /events as `sessions show` prints an event; what a person did, in words. */
function eventLine(f: SseFrame, env: NodeJS.ProcessEnv): string {
  const e = f.data as SessionEvent;
  const d = (e.data ?? {}) as Record<string, unknown>;
  if (e.kind === 'operator') {
    const who = inert(String(d.principal), 80);
    const what =
      d.action === 'permission'
        ? `${who} answered ${inert(String(d.tool), 80)}: ${inert(String(d.decision), 20)}`
        : `${who}: ${inert(String(d.action), 20)}`;
    return `#${e.seq} t${e.turn} ${what}`;
  }
  if (e.kind === 'turn_end' && typeof d.text === 'string' && d.text)
    return `${inert(d.text, 20_000)}\n${inert(describe(e, new Map(), env), 2000)}`;
  return inert(describe(e, new Map(), env), 2000);
}

/**
 * Text from the daemon, made inert for the terminal: a control character (an
 * escape sequence in a tool's output) is shown as a code, never interpreted;
 * newlines are kept; bounded.
 */
function inert(text: string, max: number): string {
  const visible = text.replace(/[\x00-\x09\x0b-\x1f\x7f\x9b]/g, (c) =>
    c === '\t' ? c : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return visible.length > max ? `${visible.slice(0, max - 1)}…` : visible;
}
