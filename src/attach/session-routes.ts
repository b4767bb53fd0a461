import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod/v4';
import type { EventLog, SessionEvent } from '../store/event-log.ts';
import { aclPatch, type Need, type SessionAcl } from './acl.ts';
import { HttpError, openSse, pathSegment, readJson, sendJson, sseFrame } from './http.ts';
import { APP, type SessionHub } from './hub.ts';
import { respondBody, type PromptNotice } from './prompts.ts';
import { questionRoute } from './questions.ts';
import type { Caller, Route } from './route.ts';
import { TurnFrames } from './turn-frames.ts';

/** The protocol this daemon speaks on /events (announced in the capabilities frame). */
export const PROTOCOL_VERSION = '1.0.0';

const injectBody = z.strictObject({ message: z.string().trim().min(1, 'the message is empty').max(6000) });
const wakeBody = z.strictObject({ target: z.string().max(200).optional(), prompt: z.string().max(6000).optional() });
const interruptBody = z.strictObject({ hold: z.boolean().optional(), stop_subagents: z.boolean().optional() });
const since = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** How often an idle SSE stream gets a comment line, so proxies and clients see it is alive. */
const KEEPALIVE_MS = 15_000;

/**
 * The session API as one Route: the list and lifecycle, the event stream with
 * replay from a cursor, inject / wake / interrupt, the permission prompts, and
 * whoami. `/sessions/{sid}/…` and `/sessions/core-agent/{sid}/…` are the same.
 */
export function sessionRoutes(hub: SessionHub, log: EventLog): Route {
  return async (req, res, url, caller) => {
    const method = req.method ?? 'GET';
    // Segments decode one by one, each naming its field: /peers/… and the rest are other routes' paths.
    const raw = url.pathname.split('/').filter(Boolean);
    const first = raw[0] === undefined ? undefined : pathSegment(raw[0], 'path');
    if (first !== 'sessions' && first !== 'whoami') return false;
    const parts = raw.map((segment, i) => pathSegment(segment, i === 0 ? 'path' : sessionField(raw, i)));
    if (parts.length === 1 && parts[0] === 'whoami' && method === 'GET') {
      const w = caller.who;
      sendJson(res, 200, {
        identity: caller.principal,
        admin: w.admin,
        ...(w.group !== undefined ? { group: w.group } : {}),
        ...(w.tenant !== undefined ? { tenant: w.tenant } : {}),
        source: caller.source ?? 'bearer',
      });
      return true;
    }
    if (parts[0] !== 'sessions') return false;
    if (parts.length === 1) {
      if (method === 'GET') sendJson(res, 200, { sessions: hub.list(caller) });
      else if (method === 'POST') {
        const row = await hub.create(caller.who);
        const url = `http://${req.headers.host ?? 'localhost'}/sessions/${APP}/${row.sessionID}`;
        sendJson(res, 201, { app: row.app, user: row.user, sessionID: row.sessionID, url });
      } else throw methodNotAllowed(method, 'GET, POST');
      return true;
    }
    // The qualified form /sessions/core-agent/{sid}/… (a session id never equals the app's name).
    const rest = parts[1] === APP && parts.length > 2 ? parts.slice(2) : parts.slice(1);
    const [sid, ...suffix] = rest as [string, ...string[]];
    const action = suffix.join('/');
    await dispatch(hub, log, { req, res, url, caller, sid, action, method });
    return true;
  };
}

/** What segment i of /sessions/[core-agent/]{sid}/{action} is, for a refusal. */
function sessionField(raw: readonly string[], i: number): string {
  const sidAt = raw[1] === APP && raw.length > 2 ? 2 : 1;
  return i === sidAt ? 'sessionID' : i < sidAt ? 'app' : 'action';
}

interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  caller: Caller;
  sid: string;
  action: string;
  method: string;
}

async function dispatch(hub: SessionHub, log: EventLog, c: Call): Promise<void> {
  const { req, res, sid, caller } = c;
  const want = (m: string) => {
    if (c.method !== m) throw methodNotAllowed(c.method, m);
  };
  // Who may do what (src/attach/acl.ts): a session the caller may not read is a 404 like a missing one.
  hub.authorize(sid, caller, needOf(c.action));
  switch (c.action) {
    case 'acl': {
      if (c.method === 'GET') return sendJson(res, 200, aclBody(sid, hub.acl(sid)));
      want('PATCH');
      const body = await readJson(req, aclPatch);
      if (body.owner !== undefined)
        throw new HttpError(
          400,
          'owner: a session keeps the owner it was created by (it acts in their home); change viewers or contributors',
          'owner',
        );
      sendJson(res, 200, aclBody(sid, hub.setAcl(sid, caller.principal, { viewers: body.viewers, contributors: body.contributors })));
      return;
    }
    case '':
      want('DELETE');
      await hub.remove(sid);
      res.writeHead(204).end();
      return;
    case 'events':
      want('GET');
      return streamEvents(hub, log, c);
    case 'inject': {
      want('POST');
      const body = await readJson(req, injectBody);
      const r = await hub.inject(sid, caller.principal, body.message);
      sendJson(res, 200, { injected: body.message, session: sid, woke: r.started, prompt_id: r.id });
      return;
    }
    case 'wake': {
      want('POST');
      const body = await readJson(req, wakeBody);
      if (body.target !== undefined) throw new HttpError(501, 'wake targets are not supported: omit target', 'target');
      await hub.wake(sid, caller.principal);
      const prompt = body.prompt?.trim() ?? '';
      const injected = prompt ? await hub.inject(sid, caller.principal, prompt) : undefined;
      sendJson(res, 200, { woken: sid, prompt, ...(injected ? { prompt_id: injected.id } : {}) });
      return;
    }
    case 'interrupt': {
      want('POST');
      const body = await readJson(req, interruptBody);
      const r = hub.interrupt(sid, caller.principal, body.hold ?? true);
      const headers: Record<string, string> = r.interrupted ? {} : { 'x-interrupted': 'nothing-in-flight' };
      sendJson(res, 200, { ...r, running_subagents: [], stopped_subagents: [], session: sid }, headers);
      return;
    }
    case 'perms/stream':
      want('GET');
      return streamPrompts(hub, c);
    case 'perms/respond': {
      want('POST');
      hub.summary(sid);
      const body = await readJson(req, respondBody);
      if (!hub.broker(sid).respond(body, caller.principal))
        throw new HttpError(404, `no pending prompt "${body.id}" in session ${sid} (answered, timed out, or never asked)`, 'id');
      sendJson(res, 200, { acknowledged: true, approver: caller.principal });
      return;
    }
    default:
      // AskUserQuestionTool's questions and their answers (questions.ts).
      if (await questionRoute(hub, log, c)) return;
      throw new HttpError(404, `no such endpoint: ${c.method} /sessions/${sid.slice(0, 100)}/${c.action.slice(0, 100)}`);
  }
}

/**
 * /events: the session's log from the cursor (`?since=SEQ` or Last-Event-ID, the
 * last seq the client has), then live. The subscription is made before the log
 * is read (today both happen in one synchronous step, so nothing can be appended
 * between them; the buffer keeps that true if the read ever becomes async), and a
 * frame at or below the last seq sent is dropped, so the ids only ever increase.
 */
function streamEvents(hub: SessionHub, log: EventLog, c: Call): void {
  const { req, res, url, sid } = c;
  hub.summary(sid);
  const raw = url.searchParams.get('since') ?? (typeof req.headers['last-event-id'] === 'string' ? req.headers['last-event-id'] : null);
  const cursor = raw === null ? { success: true as const, data: 0 } : since.safeParse(raw);
  if (!cursor.success) throw new HttpError(400, 'since: a non-negative integer (the last event seq the client has)', 'since');
  let last = cursor.data;
  let replaying = true;
  const buffered: SessionEvent[] = [];
  // The Go wire's typed frames (agent, turn-complete, turn-error) follow each log frame, without an id:
  // the cursor stays the log's seq, and a client that reads only the log frames skips them.
  const typed = new TurnFrames();
  const send = (e: SessionEvent, live: boolean) => {
    if (e.seq <= last) return;
    last = e.seq;
    const wake = e.kind === 'operator' && e.data.action === 'wake';
    sseFrame(res, wake ? 'wake' : e.kind, { seq: e.seq, turn: e.turn, at: e.at, kind: e.kind, data: e.data }, e.seq);
    for (const f of typed.of(e, live)) sseFrame(res, f.event, f.data);
  };
  const unsubscribe = log.subscribe((e) => {
    if (e.sessionId !== sid) return;
    if (replaying) buffered.push(e);
    else send(e, true);
  });
  const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
  const stop = () => {
    unsubscribe();
    clearInterval(keepalive);
  };
  // The response's close, not the request's: a GET's request "closes" once its (empty) body is read.
  res.on('close', stop);
  openSse(res, { 'x-attach-protocol-version': PROTOCOL_VERSION });
  sseFrame(res, 'capabilities', {
    protocol_version: PROTOCOL_VERSION,
    session: sid,
    caller_id: c.caller.principal,
    features: { multi_session: true, perms_stream: true, interrupt: true, pause: false },
    event_types: EVENT_TYPES,
  });
  for (const e of log.events(sid, last)) send(e, false);
  replaying = false;
  for (const e of buffered.splice(0)) send(e, true);
}

const EVENT_TYPES = [
  'session_start',
  'user',
  'request',
  'response',
  'tool_result',
  'turn_end',
  'checkpoint',
  'watchdog',
  'error',
  'operator',
  'question',
  'wake',
  'agent',
  'turn-complete',
  'turn-error',
];

/** /perms/stream: every prompt waiting now, then each new one (`prompt`) and each answer (`resolved`). */
function streamPrompts(hub: SessionHub, c: Call): void {
  const { res, sid } = c;
  hub.summary(sid);
  const broker = hub.broker(sid);
  openSse(res);
  const send = (n: PromptNotice) => (n.type === 'prompt' ? sseFrame(res, 'prompt', n.prompt) : sseFrame(res, 'resolved', n));
  for (const p of broker.pending()) sseFrame(res, 'prompt', p);
  const unsubscribe = broker.subscribe(send);
  const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
  res.on('close', () => {
    unsubscribe();
    clearInterval(keepalive);
  });
}

/**
 * What each action under /sessions/{sid}/ needs (src/attach/acl.ts). Every action is authorized
 * before it is looked at: one missing here needs write, so an endpoint added without a line here
 * is never open to a viewer or a stranger.
 */
const NEEDS: Readonly<Record<string, Need>> = {
  '': 'manage',
  acl: 'manage',
  events: 'read',
  'perms/stream': 'read',
  // AskUserQuestionTool's question sets (questions.ts); answering one (questions/{id}/answer) writes.
  questions: 'read',
  inject: 'write',
  wake: 'write',
  interrupt: 'write',
  'perms/respond': 'write',
};

export function needOf(action: string): Need {
  return Object.hasOwn(NEEDS, action) ? NEEDS[action]! : 'write';
}

function aclBody(sid: string, acl: SessionAcl): Record<string, unknown> {
  return {
    session: sid,
    owner: acl.owner?.name ?? null,
    ...(acl.owner?.service ? { owner_service: true } : {}),
    viewers: acl.viewers,
    contributors: acl.contributors,
  };
}

function methodNotAllowed(method: string, allowed: string): HttpError {
  return new HttpError(405, `${method} is not allowed here (use ${allowed})`, undefined, { allow: allowed });
}
