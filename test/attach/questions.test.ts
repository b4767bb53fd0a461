import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionHub } from '../../src/attach/hub.ts';
import { startAttachServer } from '../../src/attach/server.ts';
import { sessionRoutes } from '../../src/attach/session-routes.ts';
import { parseTokens } from '../../src/attach/tokens.ts';
import { silentLogger } from '../../src/log.ts';
import { attachSessions } from '../../src/runtime/attach-step.ts';
import { resolveSettings } from '../../src/runtime/settings.ts';
import { buildSystem } from '../../src/runtime/system.ts';
import { EventLog } from '../../src/store/event-log.ts';
import { BOB, call, eventually, TOKENS, workspace } from './daemon.ts';

/**
 * golem's AskUserQuestionTool asynchronously, across two turns, through the attach daemon
 * (in this process on 127.0.0.1, its sessions built by the real root over a replay model,
 * under `--dialect golem`): the first turn asks and ends, the answer comes over HTTP and
 * starts the second turn in the same conversation.
 */
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const s of stops.splice(0)) await s();
});

const QUESTION = { question: 'Which port should the server listen on?', header: 'Port', options: ['8080', '443'] };

const script = () =>
  workspace([{ tool_calls: [{ name: 'AskUserQuestionTool', args: { questions: [QUESTION] } }] }, { text: 'Listening on 443.' }]);

async function golemDaemon(ws = script()) {
  const env = { HOME: ws.dir, PATH: process.env.PATH };
  const settings = resolveSettings({ workspace: ws.dir, model: ws.model, mode: 'ask', sessionDb: ws.db, dialect: 'golem' }, env);
  const log = EventLog.open(ws.db);
  const startSession = attachSessions({ settings, env, command: 'serve', log, say: () => undefined, build: (r) => buildSystem(r) });
  const hub = new SessionHub({ log, startSession, logger: silentLogger, promptTimeoutMs: 30_000 });
  const server = await startAttachServer({
    host: '127.0.0.1',
    port: 0,
    tokens: parseTokens(TOKENS, 'ATTACH_TOKENS'),
    routes: [sessionRoutes(hub, log)],
    logger: silentLogger,
  });
  stops.push(async () => {
    await server.close();
    await hub.close();
    log.close();
  });
  const url = `http://${server.address}`;
  const stop = async () => {
    stops.splice(stops.indexOf(stopping), 1);
    await stopping();
  };
  const stopping = stops.at(-1)!;
  return { ws, log, stop, call: (method: string, p: string, c: Parameters<typeof call>[3] = {}) => call(url, method, p, c) };
}

/** A session whose first turn asked and ended: its id and the question set's id. */
async function asked(d: Awaited<ReturnType<typeof golemDaemon>>) {
  const sid = String((await d.call('POST', '/sessions')).json!.sessionID);
  await d.call('POST', `/sessions/${sid}/inject`, { body: { message: 'set up the server' } });
  await eventually(() => d.log.events(sid).some((e) => e.kind === 'turn_end'));
  const list = await d.call('GET', `/sessions/${sid}/questions`);
  const sets = list.json!.questions as Array<Record<string, unknown>>;
  return { sid, id: String(sets[0]!.id), sets };
}

const turnEnds = (log: EventLog, sid: string) => log.events(sid).filter((e) => e.kind === 'turn_end');

describe('AskUserQuestionTool across two turns through the attach daemon', () => {
  it('the first turn asks and ends; the answer starts the second turn with it', async () => {
    const d = await golemDaemon();
    const { sid, id, sets } = await asked(d);
    // Turn 1: the tool result is golem's text, the questions are in the log, the turn ended there.
    const events = d.log.events(sid);
    const result = events.find((e) => e.kind === 'tool_result')!;
    expect(result.data).toMatchObject({ name: 'AskUserQuestionTool', ok: true });
    expect(JSON.stringify(result.data.shown)).toContain('The questions are now with the user. This turn ends here');
    expect(turnEnds(d.log, sid)).toHaveLength(1);
    expect(turnEnds(d.log, sid)[0]!.data).toMatchObject({
      status: 'done',
      text: expect.stringMatching(/^Waiting for your answers:\n- \[Port\] Which port/),
    });
    expect(sets).toEqual([expect.objectContaining({ id, questions: [QUESTION], status: 'pending', expires_at: expect.any(String) })]);
    expect(Math.abs(Date.parse(String(sets[0]!.expires_at)) - Date.now() - 24 * 3_600_000)).toBeLessThan(120_000);

    // An answer that does not fit the question is refused, naming it; nothing starts.
    const wrong = await d.call('POST', `/sessions/${sid}/questions/${id}/answer`, { body: { answers: { [QUESTION.question]: '22' } } });
    expect(wrong.status).toBe(400);
    expect(wrong.json!.error).toMatch(/"22" is not one of its options \(8080, 443\)/);

    const ok = await d.call('POST', `/sessions/${sid}/questions/${id}/answer`, { body: { answers: { [QUESTION.question]: '443' } } });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ answered: id, session: sid, woke: true });
    await eventually(() => turnEnds(d.log, sid).length === 2);
    const users = d.log.events(sid).filter((e) => e.kind === 'user');
    expect(users.map((e) => e.data.text)).toEqual(['set up the server', `The user answered:\n- ${QUESTION.question}: 443\n`]);
    expect(turnEnds(d.log, sid)[1]!.data).toMatchObject({ status: 'done', text: 'Listening on 443.' });
    // The same conversation: turn 2's request holds turn 1's prompt, ask and result (the log records the count).
    const requests = d.log.events(sid).filter((e) => e.kind === 'request');
    expect(Number(requests.at(-1)!.data.messages)).toBe(Number(requests[0]!.data.messages) + 3);

    // Answered once: a second answer is refused, and the list says who answered.
    const again = await d.call('POST', `/sessions/${sid}/questions/${id}/answer`, { body: { answers: { [QUESTION.question]: '8080' } } });
    expect(again.status).toBe(409);
    expect(again.json!.error).toMatch(/already answered by alice/);
    expect((await d.call('GET', `/sessions/${sid}/questions`)).json!.questions).toEqual([
      expect.objectContaining({ id, status: 'answered', answered_by: 'alice' }),
    ]);
    expect(turnEnds(d.log, sid)).toHaveLength(2);
  });

  it('past the TTL the answer is refused with a clear error, and no turn starts', async () => {
    const d = await golemDaemon();
    const { sid, id } = await asked(d);
    // The daemon's clock, a day and a minute on (only Date: the HTTP and the timers stay real).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 24 * 3_600_000 + 60_000 });
    const late = await d.call('POST', `/sessions/${sid}/questions/${id}/answer`, { body: { answers: { [QUESTION.question]: '443' } } });
    expect(late.status).toBe(410);
    expect(late.json!.error).toMatch(/expired at .*answer_ttl_hours.*send the answer as a new message/);
    expect((await d.call('GET', `/sessions/${sid}/questions`)).json!.questions).toEqual([
      expect.objectContaining({ id, status: 'expired' }),
    ]);
    expect(d.log.events(sid).filter((e) => e.kind === 'user')).toHaveLength(1);
  });

  it('the answer is taken by a daemon started after the one that asked (the session resumed from the log)', async () => {
    const first = await golemDaemon();
    const { sid, id } = await asked(first);
    await first.stop();
    const second = await golemDaemon(first.ws);
    const ok = await second.call('POST', `/sessions/${sid}/questions/${id}/answer`, { body: { answers: { [QUESTION.question]: '443' } } });
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    await eventually(() => turnEnds(second.log, sid).length === 2);
    expect(turnEnds(second.log, sid)[1]!.data).toMatchObject({ status: 'done', text: 'Listening on 443.' });
  });

  it("the session's ACL decides who sees and answers its questions (src/attach/acl.ts)", async () => {
    const d = await golemDaemon();
    const { sid, id } = await asked(d);
    const answer = { answers: { [QUESTION.question]: '443' } };
    // No role: the session is not there for bob, its questions neither.
    const stranger = await d.call('POST', `/sessions/${sid}/questions/${id}/answer`, { token: BOB, body: answer });
    expect(stranger.status).toBe(404);
    expect(stranger.json!.error).toMatch(/^no session "/);
    expect((await d.call('GET', `/sessions/${sid}/questions`, { token: BOB })).status).toBe(404);
    // A viewer sees the questions but may not answer them.
    expect((await d.call('PATCH', `/sessions/${sid}/acl`, { body: { viewers: ['bob@example.com'] } })).status).toBe(200);
    expect((await d.call('GET', `/sessions/${sid}/questions`, { token: BOB })).json!.questions).toEqual([
      expect.objectContaining({ id, status: 'pending' }),
    ]);
    const viewer = await d.call('POST', `/sessions/${sid}/questions/${id}/answer`, { token: BOB, body: answer });
    expect(viewer.status).toBe(403);
    expect(viewer.json!.error).toMatch(/needs the role contributor or owner/);
    expect(d.log.events(sid).some((e) => e.kind === 'operator' && e.data.action === 'answer')).toBe(false);
    // An unknown id and a wrong method are named.
    expect((await d.call('POST', `/sessions/${sid}/questions/nope/answer`, { body: { answers: {} } })).status).toBe(404);
    expect((await d.call('GET', `/sessions/${sid}/questions/${id}/answer`)).status).toBe(405);
    expect(turnEnds(d.log, sid)).toHaveLength(1);
  });
});
