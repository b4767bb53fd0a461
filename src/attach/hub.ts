import { randomUUID } from 'node:crypto';
import { principal, type Principal } from '../core/principal.ts';
import type { Logger } from '../log.ts';
import type { EventLog, SessionSummary } from '../store/event-log.ts';
import { allows, NEED_ROLE, roleOf, type Need, type Role, type SessionAcl } from './acl.ts';
import { HttpError } from './http.ts';
import { PromptBroker } from './prompts.ts';
import type { Caller } from './route.ts';

/** The app every session of this daemon belongs to (the Go original's path grammar has an {app} segment). */
export const APP = 'core-agent';

/** An agent session as the daemon drives it: built by the composition root in the shared event log. */
export interface AttachAgentSession {
  readonly sessionId: string;
  readonly agent: { runTurn(prompt: string, signal?: AbortSignal): Promise<unknown>; readonly turn: number };
  /** Ends what the session started (terminals, MCP servers); the shared log stays open. */
  close(): Promise<void>;
}

/**
 * How the daemon gets a session: new with `title`, or `resume`d from the log;
 * its permission prompts go to `prompter` (the broker, which is the gate's
 * Prompter in shape). The CLI builds it from the root; attach never imports it.
 */
export type StartAttachSession = (o: {
  title: string;
  resume?: string | undefined;
  prompter: PromptBroker;
  /** Who the session acts for: its owner (its per-user families are rooted at the owner's home). */
  principal?: Principal | undefined;
}) => Promise<AttachAgentSession>;

/** The lists a session starts with: a service principal's sessions (watch's incidents) get the configured ones. */
export interface AccessLists {
  viewers: readonly string[];
  contributors: readonly string[];
}

export interface SessionRow {
  app: string;
  user: string;
  sessionID: string;
  has_event_log: boolean;
  status: 'active' | 'idle';
  last_touched_at: string;
  title?: string;
}

interface Live {
  s: AttachAgentSession;
  queue: Array<{ id: string; text: string }>;
  running: AbortController | null;
  /** Parked by an interrupt: queued messages wait for the next inject or wake. */
  held: boolean;
  pump: Promise<void> | null;
}

export interface SessionHubOptions {
  log: EventLog;
  /**
   * None: the sessions are run by someone else (watch's incidents) — they can be
   * listed and followed, but not created (501) or sent anything (409).
   */
  startSession?: StartAttachSession | undefined;
  logger: Logger;
  /** How long a permission prompt waits for an answer before it is denied. */
  promptTimeoutMs: number;
  /** The ACL of a session owned by a service principal until its owner or an admin changes it (attach.incident_access). */
  serviceAccess?: AccessLists | undefined;
}

const RESTART_NOTE = 'the turn was open when the attach daemon stopped; it was not continued';

/**
 * The daemon's sessions: every session the event log holds is listed and can be
 * attached to; one is loaded (its agent rebuilt by the root) when something is
 * sent to it. Messages queue while a turn runs and start the next turn in order.
 */
export class SessionHub {
  private readonly live = new Map<string, Live>();
  private readonly loading = new Map<string, Promise<Live>>();
  private readonly brokers = new Map<string, PromptBroker>();
  private readonly owners = new Map<string, Principal | null>();
  private readonly lists = new Map<string, AccessLists>();
  private closing = false;

  constructor(private readonly o: SessionHubOptions) {}

  /**
   * At start: a daemon session whose turn was open when the last daemon stopped
   * (killed, or the host went down) is marked interrupted in its log, once, so
   * every client sees why the turn has no end; it is not continued.
   */
  markInterrupted(): string[] {
    const marked: string[] = [];
    for (const s of this.o.log.sessions()) {
      if (s.status !== 'interrupted' || this.ownerOf(s.id) === null) continue;
      const last = this.o.log.events(s.id, Math.max(0, s.events - 1)).at(-1);
      if (last?.kind === 'error' && (last.data.interrupted === true || last.data.cancelled === true)) continue;
      this.o.log.append(s.id, s.turns, 'error', { message: RESTART_NOTE, interrupted: true });
      marked.push(s.id);
    }
    return marked;
  }

  /** The sessions the caller may read (the others are not mentioned at all). */
  list(caller: Caller): SessionRow[] {
    return this.o.log
      .sessions()
      .filter((s) => allows(this.roleOf(s.id, caller), 'read'))
      .map((s) => this.row(s));
  }

  /**
   * The caller's role on an existing session, checked against what the request needs: a session
   * it may not read is a 404 worded exactly as a missing one (its existence is not leaked); one it
   * may read but not act on is a 403 naming the role needed.
   */
  authorize(sid: string, caller: Caller, need: Need): Role {
    this.summary(sid);
    const role = this.roleOf(sid, caller);
    if (!allows(role, 'read')) throw notFound(sid);
    if (!allows(role, need))
      throw new HttpError(
        403,
        `${need} on session "${sid.slice(0, 100)}" needs the role ${NEED_ROLE[need]}; ${caller.principal} is a ${role}`,
      );
    return role!;
  }

  /** The session's owner and lists. */
  acl(sid: string): SessionAcl {
    return { owner: this.ownerOf(sid), ...this.listsOf(sid) };
  }

  /** Replaces the lists given (absent ones stay), recorded in the log so a restarted daemon keeps them. */
  setAcl(sid: string, by: string, patch: Partial<AccessLists>): SessionAcl {
    const now = { ...this.listsOf(sid), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as AccessLists;
    const lists = { viewers: [...new Set(now.viewers)], contributors: [...new Set(now.contributors)] };
    this.o.log.append(sid, this.live.get(sid)?.s.agent.turn ?? this.summary(sid).turns, 'operator', {
      action: 'acl',
      principal: by,
      ...lists,
    });
    this.lists.set(sid, lists);
    return this.acl(sid);
  }

  /** The session's summary, or a 404 naming it. */
  summary(sid: string): SessionSummary {
    const s = this.o.log.session(sid);
    if (!s) throw notFound(sid);
    return s;
  }

  async create(owner: Principal): Promise<SessionRow> {
    if (this.closing) throw new HttpError(503, 'the daemon is shutting down', undefined, { 'retry-after': '5' });
    if (!this.o.startSession) throw new HttpError(501, 'this daemon does not create sessions (its sessions are run by core-agent watch)');
    const broker = this.newBroker();
    const s = await this.o.startSession({ title: '', prompter: broker, principal: owner });
    this.adopt(s, broker);
    this.o.log.append(s.sessionId, 0, 'operator', { action: 'create', principal: owner.name, group: owner.group, tenant: owner.tenant });
    this.owners.set(s.sessionId, owner);
    return this.row(this.summary(s.sessionId));
  }

  /** Queue a user message; it starts a turn now when none is running. */
  async inject(sid: string, principal: string, text: string): Promise<{ id: string; started: boolean }> {
    const l = await this.load(sid);
    const id = randomUUID();
    const started = l.running === null && l.queue.length === 0;
    this.o.log.append(sid, l.s.agent.turn, 'operator', { action: 'inject', principal, prompt_id: id, queued: !started });
    l.queue.push({ id, text });
    l.held = false; // an operator's message releases an interrupt's hold
    this.pump(sid, l);
    return { id, started };
  }

  /** The wake signal: recorded (a `wake` frame for every watcher) and a held session released. */
  async wake(sid: string, principal: string): Promise<void> {
    this.summary(sid);
    const l = this.live.get(sid);
    this.o.log.append(sid, l?.s.agent.turn ?? this.summary(sid).turns, 'operator', {
      action: 'wake',
      principal,
      at: new Date().toISOString(),
    });
    if (l) {
      l.held = false;
      this.pump(sid, l);
    }
  }

  /**
   * Cancel the running turn as the REPL's Ctrl-C does: the model call and running
   * tools are aborted, a prompt waiting for an answer is denied. With `hold`, the
   * queued messages wait for the next inject or wake.
   */
  interrupt(sid: string, principal: string, hold: boolean): { interrupted: boolean; paused: boolean } {
    const s = this.summary(sid);
    const l = this.live.get(sid);
    const running = l?.running ?? null;
    this.o.log.append(sid, l?.s.agent.turn ?? s.turns, 'operator', { action: 'interrupt', principal, in_flight: running !== null, hold });
    if (!l) return { interrupted: false, paused: false };
    l.held = hold;
    if (running && !running.signal.aborted) {
      running.abort(new DOMException(`interrupted by ${principal} (attach)`, 'AbortError'));
      this.brokers.get(sid)?.denyAll(principal);
    }
    return { interrupted: running !== null, paused: hold };
  }

  async remove(sid: string): Promise<void> {
    this.summary(sid);
    const l = this.live.get(sid);
    if (l) await this.unload(sid, l, 'the session was deleted');
    this.brokers.get(sid)?.denyAll('deleted');
    this.brokers.delete(sid);
    this.owners.delete(sid);
    this.lists.delete(sid);
    this.o.log.deleteSessions([sid]);
  }

  /** The broker whose prompts /perms/stream shows (one per session, made on first use). */
  broker(sid: string): PromptBroker {
    let b = this.brokers.get(sid);
    if (!b) {
      b = this.newBroker();
      b.sessionId = sid;
      this.brokers.set(sid, b);
    }
    return b;
  }

  /** Shutdown: running turns are stopped (their logs say so) and every session closed. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.loading.values()].map((p) => p.catch(() => undefined)));
    await Promise.all([...this.live].map(([sid, l]) => this.unload(sid, l, 'the attach daemon stopped')));
  }

  private row(s: SessionSummary): SessionRow {
    const title = s.title || this.firstPrompt(s.id);
    return {
      app: APP,
      user: this.ownerOf(s.id)?.name ?? '',
      sessionID: s.id,
      has_event_log: true,
      status: this.live.has(s.id) ? 'active' : 'idle',
      last_touched_at: s.lastAt,
      ...(title ? { title: title.slice(0, 80) } : {}),
    };
  }

  /**
   * Who the session acts for: who created it through the daemon (its `operator` create event),
   * else the principal its session_start records (a terminal run's user, watch's service
   * principal); a sub-agent's session is its root's. Null: none on record (admins only).
   */
  private ownerOf(sid: string): Principal | null {
    if (this.owners.has(sid)) return this.owners.get(sid)!;
    const sub = sid.indexOf(':sub:');
    if (sub > 0) return this.ownerOf(sid.slice(0, sub));
    const events = this.o.log.events(sid, 0);
    const created = events.find((e) => e.kind === 'operator' && e.data.action === 'create');
    const started = events.find((e) => e.kind === 'session_start')?.data.principal;
    const owner = created
      ? recorded(created.data)
      : typeof started === 'object' && started !== null
        ? recorded(started as Record<string, unknown>)
        : null;
    this.owners.set(sid, owner);
    return owner;
  }

  /** The last lists recorded (an `acl` operator event), else a service principal's configured ones, else none. */
  private listsOf(sid: string): AccessLists {
    const sub = sid.indexOf(':sub:');
    if (sub > 0) return this.listsOf(sid.slice(0, sub));
    const have = this.lists.get(sid);
    if (have) return have;
    const set = this.o.log.events(sid, 0).findLast((e) => e.kind === 'operator' && e.data.action === 'acl');
    const lists: AccessLists = set
      ? { viewers: strings(set.data.viewers), contributors: strings(set.data.contributors) }
      : this.ownerOf(sid)?.service
        ? (this.o.serviceAccess ?? { viewers: [], contributors: [] })
        : { viewers: [], contributors: [] };
    this.lists.set(sid, lists);
    return lists;
  }

  private roleOf(sid: string, caller: Caller): Role | null {
    // A tokenless loopback daemon tells no one apart: every request is the same anonymous caller.
    if (caller.source === 'anonymous') return 'admin';
    return roleOf(caller.who, this.acl(sid));
  }

  private firstPrompt(sid: string): string {
    const user = this.o.log.events(sid).find((e) => e.kind === 'user');
    return typeof user?.data.text === 'string' ? user.data.text.split('\n')[0]! : '';
  }

  private newBroker(): PromptBroker {
    const broker: PromptBroker = new PromptBroker(this.o.promptTimeoutMs, (entry) => {
      const sid = broker.sessionId;
      const turn = this.live.get(sid)?.s.agent.turn ?? 0;
      this.o.log.append(sid, turn, 'operator', {
        action: 'permission',
        prompt_id: entry.id,
        tool: entry.tool,
        decision: entry.decision,
        principal: entry.approver,
        ...(entry.note !== undefined ? { note: entry.note } : {}),
      });
    });
    return broker;
  }

  private adopt(s: AttachAgentSession, broker: PromptBroker): Live {
    broker.sessionId = s.sessionId;
    this.brokers.set(s.sessionId, broker);
    const l: Live = { s, queue: [], running: null, held: false, pump: null };
    this.live.set(s.sessionId, l);
    return l;
  }

  private async load(sid: string): Promise<Live> {
    if (this.closing) throw new HttpError(503, 'the daemon is shutting down', undefined, { 'retry-after': '5' });
    const have = this.live.get(sid);
    if (have) return have;
    const pending = this.loading.get(sid);
    if (pending) return pending;
    this.summary(sid);
    const start = this.o.startSession;
    if (!start) throw new HttpError(409, `session "${sid}" is run by core-agent watch: follow it with /events; it takes no messages here`);
    const p = (async () => {
      try {
        const s = await start({ title: '', resume: sid, prompter: this.broker(sid), principal: this.ownerOf(sid) ?? undefined });
        return this.adopt(s, this.broker(sid));
      } catch (err) {
        if (err instanceof HttpError) throw err;
        throw new HttpError(409, `session "${sid}" cannot be continued here: ${String((err as Error).message).slice(0, 300)}`);
      } finally {
        this.loading.delete(sid);
      }
    })();
    this.loading.set(sid, p);
    return p;
  }

  private pump(sid: string, l: Live): void {
    if (l.pump) return;
    l.pump = (async () => {
      while (!l.held && !this.closing && l.queue.length > 0) {
        const next = l.queue.shift()!;
        const controller = new AbortController();
        l.running = controller;
        try {
          const result = (await l.s.agent.runTurn(next.text, controller.signal)) as { status?: string; text?: string } | undefined;
          // A halted agent runs nothing and logs nothing: say so in the log, or a client
          // following the turn (call_peer on a hub) would wait for an end that never comes.
          if (result?.status === 'halted') {
            this.o.log.append(sid, l.s.agent.turn, 'error', {
              message: `the agent is halted by its watchdog: ${String(result.text ?? '').slice(0, 2000)}`,
              halted: true,
            });
          }
        } catch (err) {
          const message = controller.signal.aborted
            ? `the turn was stopped: ${String((controller.signal.reason as Error)?.message ?? 'cancelled')}`
            : `the turn failed: ${String((err as Error).message).slice(0, 2000)}`;
          this.o.log.append(sid, l.s.agent.turn, 'error', { message, cancelled: controller.signal.aborted });
          if (!controller.signal.aborted) this.o.logger.warn({ session: sid, err: (err as Error).message }, 'attach turn failed');
        } finally {
          l.running = null;
        }
      }
      l.pump = null;
    })();
  }

  private async unload(sid: string, l: Live, why: string): Promise<void> {
    l.queue.length = 0;
    l.running?.abort(new DOMException(why, 'AbortError'));
    this.brokers.get(sid)?.denyAll('daemon');
    await l.pump;
    this.live.delete(sid);
    await l.s.close();
  }
}

function notFound(sid: string): HttpError {
  return new HttpError(404, `no session "${sid.slice(0, 100)}"`);
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** A principal as an event recorded it ({principal|name, group, tenant, service}); null when it names none validly. */
function recorded(data: Record<string, unknown>): Principal | null {
  const name = typeof data.principal === 'string' ? data.principal : data.name;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  try {
    return typeof name === 'string'
      ? principal(name, { group: text(data.group), tenant: text(data.tenant), service: data.service === true })
      : null;
  } catch {
    return null;
  }
}
